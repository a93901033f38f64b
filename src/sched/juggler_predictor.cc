#include "sched/juggler_predictor.h"

#include <fmt/format.h>

#include "core/error.h"

namespace warpsim {

const char* juggler_mode_name(JugglerMode m) {
  switch (m) {
    case JugglerMode::UM:
      return "UM";
    case JugglerMode::LHM:
      return "LHM";
    case JugglerMode::FM:
      return "FM";
  }
  return "?";
}

void JugglerPredictorConfig::validate() const {
  if (history_bits < 1 || history_bits > 8)
    throw Error(fmt::format("juggler: history_bits must be between 1 and 8 (got {})", history_bits));
  if (stall_reading == StallReading::Window && window < 1) throw Error("juggler: window must be at least 1 cycle");
}

JugglerCounters JugglerCounters::operator-(const JugglerCounters& o) const {
  JugglerCounters d;
  for (int i = 0; i < kNumJugglerModes; ++i) {
    d.cycles[i] = cycles[i] - o.cycles[i];
    d.issue_cycles[i] = issue_cycles[i] - o.issue_cycles[i];
    d.stall_cycles[i] = stall_cycles[i] - o.stall_cycles[i];
    d.switches_to[i] = switches_to[i] - o.switches_to[i];
  }
  d.confidence_up = confidence_up - o.confidence_up;
  d.confidence_down = confidence_down - o.confidence_down;
  return d;
}

JugglerPredictor::JugglerPredictor(const JugglerPredictorConfig& cfg) : cfg_(cfg), max_level_(0), level_(0) {
  cfg_.validate();
  max_level_ = (1u << cfg_.history_bits) - 1;
  level_ = max_level_;  // execution starts in UM at the highest confidence
}

JugglerMode JugglerPredictor::next_mode(JugglerMode m) const {
  switch (m) {
    case JugglerMode::UM:
      return cfg_.reverse ? JugglerMode::FM : JugglerMode::LHM;
    case JugglerMode::LHM:
      return cfg_.reverse ? JugglerMode::UM : JugglerMode::FM;
    case JugglerMode::FM:
      return cfg_.reverse ? JugglerMode::LHM : JugglerMode::UM;
  }
  return JugglerMode::UM;
}

int JugglerPredictor::fig3_label(JugglerMode from, JugglerTransition t) {
  // Per mode: {Hold, Raise, Lower, Switch}.
  static constexpr int labels[kNumJugglerModes][4] = {{3, 2, 1, 4}, {7, 5, 6, 8}, {10, 11, 9, 12}};
  switch (t) {
    case JugglerTransition::None:
      return 0;
    case JugglerTransition::Hold:
      return labels[int(from)][0];
    case JugglerTransition::Raise:
      return labels[int(from)][1];
    case JugglerTransition::Lower:
      return labels[int(from)][2];
    case JugglerTransition::Switch:
      return labels[int(from)][3];
  }
  return 0;
}

void JugglerPredictor::on_trigger() {
  stalls_ = 0;
  bool lowest = level_ == 0;
  if (!lowest) {
    level_ = cfg_.history == HistoryRule::Counter ? level_ - 1 : (level_ << 1) & max_level_;
    ++counters_.confidence_down;
    last_ = JugglerTransition::Lower;
    return;
  }
  mode_ = next_mode(mode_);
  level_ = cfg_.entry == EntryLevel::Lowest ? 0 : max_level_;
  ++counters_.switches_to[int(mode_)];
  last_ = JugglerTransition::Switch;
}

void JugglerPredictor::on_issue() {
  if (level_ == max_level_) {
    last_ = JugglerTransition::Hold;
    return;
  }
  level_ = cfg_.history == HistoryRule::Counter ? level_ + 1 : ((level_ << 1) | 1) & max_level_;
  ++counters_.confidence_up;
  stalls_ = 0;
  last_ = JugglerTransition::Raise;
}

void JugglerPredictor::cycle(Event e, uint32_t stall_events) {
  int m = int(mode_);
  ++counters_.cycles[m];
  last_ = JugglerTransition::None;
  if (e == Event::Issue) ++counters_.issue_cycles[m];
  if (e == Event::Stall) ++counters_.stall_cycles[m];

  if (cfg_.stall_reading == StallReading::Window) {
    if (e == Event::Stall) stalls_ += stall_events;
    if (e == Event::Issue) window_issued_ = true;
    if (++window_pos_ < cfg_.window) return;
    uint64_t current = stalls_;
    if (current > prev_window_ + cfg_.threshold(mode_))
      on_trigger();
    else if (window_issued_)
      on_issue();
    prev_window_ = current;
    stalls_ = 0;
    window_pos_ = 0;
    window_issued_ = false;
    return;
  }

  switch (e) {
    case Event::Issue:
      on_issue();
      if (cfg_.stall_reading == StallReading::Consecutive) stalls_ = 0;
      break;
    case Event::Stall:
      stalls_ += stall_events;
      if (stalls_ > cfg_.threshold(mode_)) on_trigger();
      break;
    case Event::None:
      break;
  }
}

void JugglerPredictor::cycles(Event e, uint64_t n, uint32_t stall_events) {
  if (n == 0) return;
  if (stall_events != 1) {
    for (uint64_t i = 0; i < n; ++i) cycle(e, stall_events);
    return;
  }
  if (e == Event::None && cfg_.stall_reading != StallReading::Window) {
    counters_.cycles[int(mode_)] += n;
    last_ = JugglerTransition::None;
    return;
  }
  if (e == Event::Stall && cfg_.stall_reading != StallReading::Window) {
    // Jump from trigger to trigger: the counter never exceeds the threshold between cycles.
    while (n > 0) {
      int m = int(mode_);
      uint64_t need = uint64_t(cfg_.threshold(mode_)) + 1 - stalls_;
      uint64_t k = n < need ? n : need;
      counters_.cycles[m] += k;
      counters_.stall_cycles[m] += k;
      stalls_ += k;
      n -= k;
      last_ = JugglerTransition::None;
      if (k == need) on_trigger();
    }
    return;
  }
  for (uint64_t i = 0; i < n; ++i) cycle(e, stall_events);
}

namespace {
template <typename T, size_t N>
T parse_name(const std::string& s, const char* what, const std::pair<const char*, T> (&names)[N]) {
  std::string valid;
  for (const auto& [name, v] : names) {
    if (s == name) return v;
    valid += valid.empty() ? name : std::string("|") + name;
  }
  throw Error(fmt::format("juggler: unknown {} '{}' (valid: {})", what, s, valid));
}
template <typename T, size_t N>
const char* name_of(T v, const std::pair<const char*, T> (&names)[N]) {
  for (const auto& [name, x] : names)
    if (x == v) return name;
  return "?";
}
const std::pair<const char*, StallReading> kStallReadings[] = {{"since_update", StallReading::SinceUpdate},
                                                               {"consecutive", StallReading::Consecutive},
                                                               {"window", StallReading::Window}};
const std::pair<const char*, HistoryRule> kHistoryRules[] = {{"counter", HistoryRule::Counter},
                                                             {"shift", HistoryRule::Shift}};
const std::pair<const char*, EntryLevel> kEntryLevels[] = {{"lowest", EntryLevel::Lowest},
                                                           {"highest", EntryLevel::Highest}};
}  // namespace

StallReading parse_stall_reading(const std::string& s) { return parse_name(s, "stall_count", kStallReadings); }
HistoryRule parse_history_rule(const std::string& s) { return parse_name(s, "history", kHistoryRules); }
EntryLevel parse_entry_level(const std::string& s) { return parse_name(s, "entry", kEntryLevels); }
const char* stall_reading_name(StallReading r) { return name_of(r, kStallReadings); }
const char* history_rule_name(HistoryRule r) { return name_of(r, kHistoryRules); }
const char* entry_level_name(EntryLevel e) { return name_of(e, kEntryLevels); }

}  // namespace warpsim
