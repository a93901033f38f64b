// A point of the RLWS design space as a chromosome (RLWS paper Sec. IV-H, V-B): one gene per
// Table II attribute (used or not, and its bucket count) followed by one gene per RL parameter
// (alpha, epsilon, gamma, reward, penalty), each an index into a table of explored values.
//
//   boolean attribute gene:  0 = not used, 1 = used (2 buckets)
//   other attribute gene:    0 = not used, 1 / 2 / 3 = used with 2 / 4 / 8 buckets
//   parameter gene:          index into param_values(p)
//
// Genes are small integers, so a chromosome prints as one hex digit per gene; that text is its
// identity in the search state, the history and the evaluation cache.
#pragma once
#include <array>
#include <cstdint>
#include <span>
#include <string>

#include "rl/attributes.h"
#include "rl/rl_config.h"

namespace warpsim::search {

enum class Param : uint8_t { Alpha, Epsilon, Gamma, Reward, Penalty };
inline constexpr int kNumParams = 5;
inline constexpr int kNumGenes = rl::kNumAttrs + kNumParams;

// Gene index of an attribute and of a parameter.
constexpr int attr_gene(rl::Attr a) { return int(a); }
constexpr int param_gene(Param p) { return rl::kNumAttrs + int(p); }

// Values explored for each parameter (at least 5 each; Table V and Table VIII values included).
std::span<const double> param_values(Param p);
const char* param_name(Param p);

// Number of values gene `g` takes (2 for boolean attributes, 4 for the others, the table size
// for parameters).
uint32_t gene_values(int g);
// "AGML", "alpha", ...
std::string gene_name(int g);

struct Chromosome {
  std::array<uint8_t, kNumGenes> genes{};

  bool operator==(const Chromosome&) const = default;
  // Buckets of attribute `a`, 0 when the attribute is not used.
  uint32_t buckets(rl::Attr a) const;
  double param(Param p) const { return param_values(p)[genes[size_t(param_gene(p))]]; }
  int attribute_count() const;
  // A chromosome the scheduler can run: at least one attribute, every gene in range.
  bool valid() const;
  // One hex digit per gene, attributes in Table II order, then the parameters.
  std::string key() const;
};

// Parses Chromosome::key(); throws Error on a malformed or out-of-range text.
Chromosome chromosome_from_key(const std::string& key);

// The RL configuration of a chromosome: `base` with the genes' attributes (Table II order) and
// parameters. Fields the chromosome does not hold (decide_every, decay, ...) come from `base`.
rl::RlConfig to_rl_config(const Chromosome& c, const rl::RlConfig& base);
// The chromosome of a configuration; throws Error when a parameter value is not one of the
// explored values (param_values) or an attribute has a bucket count the genes cannot hold.
Chromosome from_rl_config(const rl::RlConfig& cfg);

// "alpha=0.09 epsilon=0.04 ... | AGML:2 GNMIE:8 ..." for tables and logs.
std::string describe(const Chromosome& c);
// "AGML:2 GNMIE:8 ..." (attributes only).
std::string describe_attributes(const Chromosome& c);

}  // namespace warpsim::search
