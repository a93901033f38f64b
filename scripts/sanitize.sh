#!/usr/bin/env bash
# Builds warpsim with AddressSanitizer + UndefinedBehaviorSanitizer in build-asan/ and runs the
# test suite under it. Any sanitizer report fails the test that triggered it.
#   scripts/sanitize.sh              whole suite
#   scripts/sanitize.sh REGEX        only tests whose name matches REGEX (ctest -R)
# Environment: JOBS (parallel build/test jobs, default nproc), BUILD_DIR (default build-asan).
set -euo pipefail
cd "$(dirname "$0")/.."
JOBS=${JOBS:-$(nproc)}
BUILD_DIR=${BUILD_DIR:-build-asan}
launcher=()
command -v ccache >/dev/null && launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
# RelWithDebInfo: optimised (the suite runs simulations) but with line numbers in reports.
cmake -S . -B "$BUILD_DIR" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DWARPSIM_SANITIZE=ON \
      -DWARPSIM_BUILD_BENCH=OFF "${launcher[@]}" >/dev/null
ninja -C "$BUILD_DIR" -j"$JOBS"
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=1:strict_string_checks=1:detect_stack_use_after_return=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
cd "$BUILD_DIR"
args=(--output-on-failure -j"$JOBS" --timeout 3600)
[ $# -gt 0 ] && args+=(-R "$1")
start=$(date +%s)
status=0
ctest "${args[@]}" || status=$?
echo "sanitizer suite: $(( $(date +%s) - start )) s, exit $status"
exit $status
