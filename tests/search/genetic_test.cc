// The genetic algorithm of RLWS paper Sec. IV-H: operators on known chromosomes, selection
// statistics, the generation rules, and resume == uninterrupted with an injected fitness.
#include "search/genetic.h"

#include <gtest/gtest.h>

#include <cmath>
#include <map>
#include <nlohmann/json.hpp>
#include <set>

#include "core/error.h"
#include "search/search.h"

using namespace warpsim;
using namespace warpsim::search;

namespace {

// A chromosome whose every gene has value (g % gene_values(g)) shifted by `shift`.
Chromosome patterned(int shift) {
  Chromosome c;
  for (int g = 0; g < kNumGenes; ++g) c.genes[size_t(g)] = uint8_t((g + shift) % int(gene_values(g)));
  return c;
}

// A deterministic fitness landscape: rewards few attributes, small alpha and one target gene.
double toy_fitness(const Chromosome& c) {
  double f = 1.0 + 0.02 * (8 - std::abs(c.attribute_count() - 8)) / 8.0;
  f += 0.01 * (7 - c.genes[size_t(param_gene(Param::Alpha))]) / 7.0;
  f += c.buckets(rl::Attr::L1MP) == 8 ? 0.03 : 0.0;
  return f;
}

struct CountingEvaluator {
  std::vector<std::string> seen;
  std::vector<double> operator()(const std::vector<Chromosome>& batch) {
    std::vector<double> f;
    for (const auto& c : batch) {
      seen.push_back(c.key());
      f.push_back(toy_fitness(c));
    }
    return f;
  }
};

}  // namespace

TEST(Genetic, OnePointCrossoverOnKnownChromosomes) {
  Chromosome a = patterned(0), b = patterned(1);
  auto [c1, c2] = crossover(a, b, 5);
  for (int g = 0; g < kNumGenes; ++g) {
    EXPECT_EQ(c1.genes[size_t(g)], g < 5 ? a.genes[size_t(g)] : b.genes[size_t(g)]) << g;
    EXPECT_EQ(c2.genes[size_t(g)], g < 5 ? b.genes[size_t(g)] : a.genes[size_t(g)]) << g;
  }
  // Crossing at the attribute/parameter boundary swaps exactly the five RL parameters.
  auto [p1, p2] = crossover(a, b, rl::kNumAttrs);
  for (int p = 0; p < kNumParams; ++p) {
    EXPECT_EQ(p1.param(Param(p)), b.param(Param(p)));
    EXPECT_EQ(p2.param(Param(p)), a.param(Param(p)));
  }
  EXPECT_EQ(describe_attributes(p1), describe_attributes(a));
  // The last possible point exchanges only the last gene.
  auto [l1, l2] = crossover(a, b, kNumGenes - 1);
  EXPECT_EQ(l1.genes.back(), b.genes.back());
  EXPECT_EQ(l2.genes[0], b.genes[0]);
  EXPECT_THROW(crossover(a, b, 0), Error);
  EXPECT_THROW(crossover(a, b, kNumGenes), Error);
}

TEST(Genetic, MutationOnKnownChromosome) {
  Chromosome a = patterned(0);
  Chromosome m = mutate(a, attr_gene(rl::Attr::L1MP), 3);
  EXPECT_EQ(m.buckets(rl::Attr::L1MP), 8u);
  int diff = 0;
  for (int g = 0; g < kNumGenes; ++g) diff += m.genes[size_t(g)] != a.genes[size_t(g)];
  EXPECT_LE(diff, 1);
  EXPECT_THROW(mutate(a, attr_gene(rl::Attr::ATBWB), 2), Error);  // boolean gene: 0 or 1
  EXPECT_THROW(mutate(a, kNumGenes, 0), Error);

  // p = 0 never mutates; p = 1 always changes exactly one gene to another in-range value.
  warpsim::Rng rng(3);
  for (int i = 0; i < 500; ++i) {
    Chromosome c = a;
    EXPECT_FALSE(maybe_mutate(c, 0.0, rng));
    EXPECT_EQ(c, a);
    EXPECT_TRUE(maybe_mutate(c, 1.0, rng));
    int changed = 0;
    for (int g = 0; g < kNumGenes; ++g) {
      changed += c.genes[size_t(g)] != a.genes[size_t(g)];
      EXPECT_LT(c.genes[size_t(g)], gene_values(g));
    }
    EXPECT_EQ(changed, 1);
  }
}

TEST(Genetic, MutationProbabilityIsInverselyProportionalToParentsFitness) {
  EXPECT_DOUBLE_EQ(mutation_probability(0.25, 1.0, 1.0), 0.25);
  EXPECT_DOUBLE_EQ(mutation_probability(0.25, 2.0, 1.0), 0.125);  // twice as fit: half the chance
  EXPECT_DOUBLE_EQ(mutation_probability(0.25, 0.5, 1.0), 0.5);
  EXPECT_DOUBLE_EQ(mutation_probability(0.2, 1.1, 0.99), 0.2 * 0.99 / 1.1);
  EXPECT_DOUBLE_EQ(mutation_probability(0.8, 0.2, 1.0), 1.0);  // clamped
  EXPECT_DOUBLE_EQ(mutation_probability(0.25, 0.0, 1.0), 1.0);
  EXPECT_DOUBLE_EQ(mutation_probability(0.0, 0.0, 1.0), 0.0);
  EXPECT_DOUBLE_EQ(mutation_probability(0.25, 1.0, 0.0), 0.25);
}

TEST(Genetic, SelectionFrequenciesMatchFitnessProportions) {
  const std::vector<double> w = {1.0, 2.0, 3.0, 4.0, 0.0, 1.5};
  double total = 0;
  for (double x : w) total += x;
  RouletteWheel wheel(w);
  warpsim::Rng rng(12345);
  const int n = 200000;
  std::vector<int> count(w.size(), 0);
  for (int i = 0; i < n; ++i) ++count[wheel.pick(rng)];
  EXPECT_EQ(count[4], 0);  // fitness 0 is never picked
  // Chi-square over the five non-zero classes (4 degrees of freedom; 18.47 is the 0.001 quantile).
  double chi2 = 0;
  for (size_t i = 0; i < w.size(); ++i) {
    if (w[i] == 0) continue;
    double expected = n * w[i] / total;
    chi2 += (count[i] - expected) * (count[i] - expected) / expected;
  }
  EXPECT_LT(chi2, 18.47) << "chi-square " << chi2;
  // Each frequency within 1 % (absolute) of its proportion.
  for (size_t i = 0; i < w.size(); ++i) EXPECT_NEAR(double(count[i]) / n, w[i] / total, 0.01) << i;

  // All-zero fitness: uniform.
  RouletteWheel flat(std::vector<double>{0, 0, 0, 0});
  std::vector<int> c2(4, 0);
  for (int i = 0; i < 40000; ++i) ++c2[flat.pick(rng)];
  for (int x : c2) EXPECT_NEAR(x / 40000.0, 0.25, 0.01);
  EXPECT_THROW(RouletteWheel(std::vector<double>{}), Error);
  EXPECT_THROW(RouletteWheel(std::vector<double>{1.0, -1.0}), Error);
}

TEST(Genetic, ZeroFitnessCandidatesAreNeverParents) {
  GaParams p;
  p.population = 10;
  p.newcomers = 0;
  p.mutation_rate = 0;
  std::vector<Candidate> prev;
  for (int i = 0; i < 10; ++i) {
    Chromosome c;
    c.genes[0] = 0;  // ATBWB unused everywhere ...
    c.genes[size_t(attr_gene(rl::Attr::NIW))] = 1;
    prev.push_back({c, Origin::Random, 1.0 + i * 0.01});
  }
  prev[3].chromosome.genes[0] = 1;  // ... except in the one candidate that cannot run
  prev[3].fitness = 0;
  auto next = make_generation(1, prev, {}, p);
  ASSERT_EQ(next.size(), 10u);
  for (const auto& c : next) {
    EXPECT_EQ(c.origin, Origin::Child);
    EXPECT_EQ(c.chromosome.genes[0], 0);
  }
}

TEST(Genetic, GenerationComposition) {
  GaParams p;
  p.population = 20;
  p.newcomers = 2;
  p.seed = 9;
  auto g0 = make_generation(0, {}, {}, p);
  ASSERT_EQ(g0.size(), 20u);
  for (const auto& c : g0) {
    EXPECT_EQ(c.origin, Origin::Random);
    EXPECT_TRUE(c.chromosome.valid());
  }
  std::vector<Candidate> prev = g0;
  for (size_t i = 0; i < prev.size(); ++i) prev[i].fitness = 1.0 + 0.01 * double(i);
  std::vector<Candidate> best = {{patterned(2), Origin::Random, 2.0}, {patterned(3), Origin::Child, 1.9}};
  for (uint32_t g : {1u, 9u, 10u, 11u, 19u, 20u, 30u}) {
    auto next = make_generation(g, prev, best, p);
    ASSERT_EQ(next.size(), 20u);
    for (size_t i = 0; i < 18; ++i) EXPECT_EQ(next[i].origin, Origin::Child) << g;
    bool elite = g % 10 == 0;
    EXPECT_EQ(is_elite_generation(g, p), elite);
    for (size_t i = 18; i < 20; ++i) EXPECT_EQ(next[i].origin, elite ? Origin::Elite : Origin::Random) << g;
    if (elite) {
      EXPECT_EQ(next[18].chromosome, best[0].chromosome);
      EXPECT_EQ(next[19].chromosome, best[1].chromosome);
    }
    // Same inputs, same generation.
    auto again = make_generation(g, prev, best, p);
    for (size_t i = 0; i < 20; ++i) EXPECT_EQ(again[i].chromosome, next[i].chromosome);
  }
  EXPECT_FALSE(is_elite_generation(0, p));
}

TEST(Genetic, BestDistinctKeepsOneOfEachChromosome) {
  std::vector<Candidate> seen = {{patterned(0), Origin::Random, 1.0},
                                 {patterned(1), Origin::Random, 1.3},
                                 {patterned(0), Origin::Child, 1.0},
                                 {patterned(2), Origin::Random, 1.3},
                                 {patterned(3), Origin::Random, 0.9}};
  auto b = best_distinct(seen, 3);
  ASSERT_EQ(b.size(), 3u);
  EXPECT_EQ(b[0].chromosome, patterned(1));  // ties keep the first seen first
  EXPECT_EQ(b[1].chromosome, patterned(2));
  EXPECT_EQ(b[2].chromosome, patterned(0));
  EXPECT_EQ(best_distinct(seen, 10).size(), 4u);
}

TEST(Genetic, EveryTenthGenerationBringsBackTheBestSoFar) {
  GaParams p;
  p.population = 12;
  p.newcomers = 3;
  p.generations = 21;
  p.seed = 5;
  CountingEvaluator ev;
  GeneticSearch s(p, "toy");
  s.run([&](const std::vector<Chromosome>& b) { return ev(b); }, nullptr);
  ASSERT_EQ(s.generations().size(), 21u);
  for (uint32_t g : {10u, 20u}) {
    // The three best distinct chromosomes of generations 0 .. g-1, computed here from the record.
    std::map<std::string, double> fit;
    std::vector<std::string> order;
    for (uint32_t k = 0; k < g; ++k)
      for (const auto& c : s.generations()[k])
        if (fit.emplace(c.chromosome.key(), c.fitness).second) order.push_back(c.chromosome.key());
    std::stable_sort(order.begin(), order.end(), [&](const auto& x, const auto& y) { return fit[x] > fit[y]; });
    const auto& gen = s.generations()[g];
    for (size_t i = 0; i < 3; ++i) {
      EXPECT_EQ(gen[9 + i].origin, Origin::Elite);
      EXPECT_EQ(gen[9 + i].chromosome.key(), order[i]) << "generation " << g << " elite " << i;
    }
  }
  for (uint32_t g : {1u, 9u, 11u, 19u})
    for (size_t i = 9; i < 12; ++i) EXPECT_EQ(s.generations()[g][i].origin, Origin::Random);
  // Each distinct chromosome was evaluated once; repeats were free.
  std::set<std::string> uniq(ev.seen.begin(), ev.seen.end());
  EXPECT_EQ(uniq.size(), ev.seen.size());
  EXPECT_EQ(ev.seen.size(), s.distinct_evaluated());
  EXPECT_LT(ev.seen.size(), 21u * 12u);  // elites at least are repeats
  // Fitness recorded is the evaluator's.
  for (const auto& c : s.all_candidates()) EXPECT_DOUBLE_EQ(c.fitness, toy_fitness(c.chromosome));
  // The best so far never gets worse.
  auto st = generation_stats(s);
  for (size_t g = 1; g < st.size(); ++g) EXPECT_GE(st[g].best_so_far, st[g - 1].best_so_far);
}

TEST(Genetic, ResumedSearchEqualsUninterrupted) {
  GaParams p;
  p.population = 10;
  p.newcomers = 1;
  p.generations = 23;
  p.seed = 77;
  CountingEvaluator e1;
  GeneticSearch whole(p, "toy identity");
  int saves = 0;
  whole.run([&](const std::vector<Chromosome>& b) { return e1(b); }, [&](const GeneticSearch&) { ++saves; });
  EXPECT_EQ(saves, 23);

  // Killed after 4, then after 7 more, each time saved as text and reloaded.
  CountingEvaluator e2;
  auto eval2 = [&](const std::vector<Chromosome>& b) { return e2(b); };
  GeneticSearch part(p, "toy identity");
  part.run(eval2, nullptr, 4);
  EXPECT_EQ(part.generations().size(), 4u);
  EXPECT_FALSE(part.finished());
  std::string saved = part.to_json().dump();
  GeneticSearch r1 = GeneticSearch::from_json(nlohmann::json::parse(saved), p, "toy identity");
  r1.run(eval2, nullptr, 7);
  GeneticSearch r2 = GeneticSearch::from_json(nlohmann::json::parse(r1.to_json().dump()), p, "toy identity");
  r2.run(eval2, nullptr);
  EXPECT_TRUE(r2.finished());
  EXPECT_EQ(r2.to_json().dump(), whole.to_json().dump());
  EXPECT_EQ(history_csv(r2), history_csv(whole));
  // No evaluation was lost or repeated across the interruptions.
  EXPECT_EQ(e2.seen, e1.seen);

  // A state made with another seed, population or identity does not resume.
  GaParams other = p;
  other.seed = 78;
  EXPECT_THROW(GeneticSearch::from_json(nlohmann::json::parse(saved), other, "toy identity"), Error);
  other = p;
  other.population = 11;
  EXPECT_THROW(GeneticSearch::from_json(nlohmann::json::parse(saved), other, "toy identity"), Error);
  EXPECT_THROW(GeneticSearch::from_json(nlohmann::json::parse(saved), p, "another"), Error);
  EXPECT_THROW(GeneticSearch::from_json(nlohmann::json::parse("{\"format\": 3}"), p, "toy identity"), Error);
  // More generations than the state was made for is fine.
  GaParams longer = p;
  longer.generations = 30;
  EXPECT_NO_THROW(GeneticSearch::from_json(nlohmann::json::parse(saved), longer, "toy identity"));
}

TEST(Genetic, GenerationStatsByHand) {
  GaParams p;
  p.population = 4;
  p.newcomers = 1;
  nlohmann::json j = {{"format", "warpsim-genetic-search"},
                      {"version", 1},
                      {"identity", "x"},
                      {"ga",
                       {{"population", 4},
                        {"generations", 100},
                        {"newcomers", 1},
                        {"elite_period", 10},
                        {"mutation_rate", 0.25},
                        {"attr_probability", 0.25},
                        {"seed", 1}}}};
  std::string a = patterned(0).key(), b = patterned(1).key(), c = patterned(2).key();
  auto cand = [](const std::string& k, double f) {
    return nlohmann::json{{"genes", k}, {"origin", "random"}, {"fitness", f}};
  };
  j["generations"] = {{cand(a, 1.0), cand(b, 1.2), cand(a, 1.0), cand(c, 0.8)},
                      {cand(a, 1.0), cand(b, 1.2), cand(b, 1.2), cand(a, 1.0)}};
  GeneticSearch s = GeneticSearch::from_json(j, p, "x");
  auto st = generation_stats(s);
  ASSERT_EQ(st.size(), 2u);
  EXPECT_DOUBLE_EQ(st[0].best, 1.2);
  EXPECT_DOUBLE_EQ(st[0].median, 1.0);  // 0.8 1.0 1.0 1.2
  EXPECT_DOUBLE_EQ(st[0].mean, 1.0);
  EXPECT_EQ(st[0].new_evaluations, 3u);  // a, b, c
  EXPECT_DOUBLE_EQ(st[1].median, 1.1);   // 1.0 1.0 1.2 1.2
  EXPECT_EQ(st[1].new_evaluations, 0u);
  EXPECT_DOUBLE_EQ(st[1].best_so_far, 1.2);
  EXPECT_EQ(s.distinct_evaluated(), 3u);
  std::string csv = history_csv(s);
  EXPECT_EQ(std::count(csv.begin(), csv.end(), '\n'), 9);  // header + 8 candidates
  EXPECT_NE(csv.find("1,3,random,1," + a + ","), std::string::npos);
}
