// The genetic algorithm of the RLWS paper (Sec. IV-H): a random initial population; each next
// generation is children of fitness-proportionally chosen parents (one-point crossover, at
// most one mutation with a probability inversely proportional to the parents' fitness) plus a
// tenth of random newcomers, except every `elite_period`-th generation, which brings back the
// best candidates seen so far instead of the newcomers.
//
// Determinism: generation g is built from an Rng seeded with (seed, g) alone and from the
// recorded generations before it, so a search resumed from its saved state makes exactly the
// generations an uninterrupted search with the same seed makes.
#pragma once
#include <cstdint>
#include <functional>
#include <nlohmann/json_fwd.hpp>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "core/rng.h"
#include "search/chromosome.h"

namespace warpsim::search {

struct GaParams {
  uint32_t population = 100;
  uint32_t generations = 100;      // including the initial one (generation 0)
  uint32_t newcomers = 10;         // random (or best-so-far) candidates per generation
  uint32_t elite_period = 10;      // every this many generations the newcomers are the best so far
  double mutation_rate = 0.25;     // mutation probability of a child of parents of average fitness
  double attr_probability = 0.25;  // chance that a random candidate uses a given attribute
  uint64_t seed = 1;

  // Throws Error on inconsistent values (newcomers > population, rates outside [0, 1], ...).
  void validate() const;
};

enum class Origin : uint8_t { Random, Child, Elite };
const char* origin_name(Origin o);
Origin origin_from_name(const std::string& s);  // throws Error

struct Candidate {
  Chromosome chromosome;
  Origin origin = Origin::Random;
  double fitness = 0;  // geometric-mean speedup over the baseline; 0 for a candidate that cannot run
};

// --- Operators --------------------------------------------------------------------------------

// A random valid chromosome: each attribute used with probability `attr_probability` (bucket
// count uniform among its choices; redrawn until at least one attribute is used), each
// parameter uniform over its values.
Chromosome random_chromosome(Rng& rng, double attr_probability);

// One-point crossover after gene `point` - 1 (1 <= point < kNumGenes): the first child has a's
// genes before the point and b's from it on, the second the other way round.
std::pair<Chromosome, Chromosome> crossover(const Chromosome& a, const Chromosome& b, int point);

// Sets gene `gene` to `value` (checked against gene_values; throws Error when out of range).
Chromosome mutate(const Chromosome& c, int gene, uint32_t value);

// Mutation probability of a child: rate * population_mean / parents_mean, clamped to [0, 1]
// (1 when the parents' fitness is 0, rate when the population mean is 0).
double mutation_probability(double rate, double parents_mean, double population_mean);

// With probability p, changes one uniformly chosen gene to a different uniformly chosen value.
// Returns whether it mutated.
bool maybe_mutate(Chromosome& c, double p, Rng& rng);

// Fitness-proportional selection (roulette wheel). Weights must be >= 0; when they are all 0
// every index is equally likely.
class RouletteWheel {
 public:
  explicit RouletteWheel(std::span<const double> weights);
  size_t pick(Rng& rng) const;

 private:
  std::vector<double> cumulative_;
};

// The distinct candidates with the highest fitness among `seen`, best first; ties keep the
// order in which they were first seen.
std::vector<Candidate> best_distinct(std::span<const Candidate> seen, size_t n);

// True when generation g's newcomers are the best so far (g > 0 and g % elite_period == 0).
bool is_elite_generation(uint32_t g, const GaParams& p);

// The Rng of generation g.
Rng generation_rng(uint64_t seed, uint32_t g);

// Generation g (without fitness): generation 0 is `population` random candidates; later ones
// are built from `previous` (generation g - 1, with fitness) and `best_so_far` (best distinct
// candidates of generations 0 .. g - 1, best first).
std::vector<Candidate> make_generation(uint32_t g, std::span<const Candidate> previous,
                                       std::span<const Candidate> best_so_far, const GaParams& p);

// --- The search -------------------------------------------------------------------------------

// Fitness of each chromosome of a batch (distinct, valid, never evaluated before in this search).
using Evaluator = std::function<std::vector<double>(const std::vector<Chromosome>&)>;

class GeneticSearch {
 public:
  // `identity`: what the fitness depends on (scheduler, GPU, workloads, ...); a resumed search
  // must have the same identity and GA parameters (generations may grow).
  GeneticSearch(GaParams ga, std::string identity);

  const GaParams& params() const { return ga_; }
  const std::string& identity() const { return identity_; }
  const std::vector<std::vector<Candidate>>& generations() const { return gens_; }
  bool finished() const { return gens_.size() >= ga_.generations; }

  // Runs generations until `ga.generations` are done or `max_new` more have been made
  // (negative: no limit). After each generation calls `after` (to save the state).
  void run(const Evaluator& eval, const std::function<void(const GeneticSearch&)>& after, int max_new = -1);

  // Every candidate evaluated so far, in order.
  std::vector<Candidate> all_candidates() const;
  std::vector<Candidate> best(size_t n) const { return best_distinct(all_candidates(), n); }
  // Number of distinct chromosomes evaluated (the rest were repeats, free).
  size_t distinct_evaluated() const;

  // The state as JSON, and a search rebuilt from it. from_json throws Error on a malformed
  // state or one whose identity or parameters (except generations) differ from `ga`/`identity`.
  nlohmann::json to_json() const;
  static GeneticSearch from_json(const nlohmann::json& j, const GaParams& ga, const std::string& identity);

 private:
  GaParams ga_;
  std::string identity_;
  std::vector<std::vector<Candidate>> gens_;
};

}  // namespace warpsim::search
