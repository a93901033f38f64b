#include "rl/rl_config.h"

#include <fmt/format.h>
#include <toml++/toml.h>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <sstream>

#include "core/error.h"

namespace warpsim::rl {

RlConfig RlConfig::rlws_defaults() {
  RlConfig c;
  c.alpha = 0.09;
  c.epsilon = 0.04;
  c.gamma = 0.95;
  c.penalty = 0;
  c.reward = 1;
  c.attrs = {{Attr::AGML, 2}, {Attr::GNMIE, 8},  {Attr::L1MP, 8}, {Attr::L2MP, 2},
             {Attr::NFMI, 4}, {Attr::NIPL1M, 4}, {Attr::NRAI, 4}, {Attr::SMNMIE, 4}};
  return c;
}

RlConfig RlConfig::rlws_ms_defaults() {
  RlConfig c;
  c.alpha = 0.01;
  c.epsilon = 0.01;
  c.gamma = 0.999;
  c.penalty = 0;
  c.reward = 1;
  // Table VIII names NRGM, "number of ready global memory instructions": Table II's NRGMI.
  c.attrs = {{Attr::ATBWB, 2}, {Attr::ATBWF, 2}, {Attr::NAIPMI, 8}, {Attr::NRGMI, 8},
             {Attr::NSW, 4},   {Attr::NWS, 2},   {Attr::RSPI, 2}};
  return c;
}

const char* td_update_name(TdUpdate u) {
  switch (u) {
    case TdUpdate::Stale:
      return "stale";
    case TdUpdate::Fresh:
      return "fresh";
    default:
      return "bounded";
  }
}

const char* tie_break_name(TieBreak t) {
  switch (t) {
    case TieBreak::Rotate:
      return "rotate";
    case TieBreak::Lowest:
      return "lowest";
    default:
      return "uniform";
  }
}

const char* carry_weights_name(CarryWeights c) { return c == CarryWeights::Kernel ? "kernel" : "none"; }

const char* decay_name(Decay d) { return d == Decay::None ? "none" : "harmonic"; }

const char* rlmi_reading_name(RlmiReading r) { return r == RlmiReading::Observed ? "observed" : "global_load"; }

double RlConfig::effective_weight_limit() const {
  if (weight_limit > 0) return weight_limit;
  double r = std::max({std::abs(reward), std::abs(penalty), 1e-3});
  return 100.0 * r / (1.0 - gamma);
}

namespace {

// The enumerator of `E` whose name is `text` among `values`, else an Error listing the names.
template <class E, size_t K>
E enum_by_name(const std::string& src, const char* key, const std::string& text, const E (&values)[K],
               const char* (*name)(E)) {
  std::string valid;
  for (E v : values) {
    if (text == name(v)) return v;
    if (!valid.empty()) valid += '|';
    valid += name(v);
  }
  throw Error(fmt::format("{}: '{}' = '{}' is not one of {}", src, key, text, valid));
}

void check_range(const std::string& src, const char* key, double v, double lo, double hi) {
  if (!(v >= lo && v <= hi)) throw Error(fmt::format("{}: '{}' = {} is out of range [{}, {}]", src, key, v, lo, hi));
}

}  // namespace

RlConfig parse_rl_config(const std::string& text, const std::string& source, const RlConfig& defaults) {
  toml::table t;
  try {
    t = toml::parse(text, source);
  } catch (const toml::parse_error& e) {
    const auto& b = e.source().begin;
    throw LocatedError(source, int(b.line), int(b.column), std::string(e.description()));
  }
  RlConfig c = defaults;
  for (auto&& kv : t) {
    std::string key(kv.first.str());
    auto& v = kv.second;
    auto num = [&](double* dst) {
      if (!v.is_number()) throw Error(fmt::format("{}: '{}' must be a number", source, key));
      *dst = v.value<double>().value();
    };
    auto text = [&]() {
      if (!v.is_string()) throw Error(fmt::format("{}: '{}' must be a string", source, key));
      return std::string(v.value<std::string>().value());
    };
    auto flag = [&](bool* dst) {
      if (!v.is_boolean()) throw Error(fmt::format("{}: '{}' must be true or false", source, key));
      *dst = v.value<bool>().value();
    };
    if (key == "alpha")
      num(&c.alpha);
    else if (key == "epsilon")
      num(&c.epsilon);
    else if (key == "gamma")
      num(&c.gamma);
    else if (key == "reward")
      num(&c.reward);
    else if (key == "penalty")
      num(&c.penalty);
    else if (key == "decay_cycles")
      num(&c.decay_cycles);
    else if (key == "lambda")
      num(&c.lambda);
    else if (key == "decide_every") {
      double d;
      num(&d);
      if (d != 1 && d != 2 && d != 4 && d != 8 && d != 16)
        throw Error(fmt::format("{}: 'decide_every' must be 1, 2, 4, 8 or 16", source));
      c.decide_every = uint32_t(d);
    } else if (key == "seed") {
      double d;
      num(&d);
      if (!(d >= 0 && d < 18446744073709551616.0))
        throw Error(fmt::format("{}: 'seed' must be a non-negative integer below 2^64", source));
      c.seed = uint64_t(d);
    } else if (key == "keep_theta")
      flag(&c.keep_theta);
    else if (key == "fixed_point")
      flag(&c.fixed_point);
    else if (key == "optimistic")
      flag(&c.optimistic);
    else if (key == "hold_when_blocked")
      flag(&c.hold_when_blocked);
    else if (key == "td_update") {
      static const TdUpdate all[] = {TdUpdate::Stale, TdUpdate::Fresh, TdUpdate::Bounded};
      c.td_update = enum_by_name(source, "td_update", text(), all, td_update_name);
    } else if (key == "tie_break") {
      static const TieBreak all[] = {TieBreak::Rotate, TieBreak::Uniform, TieBreak::Lowest};
      c.tie_break = enum_by_name(source, "tie_break", text(), all, tie_break_name);
    } else if (key == "decay") {
      static const Decay all[] = {Decay::Harmonic, Decay::None};
      c.decay = enum_by_name(source, "decay", text(), all, decay_name);
    } else if (key == "carry_weights") {
      static const CarryWeights all[] = {CarryWeights::None, CarryWeights::Kernel};
      c.carry_weights = enum_by_name(source, "carry_weights", text(), all, carry_weights_name);
    } else if (key == "rlmi") {
      static const RlmiReading all[] = {RlmiReading::GlobalLoad, RlmiReading::Observed};
      c.rlmi = enum_by_name(source, "rlmi", text(), all, rlmi_reading_name);
    } else if (key == "weight_limit")
      num(&c.weight_limit);
    else if (key == "ratio_window" || key == "long_latency") {
      double d;
      num(&d);
      if (!(d >= 0 && d <= 1e12 && d == std::floor(d)))
        throw Error(fmt::format("{}: '{}' must be a whole number of cycles between 0 and 1e12", source, key));
      if (key == "ratio_window")
        c.ratio_window = uint64_t(d);
      else if (d < 1 || d > 1e6)
        throw Error(fmt::format("{}: 'long_latency' must be between 1 and 1000000 cycles", source));
      else
        c.long_latency = uint32_t(d);
    } else if (key == "attributes") {
      const toml::table* at = v.as_table();
      if (!at) throw Error(fmt::format("{}: 'attributes' must be a table NAME = buckets", source));
      c.attrs.clear();
      for (auto&& [an, av] : *at) {
        Attr a;
        if (!attr_by_name(an.str(), &a))
          throw Error(fmt::format("{}: unknown attribute '{}' (Table II names, e.g. L1MP, NRAI)", source, an.str()));
        auto b = av.value<int64_t>();
        if (!b || (*b != 2 && *b != 4 && *b != 8))
          throw Error(fmt::format("{}: attribute '{}' needs 2, 4 or 8 buckets", source, an.str()));
        if (attr_info(a).spacing == Spacing::Boolean && *b != 2)
          throw Error(fmt::format("{}: boolean attribute '{}' has 2 buckets", source, an.str()));
        c.attrs.push_back({a, uint32_t(*b)});
      }
    } else {
      throw Error(
          fmt::format("{}: unknown key '{}' (valid: alpha, epsilon, gamma, reward, penalty, decide_every, "
                      "hold_when_blocked, keep_theta, carry_weights, lambda, fixed_point, optimistic, decay_cycles, "
                      "decay, td_update, "
                      "tie_break, weight_limit, ratio_window, rlmi, long_latency, seed, [attributes])",
                      source, key));
    }
  }
  check_range(source, "alpha", c.alpha, 0, 1);
  check_range(source, "epsilon", c.epsilon, 0, 1);
  check_range(source, "gamma", c.gamma, 0, 0.999999);
  check_range(source, "decay_cycles", c.decay_cycles, 1, 1e12);
  check_range(source, "lambda", c.lambda, 0, 1);
  if (c.lambda > 0 && c.fixed_point)
    throw Error(fmt::format("{}: 'lambda' > 0 (eligibility traces) needs fixed_point = false", source));
  if (c.keep_theta && c.carry_weights != CarryWeights::None)
    throw Error(fmt::format("{}: 'keep_theta' = true and 'carry_weights' = '{}' exclude each other", source,
                            carry_weights_name(c.carry_weights)));
  check_range(source, "weight_limit", c.weight_limit, 0, 1e300);
  if (c.attrs.empty()) throw Error(fmt::format("{}: at least one attribute is needed", source));
  return c;
}

RlConfig load_rl_config(const std::string& path, const RlConfig& defaults) {
  std::ifstream in(path);
  if (!in) throw Error(fmt::format("cannot read RL configuration '{}'", path));
  std::stringstream ss;
  ss << in.rdbuf();
  return parse_rl_config(ss.str(), path, defaults);
}

std::string rl_config_to_toml(const RlConfig& c) {
  std::string s = fmt::format(
      "alpha = {}\nepsilon = {}\ngamma = {}\nreward = {}\npenalty = {}\ndecide_every = {}\n"
      "hold_when_blocked = {}\nkeep_theta = {}\ncarry_weights = \"{}\"\nlambda = {}\nfixed_point = {}\noptimistic = "
      "{}\ndecay_cycles = {}\n"
      "decay = \"{}\"\ntd_update = \"{}\"\ntie_break = \"{}\"\nweight_limit = {}\nratio_window = {}\n"
      "rlmi = \"{}\"\nlong_latency = {}\nseed = {}\n\n"
      "[attributes]\n",
      c.alpha, c.epsilon, c.gamma, c.reward, c.penalty, c.decide_every, c.hold_when_blocked, c.keep_theta,
      carry_weights_name(c.carry_weights), c.lambda, c.fixed_point, c.optimistic, c.decay_cycles, decay_name(c.decay),
      td_update_name(c.td_update), tie_break_name(c.tie_break), c.weight_limit, c.ratio_window,
      rlmi_reading_name(c.rlmi), c.long_latency, c.seed);
  for (const auto& a : c.attrs) s += fmt::format("{} = {}\n", attr_info(a.attr).name, a.buckets);
  return s;
}

}  // namespace warpsim::rl
