// Fixed-priority warp orders shared by several policies (and by adaptive schedulers that switch
// between them): each returns the first warp, in its order, whose status is Ready.
#pragma once
#include "sched/scheduler.h"

namespace warpsim {

// Oldest first among the scheduler's warps (the list is kept in age order).
inline int first_ready_oldest(const SchedulerContext& ctx) {
  for (uint16_t w : ctx.warps())
    if (ctx.status(w) == WarpStatus::Ready) return w;
  return -1;
}

inline int first_ready_youngest(const SchedulerContext& ctx) {
  auto ws = ctx.warps();
  for (size_t i = ws.size(); i-- > 0;)
    if (ctx.status(ws[i]) == WarpStatus::Ready) return ws[i];
  return -1;
}

// Greedy-then-oldest: keep issuing from `greedy` while it is ready, else the oldest ready warp.
inline int first_ready_gto(const SchedulerContext& ctx, int greedy) {
  if (greedy >= 0 && ctx.warp(greedy).valid && ctx.status(greedy) == WarpStatus::Ready) return greedy;
  return first_ready_oldest(ctx);
}

// Loose round robin: the first ready warp after slot `last` in slot order, wrapping around.
inline int first_ready_lrr(const SchedulerContext& ctx, int last) {
  auto ws = ctx.slots();
  size_t n = ws.size();
  size_t start = 0;
  while (start < n && ws[start] <= last) ++start;
  if (start == n) start = 0;
  for (size_t k = 0; k < n; ++k) {
    size_t i = start + k;
    if (i >= n) i -= n;
    if (ctx.status(ws[i]) == WarpStatus::Ready) return ws[i];
  }
  return -1;
}

}  // namespace warpsim
