// The Juggler mode predictor (Nasser et al., "Juggler: A Dynamic Warp Scheduler for GPGPUs",
// Sec. IV-A, Fig. 3, Table 1). A pure state machine with no simulator dependency: it is fed
// one event per scheduler cycle (an issue, a stall, or nothing) and says which scheduling mode
// is in force. See docs/juggler.md for the reading of the paper's open points.
//
// State: a mode (UM = greedy-then-oldest, LHM = two-level, FM = loose round robin), a
// confidence level (history bits) and a stall counter. When the stalls counted pass the
// current mode's threshold, confidence drops one level, or, at the lowest level, the mode
// moves on (UM -> LHM -> FM -> UM; reversed middle for R-Juggler: UM -> FM -> LHM -> UM).
// An issue in a state below the highest confidence raises it. The counter resets at every
// confidence or mode update.
#pragma once
#include <cstdint>
#include <string>

namespace warpsim {

enum class JugglerMode : uint8_t { UM = 0, LHM = 1, FM = 2 };
inline constexpr int kNumJugglerModes = 3;
const char* juggler_mode_name(JugglerMode m);  // "UM", "LHM", "FM"

// What Stall_c and Stall_p of Table 1 ("Stall_c > Stall_p + TH") are.
enum class StallReading : uint8_t {
  SinceUpdate,  // Stall_p = stall count at the last confidence/mode update: stalls since then
  Consecutive,  // Stall_p = stall count at the last issue: the current run of stall cycles
  Window,       // Stall_c / Stall_p = stalls in the current / previous window of W cycles
};
// How the m history bits encode confidence.
enum class HistoryRule : uint8_t {
  Counter,  // saturating counter 0 .. 2^m-1: a stall trigger steps down, an issue steps up
  Shift,    // shift register: a stall trigger shifts in 0, an issue (when not all ones) a 1;
            // the mode moves on when a trigger finds all bits 0
};
// The confidence a mode starts with when the predictor switches to it.
enum class EntryLevel : uint8_t { Lowest, Highest };

struct JugglerPredictorConfig {
  uint32_t uth = 68, lth = 1, fth = 5;  // rtx2060 values of Sec. V-D
  uint32_t history_bits = 1;            // m: 2^m confidence levels (1..8)
  bool reverse = false;                 // R-Juggler: UM -> FM -> LHM
  StallReading stall_reading = StallReading::SinceUpdate;
  uint32_t window = 64;  // cycles per window (StallReading::Window)
  HistoryRule history = HistoryRule::Counter;
  EntryLevel entry = EntryLevel::Lowest;

  uint32_t threshold(JugglerMode m) const { return m == JugglerMode::UM ? uth : m == JugglerMode::LHM ? lth : fth; }
  // Throws Error naming the bad field.
  void validate() const;
};

// Additive counters of a predictor.
struct JugglerCounters {
  uint64_t cycles[kNumJugglerModes] = {};        // cycles spent in each mode
  uint64_t issue_cycles[kNumJugglerModes] = {};  // ... of which the scheduler issued
  uint64_t stall_cycles[kNumJugglerModes] = {};  // ... of which it stalled
  uint64_t switches_to[kNumJugglerModes] = {};   // mode switches into each mode
  uint64_t confidence_up = 0, confidence_down = 0;

  uint64_t total_cycles() const { return cycles[0] + cycles[1] + cycles[2]; }
  uint64_t mode_switches() const { return switches_to[0] + switches_to[1] + switches_to[2]; }
  JugglerCounters operator-(const JugglerCounters& o) const;
};

// What the last cycle did to the state machine. With 1-bit history and the Juggler order these
// are the transitions of Fig. 3 (see fig3_label).
enum class JugglerTransition : uint8_t {
  None,    // no update (a stall below the threshold, or a cycle without live warps)
  Hold,    // issue at the highest confidence: stay (T3, T7, T10)
  Raise,   // issue below the highest confidence: one level up (T2, T5, T11)
  Lower,   // stall threshold passed above the lowest level: one level down (T1, T6, T9)
  Switch,  // stall threshold passed at the lowest level: next mode (T4, T8, T12)
};

class JugglerPredictor {
 public:
  enum class Event : uint8_t { Issue, Stall, None };

  explicit JugglerPredictor(const JugglerPredictorConfig& cfg = {});

  // One scheduler cycle. The cycle is counted in the mode in force at its start; the update
  // takes effect for the next cycle. A Stall adds `stall_events` to the stall count (1 when
  // stalls are counted per cycle, the number of stalled warps when counted per warp).
  void cycle(Event e, uint32_t stall_events = 1);
  // `n` cycles with the same event (cycles the simulator skipped because nothing changed).
  void cycles(Event e, uint64_t n, uint32_t stall_events = 1);

  JugglerMode mode() const { return mode_; }
  uint32_t level() const { return level_; }  // 0 .. max_level(): history value
  uint32_t max_level() const { return max_level_; }
  bool high() const { return level_ == max_level_; }  // highest confidence
  uint64_t stall_count() const { return stalls_; }    // Stall_c - Stall_p (Window: Stall_c)
  uint64_t previous_window_stalls() const { return prev_window_; }
  JugglerTransition last_transition() const { return last_; }
  const JugglerCounters& counters() const { return counters_; }
  const JugglerPredictorConfig& config() const { return cfg_; }

  JugglerMode next_mode(JugglerMode m) const;
  // Fig. 3's label (1..12) of a transition taken in mode `from` (Juggler order, 1-bit
  // history), 0 for None.
  static int fig3_label(JugglerMode from, JugglerTransition t);

 private:
  void on_trigger();  // the stall condition held: lower confidence or switch mode
  void on_issue();

  JugglerPredictorConfig cfg_;
  uint32_t max_level_;
  JugglerMode mode_ = JugglerMode::UM;
  uint32_t level_;
  uint64_t stalls_ = 0;
  // Window reading only.
  uint64_t prev_window_ = 0;
  uint32_t window_pos_ = 0;
  bool window_issued_ = false;
  JugglerTransition last_ = JugglerTransition::None;
  JugglerCounters counters_;
};

// Parses the names used by scheduler parameters; throw Error listing the valid names.
StallReading parse_stall_reading(const std::string& s);
HistoryRule parse_history_rule(const std::string& s);
EntryLevel parse_entry_level(const std::string& s);
const char* stall_reading_name(StallReading r);
const char* history_rule_name(HistoryRule r);
const char* entry_level_name(EntryLevel e);

}  // namespace warpsim
