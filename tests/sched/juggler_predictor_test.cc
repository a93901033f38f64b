// The Juggler predictor driven by scripted issue/stall sequences: every transition of Fig. 3,
// the Fig. 4 walkthrough, 1-bit and 2-bit history, R-Juggler, and the alternative readings.
#include "sched/juggler_predictor.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <string>

#include "core/error.h"

namespace warpsim {
namespace {

using Event = JugglerPredictor::Event;
using T = JugglerTransition;
constexpr JugglerMode UM = JugglerMode::UM, LHM = JugglerMode::LHM, FM = JugglerMode::FM;

// Feeds a script: 'I' an issue cycle, 'S' a stall cycle, '.' a cycle without live warps.
void feed(JugglerPredictor& p, const std::string& script) {
  for (char c : script) p.cycle(c == 'I' ? Event::Issue : c == 'S' ? Event::Stall : Event::None);
}

// Feeds `n` stall cycles one by one and returns how many passed before the last one changed
// the state (the last one must be the first update).
void stalls_until_update(JugglerPredictor& p, uint32_t n) {
  for (uint32_t i = 1; i < n; ++i) {
    p.cycle(Event::Stall);
    ASSERT_EQ(p.last_transition(), T::None) << "stall " << i << " of " << n;
  }
  p.cycle(Event::Stall);
  ASSERT_NE(p.last_transition(), T::None);
}

struct Step {
  char event;
  JugglerMode mode;  // after the cycle
  bool high;
  int label;  // Fig. 3 transition taken
};

void expect_steps(JugglerPredictor& p, const std::vector<Step>& steps) {
  for (size_t i = 0; i < steps.size(); ++i) {
    JugglerMode from = p.mode();
    feed(p, std::string(1, steps[i].event));
    EXPECT_EQ(p.mode(), steps[i].mode) << "step " << i;
    EXPECT_EQ(p.high(), steps[i].high) << "step " << i;
    EXPECT_EQ(JugglerPredictor::fig3_label(from, p.last_transition()), steps[i].label) << "step " << i;
  }
}

TEST(JugglerPredictor, StartsInUtilizationHigh) {
  JugglerPredictor p;
  EXPECT_EQ(p.mode(), UM);
  EXPECT_TRUE(p.high());
  EXPECT_EQ(p.level(), 1u);
  EXPECT_EQ(p.max_level(), 1u);
  EXPECT_EQ(p.stall_count(), 0u);
  JugglerPredictorConfig c2;
  c2.history_bits = 2;
  JugglerPredictor q(c2);
  EXPECT_EQ(q.level(), 3u);
  EXPECT_TRUE(q.high());
}

// Every transition of Fig. 3 with the rtx2060 thresholds: a state update happens exactly on
// the (TH+1)-th stall counted, since "Stall_c > Stall_p + TH" is strict.
TEST(JugglerPredictor, EveryFigure3TransitionWithDefaultThresholds) {
  JugglerPredictorConfig c;
  ASSERT_EQ(c.uth, 68u);
  ASSERT_EQ(c.fth, 5u);
  ASSERT_EQ(c.lth, 1u);
  JugglerPredictor p(c);
  auto check = [&](JugglerMode from, JugglerMode to, bool high, int label) {
    EXPECT_EQ(JugglerPredictor::fig3_label(from, p.last_transition()), label);
    EXPECT_EQ(p.mode(), to) << "T" << label;
    EXPECT_EQ(p.high(), high) << "T" << label;
    EXPECT_EQ(p.stall_count(), 0u) << "T" << label;
  };
  feed(p, "I");  // T3: UM_H stays on issue
  check(UM, UM, true, 3);
  stalls_until_update(p, c.uth + 1);  // T1: UM_H -> UM_L
  check(UM, UM, false, 1);
  feed(p, "I");  // T2: UM_L -> UM_H
  check(UM, UM, true, 2);
  stalls_until_update(p, c.uth + 1);
  stalls_until_update(p, c.uth + 1);  // T4: UM_L -> LHM_L
  check(UM, LHM, false, 4);
  feed(p, "I");  // T5: LHM_L -> LHM_H
  check(LHM, LHM, true, 5);
  feed(p, "I");  // T7: LHM_H stays
  check(LHM, LHM, true, 7);
  stalls_until_update(p, c.lth + 1);  // T6: LHM_H -> LHM_L
  check(LHM, LHM, false, 6);
  stalls_until_update(p, c.lth + 1);  // T8: LHM_L -> FM_L
  check(LHM, FM, false, 8);
  feed(p, "I");  // T11: FM_L -> FM_H
  check(FM, FM, true, 11);
  feed(p, "I");  // T10: FM_H stays
  check(FM, FM, true, 10);
  stalls_until_update(p, c.fth + 1);  // T9: FM_H -> FM_L
  check(FM, FM, false, 9);
  stalls_until_update(p, c.fth + 1);  // T12: FM_L -> UM_L
  check(FM, UM, false, 12);
  const JugglerCounters& k = p.counters();
  EXPECT_EQ(k.confidence_up, 3u);
  EXPECT_EQ(k.confidence_down, 4u);
  EXPECT_EQ(k.switches_to[int(LHM)], 1u);
  EXPECT_EQ(k.switches_to[int(FM)], 1u);
  EXPECT_EQ(k.switches_to[int(UM)], 1u);
  EXPECT_EQ(k.mode_switches(), 3u);
}

// Fig. 4, thresholds omitted (all 0: every stall is an update), from the steady state UM_L.
TEST(JugglerPredictor, Figure4Walkthrough) {
  JugglerPredictorConfig c;
  c.uth = c.fth = c.lth = 0;
  JugglerPredictor p(c);
  feed(p, "S");  // reach UM_L
  ASSERT_EQ(p.mode(), UM);
  ASSERT_FALSE(p.high());
  expect_steps(p, {
                      {'I', UM, true, 2},    // X: issue raises UM confidence (the text's T2)
                      {'S', UM, false, 1},   // X+1: W0 stalls: UM_L (T1)
                      {'S', LHM, false, 4},  // X+2: w1 stalls at minimum: LHM_L (T4)
                      {'I', LHM, true, 5},   // X+3: w2 issues: LHM_H (T5)
                      {'S', LHM, false, 6},  // X+4: w3 stalls: LHM_L (T6)
                      {'S', FM, false, 8},   // X+5: w2 stalls: FM_L (T8)
                      {'I', FM, true, 11},   // X+6: wN issues: FM_H (T11)
                      {'S', FM, false, 9},   // X+7: w0 stalls: FM_L (T9)
                      {'S', UM, false, 12},  // X+8: w1 stalls: UM_L (T12)
                  });
}

// The Fig. 4 event sequence under 2-bit history and under R-Juggler: the same steps, with the
// mode order reversed for R-Juggler. With 2 bits each issue raises one level, so from the
// lowest level the walk visits the modes in the same order as with 1 bit.
TEST(JugglerPredictor, Figure4SequenceWithTwoBitsAndReverseOrder) {
  const std::string script = "ISSISSISS";
  struct Expect {
    JugglerMode mode;
    uint32_t level;
  };
  auto walk = [&](JugglerPredictorConfig c, const std::vector<Expect>& expect) {
    c.uth = c.fth = c.lth = 0;
    JugglerPredictor p(c);
    while (p.level() != 0) feed(p, "S");  // the steady state of Fig. 4: UM at the lowest level
    ASSERT_EQ(p.mode(), UM);
    for (size_t i = 0; i < script.size(); ++i) {
      feed(p, script.substr(i, 1));
      EXPECT_EQ(p.mode(), expect[i].mode) << "cycle X+" << i;
      EXPECT_EQ(p.level(), expect[i].level) << "cycle X+" << i;
    }
  };
  JugglerPredictorConfig two;
  two.history_bits = 2;
  walk(two, {{UM, 1}, {UM, 0}, {LHM, 0}, {LHM, 1}, {LHM, 0}, {FM, 0}, {FM, 1}, {FM, 0}, {UM, 0}});
  JugglerPredictorConfig rev;
  rev.reverse = true;
  walk(rev, {{UM, 1}, {UM, 0}, {FM, 0}, {FM, 1}, {FM, 0}, {LHM, 0}, {LHM, 1}, {LHM, 0}, {UM, 0}});
  rev.history_bits = 2;
  walk(rev, {{UM, 1}, {UM, 0}, {FM, 0}, {FM, 1}, {FM, 0}, {LHM, 0}, {LHM, 1}, {LHM, 0}, {UM, 0}});
}

TEST(JugglerPredictor, CountsStallsSinceTheLastUpdate) {
  JugglerPredictorConfig c;
  c.uth = 3;
  JugglerPredictor p(c);
  // Issues in a high-confidence state are no update: stalls keep accumulating across them.
  feed(p, "SSISS");
  EXPECT_EQ(p.stall_count(), 0u);
  EXPECT_EQ(p.last_transition(), T::Lower);
  EXPECT_FALSE(p.high());
  // An issue in the low state is an update and resets the counter: 3 stalls, raise, then 4.
  feed(p, "SSSI");
  EXPECT_TRUE(p.high());
  EXPECT_EQ(p.stall_count(), 0u);
  feed(p, "SSS");
  EXPECT_EQ(p.stall_count(), 3u);
  EXPECT_TRUE(p.high());
  feed(p, "S");
  EXPECT_FALSE(p.high());
  // Cycles without live warps count nothing.
  feed(p, "SSS...");
  EXPECT_EQ(p.stall_count(), 3u);
  EXPECT_EQ(p.mode(), UM);
}

TEST(JugglerPredictor, ConsecutiveReadingResetsOnEveryIssue) {
  JugglerPredictorConfig c;
  c.uth = 3;
  c.stall_reading = StallReading::Consecutive;
  JugglerPredictor p(c);
  feed(p, "SSISSISSI");
  EXPECT_TRUE(p.high());
  EXPECT_EQ(p.counters().confidence_down, 0u);
  feed(p, "SSSS");
  EXPECT_FALSE(p.high());
  EXPECT_EQ(p.last_transition(), T::Lower);
}

// 2-bit counter: four confidence levels; leaving UM from the top takes four triggers, twice
// as many as with one bit (Sec. V-D); an issue raises one level at a time.
TEST(JugglerPredictor, TwoBitCounterHistory) {
  for (uint32_t bits : {1u, 2u}) {
    JugglerPredictorConfig c;
    c.uth = 2;
    c.lth = 1;
    c.fth = 0;
    c.history_bits = bits;
    JugglerPredictor p(c);
    uint32_t triggers = 0;
    while (p.mode() == UM) {
      stalls_until_update(p, c.uth + 1);
      ++triggers;
      ASSERT_LE(triggers, 100u);
    }
    EXPECT_EQ(triggers, 1u << bits);
    EXPECT_EQ(p.mode(), LHM);
    EXPECT_EQ(p.level(), 0u);  // a new mode starts at the lowest confidence
  }
  JugglerPredictorConfig c;
  c.history_bits = 2;
  c.uth = 0;
  JugglerPredictor p(c);
  feed(p, "SS");
  EXPECT_EQ(p.level(), 1u);
  feed(p, "I");
  EXPECT_EQ(p.level(), 2u);
  EXPECT_EQ(p.last_transition(), T::Raise);
  EXPECT_FALSE(p.high());
  feed(p, "I");
  EXPECT_EQ(p.level(), 3u);
  EXPECT_TRUE(p.high());
  feed(p, "I");
  EXPECT_EQ(p.last_transition(), T::Hold);
  EXPECT_EQ(p.level(), 3u);
  // Through all modes at level 0: each trigger at the lowest level moves the mode on.
  feed(p, "SSS");
  ASSERT_EQ(p.level(), 0u);
  ASSERT_EQ(p.mode(), UM);
  c.lth = 0;
  c.fth = 0;
  JugglerPredictor q(c);
  feed(q, "SSSS");
  EXPECT_EQ(q.mode(), LHM);
  feed(q, "S");
  EXPECT_EQ(q.mode(), FM);
  feed(q, "S");
  EXPECT_EQ(q.mode(), UM);
  EXPECT_EQ(q.counters().confidence_down, 3u);
}

// Shift-register reading of the history bits: 11 -> 10 -> 00 -> next mode; issues shift in 1.
TEST(JugglerPredictor, TwoBitShiftHistory) {
  JugglerPredictorConfig c;
  c.history_bits = 2;
  c.history = HistoryRule::Shift;
  c.uth = c.lth = c.fth = 0;
  JugglerPredictor p(c);
  feed(p, "S");
  EXPECT_EQ(p.level(), 2u);
  EXPECT_EQ(p.last_transition(), T::Lower);
  feed(p, "S");
  EXPECT_EQ(p.level(), 0u);
  EXPECT_EQ(p.mode(), UM);
  feed(p, "S");
  EXPECT_EQ(p.mode(), LHM);
  EXPECT_EQ(p.level(), 0u);
  feed(p, "I");
  EXPECT_EQ(p.level(), 1u);
  EXPECT_EQ(p.last_transition(), T::Raise);
  feed(p, "S");  // 01 -> 10: a stall trigger, not the lowest yet
  EXPECT_EQ(p.level(), 2u);
  EXPECT_EQ(p.last_transition(), T::Lower);
  feed(p, "I");  // 10 -> 01
  feed(p, "I");  // 01 -> 11
  EXPECT_TRUE(p.high());
  feed(p, "I");
  EXPECT_EQ(p.last_transition(), T::Hold);
  // With one bit the shift register and the counter are the same machine.
  JugglerPredictorConfig a, b;
  a.uth = b.uth = 2;
  b.history = HistoryRule::Shift;
  JugglerPredictor pa(a), pb(b);
  std::mt19937 rng(7);
  for (int i = 0; i < 5000; ++i) {
    Event e = rng() % 3 == 0 ? Event::Issue : Event::Stall;
    pa.cycle(e);
    pb.cycle(e);
    ASSERT_EQ(pa.mode(), pb.mode());
    ASSERT_EQ(pa.level(), pb.level());
  }
}

TEST(JugglerPredictor, ReverseOrderVisitsFairnessBeforeLatencyHiding) {
  for (uint32_t bits : {1u, 2u}) {
    JugglerPredictorConfig c;
    c.reverse = true;
    c.history_bits = bits;
    c.uth = c.lth = c.fth = 0;
    JugglerPredictor p(c);
    std::vector<JugglerMode> visited{p.mode()};
    for (int i = 0; i < 40 && visited.size() < 4; ++i) {
      feed(p, "S");
      if (p.mode() != visited.back()) visited.push_back(p.mode());
    }
    EXPECT_EQ(visited, (std::vector<JugglerMode>{UM, FM, LHM, UM})) << bits << " bits";
    EXPECT_EQ(p.counters().switches_to[int(FM)], 1u);
    EXPECT_EQ(p.counters().switches_to[int(LHM)], 1u);
  }
  JugglerPredictorConfig c;
  c.reverse = true;
  JugglerPredictor p(c);
  EXPECT_EQ(p.next_mode(UM), FM);
  EXPECT_EQ(p.next_mode(FM), LHM);
  EXPECT_EQ(p.next_mode(LHM), UM);
}

TEST(JugglerPredictor, EntryAtHighestConfidence) {
  JugglerPredictorConfig c;
  c.uth = c.lth = c.fth = 0;
  c.entry = EntryLevel::Highest;
  JugglerPredictor p(c);
  feed(p, "SS");
  EXPECT_EQ(p.mode(), LHM);
  EXPECT_TRUE(p.high());
  feed(p, "S");
  EXPECT_EQ(p.mode(), LHM);
  EXPECT_FALSE(p.high());
}

// Window reading: Stall_c and Stall_p are the stalls of the current and previous window.
TEST(JugglerPredictor, WindowReading) {
  JugglerPredictorConfig c;
  c.stall_reading = StallReading::Window;
  c.window = 4;
  c.uth = 1;
  JugglerPredictor p(c);
  feed(p, "SSS");
  EXPECT_EQ(p.last_transition(), T::None);
  feed(p, "S");  // 4 > 0 + 1
  EXPECT_EQ(p.last_transition(), T::Lower);
  EXPECT_EQ(p.previous_window_stalls(), 4u);
  feed(p, "SSSS");  // 4 > 4 + 1 fails; no issue in the window: no update
  EXPECT_EQ(p.last_transition(), T::None);
  EXPECT_EQ(p.mode(), UM);
  feed(p, "ISSS");  // 3 > 4 + 1 fails, an issue: confidence rises
  EXPECT_EQ(p.last_transition(), T::Raise);
  EXPECT_TRUE(p.high());
  // With W = 1 and zero thresholds a stall right after a stall is no update, unlike cycle
  // X+2 of Fig. 4: this reading does not reproduce the walkthrough.
  JugglerPredictorConfig w;
  w.stall_reading = StallReading::Window;
  w.window = 1;
  w.uth = w.lth = w.fth = 0;
  JugglerPredictor q(w);
  feed(q, "IS");
  EXPECT_EQ(q.last_transition(), T::Lower);
  feed(q, "S");
  EXPECT_EQ(q.last_transition(), T::None);
  EXPECT_EQ(q.mode(), UM);
}

// Every cycle lands in exactly one mode's residency; issue and stall cycles are split out.
TEST(JugglerPredictor, ResidencyAddsUpToTheCyclesFed) {
  JugglerPredictorConfig c;
  c.uth = 5;
  c.lth = 1;
  c.fth = 2;
  JugglerPredictor p(c);
  std::mt19937 rng(11);
  uint64_t issues = 0, stalls = 0, n = 20000;
  uint64_t expect_cycles[3] = {};
  for (uint64_t i = 0; i < n; ++i) {
    uint32_t r = rng() % 10;
    Event e = r < 4 ? Event::Issue : r < 9 ? Event::Stall : Event::None;
    issues += e == Event::Issue;
    stalls += e == Event::Stall;
    ++expect_cycles[int(p.mode())];  // counted in the mode in force at the cycle's start
    p.cycle(e);
  }
  const JugglerCounters& k = p.counters();
  EXPECT_EQ(k.total_cycles(), n);
  EXPECT_EQ(k.issue_cycles[0] + k.issue_cycles[1] + k.issue_cycles[2], issues);
  EXPECT_EQ(k.stall_cycles[0] + k.stall_cycles[1] + k.stall_cycles[2], stalls);
  for (int m = 0; m < 3; ++m) {
    EXPECT_EQ(k.cycles[m], expect_cycles[m]);
    EXPECT_GT(k.cycles[m], 0u);
  }
  EXPECT_GT(k.mode_switches(), 3u);
}

// cycles(e, n) - the replay of skipped cycles - is n calls of cycle(e), for every reading.
TEST(JugglerPredictor, BulkCyclesMatchSingleSteps) {
  for (StallReading r : {StallReading::SinceUpdate, StallReading::Consecutive, StallReading::Window}) {
    for (HistoryRule h : {HistoryRule::Counter, HistoryRule::Shift}) {
      JugglerPredictorConfig c;
      c.uth = 9;
      c.lth = 0;
      c.fth = 3;
      c.history_bits = 2;
      c.stall_reading = r;
      c.history = h;
      c.window = 20;  // longer than the largest threshold, or nothing ever triggers
      JugglerPredictor a(c), b(c);
      std::mt19937 rng(3);
      for (int i = 0; i < 3000; ++i) {
        uint32_t x = rng() % 3;
        Event e = x == 0 ? Event::Issue : x == 1 ? Event::Stall : Event::None;
        uint64_t n = rng() % 40;
        a.cycles(e, n);
        for (uint64_t k = 0; k < n; ++k) b.cycle(e);
        ASSERT_EQ(a.mode(), b.mode()) << i;
        ASSERT_EQ(a.level(), b.level()) << i;
        ASSERT_EQ(a.stall_count(), b.stall_count()) << i;
        if (n) {
          ASSERT_EQ(a.last_transition(), b.last_transition()) << i;
        }
      }
      const JugglerCounters &ka = a.counters(), &kb = b.counters();
      for (int m = 0; m < 3; ++m) {
        EXPECT_EQ(ka.cycles[m], kb.cycles[m]);
        EXPECT_EQ(ka.stall_cycles[m], kb.stall_cycles[m]);
        EXPECT_EQ(ka.issue_cycles[m], kb.issue_cycles[m]);
        EXPECT_EQ(ka.switches_to[m], kb.switches_to[m]);
      }
      EXPECT_EQ(ka.confidence_up, kb.confidence_up);
      EXPECT_EQ(ka.confidence_down, kb.confidence_down);
      EXPECT_GT(ka.mode_switches(), 0u);
    }
  }
}

TEST(JugglerPredictor, CounterDifferences) {
  JugglerPredictorConfig c;
  c.uth = c.lth = c.fth = 0;
  JugglerPredictor p(c);
  feed(p, "SS");
  JugglerCounters before = p.counters();
  feed(p, "IS.S");
  JugglerCounters d = p.counters() - before;
  EXPECT_EQ(d.total_cycles(), 4u);
  EXPECT_EQ(d.cycles[int(LHM)], 4u);
  EXPECT_EQ(d.issue_cycles[int(LHM)], 1u);
  EXPECT_EQ(d.stall_cycles[int(LHM)], 2u);
  EXPECT_EQ(d.confidence_up, 1u);
  EXPECT_EQ(d.confidence_down, 1u);
  EXPECT_EQ(d.switches_to[int(FM)], 1u);
}

TEST(JugglerPredictor, BadConfigurationsAreErrors) {
  JugglerPredictorConfig c;
  c.history_bits = 0;
  EXPECT_THROW(JugglerPredictor{c}, Error);
  c.history_bits = 9;
  EXPECT_THROW(JugglerPredictor{c}, Error);
  c.history_bits = 1;
  c.stall_reading = StallReading::Window;
  c.window = 0;
  EXPECT_THROW(JugglerPredictor{c}, Error);
  EXPECT_THROW(parse_stall_reading("sometimes"), Error);
  EXPECT_THROW(parse_history_rule("ring"), Error);
  EXPECT_THROW(parse_entry_level("middle"), Error);
  EXPECT_EQ(parse_stall_reading("consecutive"), StallReading::Consecutive);
  EXPECT_EQ(parse_history_rule("shift"), HistoryRule::Shift);
  EXPECT_EQ(parse_entry_level("highest"), EntryLevel::Highest);
}

}  // namespace
}  // namespace warpsim
