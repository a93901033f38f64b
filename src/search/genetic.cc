#include "search/genetic.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <nlohmann/json.hpp>
#include <set>

#include "core/error.h"

namespace warpsim::search {

void GaParams::validate() const {
  if (population < 2) throw Error(fmt::format("population {} is too small (at least 2)", population));
  if (generations < 1) throw Error("at least one generation is needed");
  if (newcomers > population)
    throw Error(fmt::format("{} newcomers per generation exceed the population of {}", newcomers, population));
  if (elite_period < 1) throw Error("the elite period must be at least 1 generation");
  if (!(mutation_rate >= 0 && mutation_rate <= 1))
    throw Error(fmt::format("mutation rate {} is outside [0, 1]", mutation_rate));
  if (!(attr_probability > 0 && attr_probability <= 1))
    throw Error(fmt::format("attribute probability {} is outside (0, 1]", attr_probability));
}

const char* origin_name(Origin o) {
  switch (o) {
    case Origin::Random:
      return "random";
    case Origin::Child:
      return "child";
    case Origin::Elite:
      return "elite";
  }
  return "?";
}

Origin origin_from_name(const std::string& s) {
  if (s == "random") return Origin::Random;
  if (s == "child") return Origin::Child;
  if (s == "elite") return Origin::Elite;
  throw Error(fmt::format("unknown candidate origin '{}'", s));
}

Chromosome random_chromosome(Rng& rng, double attr_probability) {
  Chromosome c;
  do {
    for (int g = 0; g < rl::kNumAttrs; ++g) {
      bool used = rng.uniform() < attr_probability;
      uint32_t choices = gene_values(g) - 1;  // used values 1 .. choices
      c.genes[size_t(g)] = used ? uint8_t(1 + rng.below(choices)) : 0;
    }
  } while (c.attribute_count() == 0);
  for (int p = 0; p < kNumParams; ++p) {
    int g = param_gene(Param(p));
    c.genes[size_t(g)] = uint8_t(rng.below(gene_values(g)));
  }
  return c;
}

std::pair<Chromosome, Chromosome> crossover(const Chromosome& a, const Chromosome& b, int point) {
  if (point < 1 || point >= kNumGenes)
    throw Error(fmt::format("crossover point {} is outside [1, {}]", point, kNumGenes - 1));
  Chromosome c1 = a, c2 = b;
  for (int g = point; g < kNumGenes; ++g) {
    c1.genes[size_t(g)] = b.genes[size_t(g)];
    c2.genes[size_t(g)] = a.genes[size_t(g)];
  }
  return {c1, c2};
}

Chromosome mutate(const Chromosome& c, int gene, uint32_t value) {
  if (gene < 0 || gene >= kNumGenes) throw Error(fmt::format("gene {} does not exist", gene));
  if (value >= gene_values(gene))
    throw Error(fmt::format("gene {} ({}) has no value {}", gene, gene_name(gene), value));
  Chromosome m = c;
  m.genes[size_t(gene)] = uint8_t(value);
  return m;
}

double mutation_probability(double rate, double parents_mean, double population_mean) {
  if (!(parents_mean > 0)) return rate > 0 ? 1.0 : 0.0;
  if (!(population_mean > 0)) return rate;
  return std::clamp(rate * population_mean / parents_mean, 0.0, 1.0);
}

bool maybe_mutate(Chromosome& c, double p, Rng& rng) {
  if (!(rng.uniform() < p)) return false;
  int g = int(rng.below(kNumGenes));
  uint32_t n = gene_values(g);
  // A different value, uniformly among the n - 1 others.
  uint32_t v = uint32_t(rng.below(n - 1));
  if (v >= c.genes[size_t(g)]) ++v;
  c.genes[size_t(g)] = uint8_t(v);
  return true;
}

RouletteWheel::RouletteWheel(std::span<const double> weights) {
  if (weights.empty()) throw Error("selection from an empty population");
  double sum = 0;
  for (double w : weights) {
    if (!(w >= 0) || !std::isfinite(w)) throw Error(fmt::format("selection weight {} is not a finite value >= 0", w));
    sum += w;
  }
  cumulative_.reserve(weights.size());
  double acc = 0;
  for (double w : weights) {
    acc += sum > 0 ? w : 1.0;
    cumulative_.push_back(acc);
  }
}

size_t RouletteWheel::pick(Rng& rng) const {
  // upper_bound never lands on a zero-weight entry (its cumulative value equals its
  // predecessor's); only rounding at the very top can run past the end.
  double x = rng.uniform() * cumulative_.back();
  size_t i = size_t(std::upper_bound(cumulative_.begin(), cumulative_.end(), x) - cumulative_.begin());
  if (i >= cumulative_.size()) {
    i = cumulative_.size() - 1;
    while (i > 0 && cumulative_[i] == cumulative_[i - 1]) --i;
  }
  return i;
}

std::vector<Candidate> best_distinct(std::span<const Candidate> seen, size_t n) {
  std::vector<Candidate> distinct;
  std::set<std::string> keys;
  for (const auto& c : seen)
    if (keys.insert(c.chromosome.key()).second) distinct.push_back(c);
  std::stable_sort(distinct.begin(), distinct.end(),
                   [](const Candidate& a, const Candidate& b) { return a.fitness > b.fitness; });
  if (distinct.size() > n) distinct.resize(n);
  return distinct;
}

bool is_elite_generation(uint32_t g, const GaParams& p) { return g > 0 && g % p.elite_period == 0; }

Rng generation_rng(uint64_t seed, uint32_t g) {
  uint64_t x = seed ^ 0x5ea2c4e7a11d0c1bull;
  uint64_t a = splitmix64(x);
  x = a + 0x9e3779b97f4a7c15ull * (uint64_t(g) + 1);
  return Rng(splitmix64(x));
}

std::vector<Candidate> make_generation(uint32_t g, std::span<const Candidate> previous,
                                       std::span<const Candidate> best_so_far, const GaParams& p) {
  Rng rng = generation_rng(p.seed, g);
  std::vector<Candidate> out;
  out.reserve(p.population);
  if (g == 0) {
    for (uint32_t i = 0; i < p.population; ++i)
      out.push_back({random_chromosome(rng, p.attr_probability), Origin::Random, 0});
    return out;
  }
  if (previous.empty()) throw Error(fmt::format("generation {} needs the generation before it", g));
  uint32_t n_new = std::min(p.newcomers, p.population);
  uint32_t n_children = p.population - n_new;
  std::vector<double> fitness;
  fitness.reserve(previous.size());
  double sum = 0;
  for (const auto& c : previous) {
    double f = std::isfinite(c.fitness) && c.fitness > 0 ? c.fitness : 0.0;
    fitness.push_back(f);
    sum += f;
  }
  double mean = sum / double(previous.size());
  RouletteWheel wheel(fitness);
  while (out.size() < n_children) {
    size_t i = wheel.pick(rng), j = wheel.pick(rng);
    int point = 1 + int(rng.below(kNumGenes - 1));
    auto [c1, c2] = crossover(previous[i].chromosome, previous[j].chromosome, point);
    double pm = mutation_probability(p.mutation_rate, 0.5 * (fitness[i] + fitness[j]), mean);
    maybe_mutate(c1, pm, rng);
    maybe_mutate(c2, pm, rng);
    out.push_back({c1, Origin::Child, 0});
    if (out.size() < n_children) out.push_back({c2, Origin::Child, 0});
  }
  if (is_elite_generation(g, p)) {
    for (size_t k = 0; k < best_so_far.size() && out.size() < p.population; ++k)
      out.push_back({best_so_far[k].chromosome, Origin::Elite, 0});
  }
  while (out.size() < p.population) out.push_back({random_chromosome(rng, p.attr_probability), Origin::Random, 0});
  return out;
}

// --- GeneticSearch ----------------------------------------------------------------------------

GeneticSearch::GeneticSearch(GaParams ga, std::string identity) : ga_(ga), identity_(std::move(identity)) {
  ga_.validate();
}

std::vector<Candidate> GeneticSearch::all_candidates() const {
  std::vector<Candidate> all;
  for (const auto& g : gens_) all.insert(all.end(), g.begin(), g.end());
  return all;
}

size_t GeneticSearch::distinct_evaluated() const {
  std::set<std::string> keys;
  for (const auto& g : gens_)
    for (const auto& c : g)
      if (c.chromosome.valid()) keys.insert(c.chromosome.key());
  return keys.size();
}

void GeneticSearch::run(const Evaluator& eval, const std::function<void(const GeneticSearch&)>& after, int max_new) {
  int made = 0;
  while (gens_.size() < ga_.generations && (max_new < 0 || made < max_new)) {
    uint32_t g = uint32_t(gens_.size());
    std::vector<Candidate> best_so_far = g ? best(ga_.newcomers) : std::vector<Candidate>{};
    std::span<const Candidate> previous;
    if (g) previous = gens_.back();
    std::vector<Candidate> gen = make_generation(g, previous, best_so_far, ga_);

    std::map<std::string, double> memo;
    for (const auto& prior : gens_)
      for (const auto& c : prior) memo.emplace(c.chromosome.key(), c.fitness);
    std::vector<Chromosome> todo;
    std::map<std::string, size_t> todo_index;
    for (const auto& c : gen) {
      if (!c.chromosome.valid()) continue;
      std::string k = c.chromosome.key();
      if (memo.count(k) || todo_index.count(k)) continue;
      todo_index[k] = todo.size();
      todo.push_back(c.chromosome);
    }
    std::vector<double> fit;
    if (!todo.empty()) {
      fit = eval(todo);
      if (fit.size() != todo.size())
        throw Error(fmt::format("the evaluator returned {} fitness values for {} candidates", fit.size(), todo.size()));
    }
    for (auto& c : gen) {
      if (!c.chromosome.valid()) {
        c.fitness = 0;
        continue;
      }
      std::string k = c.chromosome.key();
      auto m = memo.find(k);
      double f = m != memo.end() ? m->second : fit[todo_index.at(k)];
      c.fitness = std::isfinite(f) && f > 0 ? f : 0.0;
    }
    gens_.push_back(std::move(gen));
    ++made;
    if (after) after(*this);
  }
}

nlohmann::json GeneticSearch::to_json() const {
  nlohmann::json gens = nlohmann::json::array();
  for (const auto& g : gens_) {
    nlohmann::json arr = nlohmann::json::array();
    for (const auto& c : g)
      arr.push_back({{"genes", c.chromosome.key()}, {"origin", origin_name(c.origin)}, {"fitness", c.fitness}});
    gens.push_back(std::move(arr));
  }
  return {{"format", "warpsim-genetic-search"},
          {"version", 1},
          {"identity", identity_},
          {"ga",
           {{"population", ga_.population},
            {"generations", ga_.generations},
            {"newcomers", ga_.newcomers},
            {"elite_period", ga_.elite_period},
            {"mutation_rate", ga_.mutation_rate},
            {"attr_probability", ga_.attr_probability},
            {"seed", ga_.seed}}},
          {"generations", std::move(gens)}};
}

GeneticSearch GeneticSearch::from_json(const nlohmann::json& j, const GaParams& ga, const std::string& identity) {
  GeneticSearch s(ga, identity);
  try {
    if (j.at("format").get<std::string>() != "warpsim-genetic-search" || j.at("version").get<int>() != 1)
      throw Error("not a search state of this version");
    if (j.at("identity").get<std::string>() != identity)
      throw Error("it was made for another scheduler, GPU, workload set, size or baseline:\n" +
                  j.at("identity").get<std::string>());
    const auto& g = j.at("ga");
    auto differs = [&](const char* key, auto mine) {
      using T = decltype(mine);
      T saved = g.at(key).get<T>();
      if (saved != mine) throw Error(fmt::format("it was made with {} = {} (now {})", key, saved, mine));
    };
    differs("population", ga.population);
    differs("newcomers", ga.newcomers);
    differs("elite_period", ga.elite_period);
    differs("mutation_rate", ga.mutation_rate);
    differs("attr_probability", ga.attr_probability);
    differs("seed", ga.seed);
    for (const auto& arr : j.at("generations")) {
      std::vector<Candidate> gen;
      for (const auto& c : arr) {
        Candidate cand;
        cand.chromosome = chromosome_from_key(c.at("genes").get<std::string>());
        cand.origin = origin_from_name(c.at("origin").get<std::string>());
        cand.fitness = c.at("fitness").get<double>();
        if (!std::isfinite(cand.fitness) || cand.fitness < 0) throw Error("a fitness is not a finite value >= 0");
        gen.push_back(cand);
      }
      if (gen.size() != ga.population)
        throw Error(fmt::format("generation {} has {} candidates, not {}", s.gens_.size(), gen.size(), ga.population));
      s.gens_.push_back(std::move(gen));
    }
  } catch (const nlohmann::json::exception& e) {
    throw Error(fmt::format("malformed search state: {}", e.what()));
  }
  return s;
}

}  // namespace warpsim::search
