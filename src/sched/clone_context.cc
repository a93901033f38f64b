#include "sched/clone_context.h"

namespace warpsim {

namespace {
thread_local CloneContext* g_current = nullptr;
}

CloneContext::CloneContext() : prev_(g_current) { g_current = this; }
CloneContext::~CloneContext() { g_current = prev_; }
CloneContext* CloneContext::current() { return g_current; }

}  // namespace warpsim
