// How a block of additive counters declares its statistics: a struct of plain uint64_t
// fields (incremented directly on the hot path) with a static visit() that names each field
// once, with its help text:
//
//   template <class V>
//   static constexpr void visit(V& v) {
//     v("l2.reads", &MemoryStats::l2_reads, "L2 read accesses");
//     v("scheduler", &CoreStats::sched_cycles, cycle_class_element, "scheduler cycles by class");
//   }
//
// The name is the statistic's stable dotted key (the key of the `--json` output). An array
// field is declared with a function naming its elements; its statistics are NAME.ELEMENT.
// A statistic declared StatOutput::Internal is kept and summed like the others but is not a
// key of the `--json` output (it feeds a derived statistic). Sums, differences, the JSON
// output, docs/statistics.md and GPGPU-Sim's printed form all walk these declarations
// (timing/statistics.h); declared_stat_bytes() lets a static_assert check that no field is
// left out.
#pragma once
#include <cstddef>
#include <cstdint>
#include <string_view>

namespace warpsim {

enum class StatOutput : uint8_t { Json, Internal };

// Name of element `i` of an array statistic.
using StatElementName = std::string_view (*)(int i);

namespace stat_detail {

template <class T>
struct Binary {
  T& a;
  const T& b;
  bool add;
  constexpr void operator()(const char*, uint64_t T::*m, const char*, StatOutput = StatOutput::Json) {
    a.*m = add ? a.*m + b.*m : a.*m - b.*m;
  }
  template <size_t N>
  constexpr void operator()(const char*, uint64_t (T::*m)[N], StatElementName, const char*,
                            StatOutput = StatOutput::Json) {
    for (size_t i = 0; i < N; ++i) (a.*m)[i] = add ? (a.*m)[i] + (b.*m)[i] : (a.*m)[i] - (b.*m)[i];
  }
};

template <class T>
struct Bytes {
  size_t n = 0;
  constexpr void operator()(const char*, uint64_t T::*, const char*, StatOutput = StatOutput::Json) {
    n += sizeof(uint64_t);
  }
  template <size_t N>
  constexpr void operator()(const char*, uint64_t (T::*)[N], StatElementName, const char*,
                            StatOutput = StatOutput::Json) {
    n += N * sizeof(uint64_t);
  }
};

}  // namespace stat_detail

// a += b, field by field, over every declared statistic of T.
template <class T>
constexpr void add_stats(T& a, const T& b) {
  stat_detail::Binary<T> v{a, b, true};
  T::visit(v);
}

// a -= b, field by field, over every declared statistic of T.
template <class T>
constexpr void subtract_stats(T& a, const T& b) {
  stat_detail::Binary<T> v{a, b, false};
  T::visit(v);
}

// Bytes of T's declared fields: equals sizeof(T) when every field is declared.
template <class T>
constexpr size_t declared_stat_bytes() {
  stat_detail::Bytes<T> v;
  T::visit(v);
  return v.n;
}

}  // namespace warpsim
