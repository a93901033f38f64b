// Chromosome encoding of the RLWS design space and its round trips through RlConfig and TOML.
#include "search/chromosome.h"

#include <gtest/gtest.h>

#include <algorithm>

#include "core/error.h"
#include "core/rng.h"
#include "rl/rl_config.h"
#include "search/genetic.h"

using namespace warpsim;
using namespace warpsim::search;

namespace {

std::vector<std::pair<rl::Attr, uint32_t>> sorted_attrs(const rl::RlConfig& c) {
  std::vector<std::pair<rl::Attr, uint32_t>> v;
  for (const auto& a : c.attrs) v.push_back({a.attr, a.buckets});
  std::sort(v.begin(), v.end());
  return v;
}

}  // namespace

TEST(Chromosome, GeneAlphabets) {
  EXPECT_EQ(kNumGenes, 39);                                // 34 Table II attributes + 5 RL parameters
  EXPECT_EQ(gene_values(attr_gene(rl::Attr::ATBWB)), 2u);  // boolean: unused / 2 buckets
  EXPECT_EQ(gene_values(attr_gene(rl::Attr::NTF)), 2u);
  EXPECT_EQ(gene_values(attr_gene(rl::Attr::NIW)), 4u);  // unused / 2 / 4 / 8 buckets
  EXPECT_EQ(gene_values(attr_gene(rl::Attr::GNMIE)), 4u);
  for (int p = 0; p < kNumParams; ++p) EXPECT_GE(param_values(Param(p)).size(), 5u) << param_name(Param(p));
  EXPECT_EQ(gene_name(attr_gene(rl::Attr::L1MP)), "L1MP");
  EXPECT_EQ(gene_name(param_gene(Param::Gamma)), "gamma");
  EXPECT_EQ(gene_values(-1), 0u);
  EXPECT_EQ(gene_values(kNumGenes), 0u);
}

TEST(Chromosome, TableVDefaultsAreAChromosome) {
  rl::RlConfig d = rl::RlConfig::rlws_defaults();
  Chromosome c = from_rl_config(d);
  EXPECT_EQ(c.attribute_count(), 8);
  EXPECT_EQ(c.buckets(rl::Attr::AGML), 2u);
  EXPECT_EQ(c.buckets(rl::Attr::GNMIE), 8u);
  EXPECT_EQ(c.buckets(rl::Attr::NRAI), 4u);
  EXPECT_EQ(c.buckets(rl::Attr::NIW), 0u);
  EXPECT_DOUBLE_EQ(c.param(Param::Alpha), 0.09);
  EXPECT_DOUBLE_EQ(c.param(Param::Epsilon), 0.04);
  EXPECT_DOUBLE_EQ(c.param(Param::Gamma), 0.95);
  EXPECT_DOUBLE_EQ(c.param(Param::Reward), 1.0);
  EXPECT_DOUBLE_EQ(c.param(Param::Penalty), 0.0);
  rl::RlConfig back = to_rl_config(c, d);
  EXPECT_EQ(sorted_attrs(back), sorted_attrs(d));
  EXPECT_EQ(back.alpha, d.alpha);
  EXPECT_EQ(back.gamma, d.gamma);
  // Table VIII (RLWS_MS) as well.
  rl::RlConfig ms = rl::RlConfig::rlws_ms_defaults();
  Chromosome m = from_rl_config(ms);
  EXPECT_EQ(m.attribute_count(), 7);
  EXPECT_EQ(m.buckets(rl::Attr::NAIPMI), 8u);
  EXPECT_DOUBLE_EQ(m.param(Param::Gamma), 0.999);
  EXPECT_EQ(sorted_attrs(to_rl_config(m, ms)), sorted_attrs(ms));
}

TEST(Chromosome, KnownChromosomeToConfig) {
  Chromosome c;
  c.genes[size_t(attr_gene(rl::Attr::RSPI))] = 1;  // boolean, 2 buckets
  c.genes[size_t(attr_gene(rl::Attr::NIW))] = 3;   // 8 buckets
  c.genes[size_t(attr_gene(rl::Attr::L2MP))] = 2;  // 4 buckets
  c.genes[size_t(param_gene(Param::Alpha))] = 0;   // first value
  c.genes[size_t(param_gene(Param::Penalty))] = uint8_t(param_values(Param::Penalty).size() - 1);
  rl::RlConfig base = rl::RlConfig::rlws_defaults();
  base.decide_every = 4;
  rl::RlConfig cfg = to_rl_config(c, base);
  ASSERT_EQ(cfg.attrs.size(), 3u);  // Table II order: RSPI, NIW, L2MP
  EXPECT_EQ(cfg.attrs[0].attr, rl::Attr::RSPI);
  EXPECT_EQ(cfg.attrs[0].buckets, 2u);
  EXPECT_EQ(cfg.attrs[1].attr, rl::Attr::NIW);
  EXPECT_EQ(cfg.attrs[1].buckets, 8u);
  EXPECT_EQ(cfg.attrs[2].attr, rl::Attr::L2MP);
  EXPECT_EQ(cfg.attrs[2].buckets, 4u);
  EXPECT_EQ(cfg.alpha, param_values(Param::Alpha)[0]);
  EXPECT_EQ(cfg.penalty, param_values(Param::Penalty).back());
  EXPECT_EQ(cfg.decide_every, 4u);  // not a gene: from the base
  EXPECT_TRUE(c.valid());
  EXPECT_EQ(from_rl_config(cfg), c);
}

TEST(Chromosome, RandomChromosomesRoundTripThroughTomlAndKey) {
  Rng rng(7);
  rl::RlConfig base = rl::RlConfig::rlws_defaults();
  for (int i = 0; i < 200; ++i) {
    Chromosome c = random_chromosome(rng, i % 2 ? 0.25 : 0.8);
    ASSERT_TRUE(c.valid());
    EXPECT_EQ(chromosome_from_key(c.key()), c);
    // The file best.toml is made this way, and --rl-config reads it this way.
    std::string toml = rl::rl_config_to_toml(to_rl_config(c, base));
    rl::RlConfig parsed = rl::parse_rl_config(toml, "best.toml", base);
    EXPECT_EQ(from_rl_config(parsed), c) << toml;
  }
}

TEST(Chromosome, InvalidInputIsAnError) {
  EXPECT_THROW(chromosome_from_key("123"), Error);
  std::string k(kNumGenes, '0');
  k[size_t(attr_gene(rl::Attr::ATBWB))] = '2';  // boolean gene has values 0, 1
  EXPECT_THROW(chromosome_from_key(k), Error);
  k = std::string(kNumGenes, '0');
  k[0] = 'x';
  EXPECT_THROW(chromosome_from_key(k), Error);
  rl::RlConfig odd = rl::RlConfig::rlws_defaults();
  odd.alpha = 0.123;  // not an explored value
  EXPECT_THROW(from_rl_config(odd), Error);
  // No attribute: not a runnable chromosome.
  Chromosome empty;
  EXPECT_FALSE(empty.valid());
  EXPECT_EQ(empty.attribute_count(), 0);
}
