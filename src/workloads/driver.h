// What a bundled workload's driver.cc includes: the BundledWorkload base it derives from, the
// Device it is written against, SizeParams, Rng and WORKLOAD registration. Inside warpsim that
// is workloads/bundled.h; the standalone CUDA program (scripts/build_standalone.sh, built with
// WARPSIM_STANDALONE) gets a minimal base with the same shape instead.
#pragma once
#ifdef WARPSIM_STANDALONE
#include "workloads/standalone/standalone.h"
#else
#include "workloads/bundled.h"
#endif
