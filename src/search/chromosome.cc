#include "search/chromosome.h"

#include <fmt/format.h>

#include "core/error.h"

namespace warpsim::search {

namespace {

constexpr std::array<double, 8> kAlpha = {0.01, 0.02, 0.05, 0.09, 0.15, 0.25, 0.4, 0.6};
constexpr std::array<double, 8> kEpsilon = {0.001, 0.005, 0.01, 0.02, 0.04, 0.08, 0.15, 0.25};
constexpr std::array<double, 8> kGamma = {0.5, 0.7, 0.8, 0.9, 0.95, 0.99, 0.995, 0.999};
constexpr std::array<double, 5> kReward = {0.25, 0.5, 1, 2, 4};
constexpr std::array<double, 5> kPenalty = {-1, -0.5, -0.25, -0.1, 0};

bool is_boolean(int g) { return rl::attr_info(rl::Attr(g)).spacing == rl::Spacing::Boolean; }

// Bucket count of a used attribute gene value (1, 2, 3 -> 2, 4, 8).
uint32_t buckets_of(uint8_t v) { return v == 0 ? 0 : 1u << v; }

}  // namespace

std::span<const double> param_values(Param p) {
  switch (p) {
    case Param::Alpha:
      return kAlpha;
    case Param::Epsilon:
      return kEpsilon;
    case Param::Gamma:
      return kGamma;
    case Param::Reward:
      return kReward;
    case Param::Penalty:
      return kPenalty;
  }
  return {};
}

const char* param_name(Param p) {
  static const char* const names[kNumParams] = {"alpha", "epsilon", "gamma", "reward", "penalty"};
  return names[int(p)];
}

uint32_t gene_values(int g) {
  if (g < 0 || g >= kNumGenes) return 0;
  if (g < rl::kNumAttrs) return is_boolean(g) ? 2 : 4;
  return uint32_t(param_values(Param(g - rl::kNumAttrs)).size());
}

std::string gene_name(int g) {
  if (g < 0 || g >= kNumGenes) return "?";
  if (g < rl::kNumAttrs) return std::string(rl::attr_info(rl::Attr(g)).name);
  return param_name(Param(g - rl::kNumAttrs));
}

uint32_t Chromosome::buckets(rl::Attr a) const { return buckets_of(genes[size_t(attr_gene(a))]); }

int Chromosome::attribute_count() const {
  int n = 0;
  for (int g = 0; g < rl::kNumAttrs; ++g) n += genes[size_t(g)] != 0;
  return n;
}

bool Chromosome::valid() const {
  for (int g = 0; g < kNumGenes; ++g)
    if (genes[size_t(g)] >= gene_values(g)) return false;
  return attribute_count() > 0;
}

std::string Chromosome::key() const {
  std::string s(kNumGenes, '0');
  for (int g = 0; g < kNumGenes; ++g) s[size_t(g)] = "0123456789abcdef"[genes[size_t(g)] & 15];
  return s;
}

Chromosome chromosome_from_key(const std::string& key) {
  if (key.size() != size_t(kNumGenes))
    throw Error(fmt::format("chromosome '{}': expected {} genes, got {}", key, kNumGenes, key.size()));
  Chromosome c;
  for (int g = 0; g < kNumGenes; ++g) {
    char ch = key[size_t(g)];
    int v = ch >= '0' && ch <= '9' ? ch - '0' : ch >= 'a' && ch <= 'f' ? ch - 'a' + 10 : -1;
    if (v < 0 || uint32_t(v) >= gene_values(g))
      throw Error(fmt::format("chromosome '{}': gene {} ({}) = '{}' is out of range", key, g, gene_name(g), ch));
    c.genes[size_t(g)] = uint8_t(v);
  }
  return c;
}

rl::RlConfig to_rl_config(const Chromosome& c, const rl::RlConfig& base) {
  rl::RlConfig cfg = base;
  cfg.alpha = c.param(Param::Alpha);
  cfg.epsilon = c.param(Param::Epsilon);
  cfg.gamma = c.param(Param::Gamma);
  cfg.reward = c.param(Param::Reward);
  cfg.penalty = c.param(Param::Penalty);
  cfg.attrs.clear();
  for (int g = 0; g < rl::kNumAttrs; ++g)
    if (c.genes[size_t(g)]) cfg.attrs.push_back({rl::Attr(g), buckets_of(c.genes[size_t(g)])});
  return cfg;
}

Chromosome from_rl_config(const rl::RlConfig& cfg) {
  Chromosome c;
  auto set_param = [&](Param p, double v) {
    auto vals = param_values(p);
    for (size_t i = 0; i < vals.size(); ++i)
      if (vals[i] == v) {
        c.genes[size_t(param_gene(p))] = uint8_t(i);
        return;
      }
    std::string list;
    for (double x : vals) list += fmt::format("{}{}", list.empty() ? "" : ", ", x);
    throw Error(fmt::format("{} = {} is not one of the values the search explores ({})", param_name(p), v, list));
  };
  set_param(Param::Alpha, cfg.alpha);
  set_param(Param::Epsilon, cfg.epsilon);
  set_param(Param::Gamma, cfg.gamma);
  set_param(Param::Reward, cfg.reward);
  set_param(Param::Penalty, cfg.penalty);
  for (const auto& a : cfg.attrs) {
    int g = attr_gene(a.attr);
    uint8_t v = a.buckets == 2 ? 1 : a.buckets == 4 ? 2 : a.buckets == 8 ? 3 : 0;
    if (v == 0 || v >= gene_values(g))
      throw Error(fmt::format("attribute {} with {} buckets cannot be a gene", gene_name(g), a.buckets));
    c.genes[size_t(g)] = v;
  }
  return c;
}

std::string describe_attributes(const Chromosome& c) {
  std::string s;
  for (int g = 0; g < rl::kNumAttrs; ++g)
    if (c.genes[size_t(g)])
      s += fmt::format("{}{}:{}", s.empty() ? "" : " ", gene_name(g), buckets_of(c.genes[size_t(g)]));
  return s;
}

std::string describe(const Chromosome& c) {
  std::string s;
  for (int p = 0; p < kNumParams; ++p) s += fmt::format("{}={} ", param_name(Param(p)), c.param(Param(p)));
  return s + "| " + describe_attributes(c);
}

}  // namespace warpsim::search
