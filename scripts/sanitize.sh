#!/usr/bin/env bash
# Builds warpsim with AddressSanitizer + UndefinedBehaviorSanitizer (and float-cast-overflow)
# in build-asan/ and runs tests under it. Any sanitizer report fails the test that triggered it.
#   scripts/sanitize.sh              the whole suite
#   scripts/sanitize.sh REGEX        only tests whose name matches REGEX (ctest -R)
#   scripts/sanitize.sh --inputs     the readers of untrusted input: the test areas integration/errors
#                                    (every bad-input class, fuzz crash replays, watchdog, limits),
#                                    ptx, trace, config, runtime and synth; only their programs
#                                    are built (about three quarters of the build; 242 tests, a tenth of the test time).
# Environment: JOBS (parallel build/test jobs, default nproc), BUILD_DIR (default build-asan).
set -euo pipefail
cd "$(dirname "$0")/.."
JOBS=${JOBS:-$(nproc)}
BUILD_DIR=${BUILD_DIR:-build-asan}
INPUT_AREAS=(integration/errors ptx trace config runtime synth)
launcher=()
command -v ccache >/dev/null && launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
# RelWithDebInfo: optimised (the suite runs simulations) but with line numbers in reports.
cmake -S . -B "$BUILD_DIR" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DWARPSIM_SANITIZE=ON \
      -DWARPSIM_BUILD_BENCH=OFF "${launcher[@]}" >/dev/null
targets=()
ctest_filter=()
if [ "${1:-}" = "--inputs" ]; then
  targets=(warpsim)
  for a in "${INPUT_AREAS[@]}"; do targets+=("test_${a//\//_}"); done
  ctest_filter=(-L "^($(IFS='|'; echo "${INPUT_AREAS[*]}"))\$")
elif [ $# -gt 0 ]; then
  ctest_filter=(-R "$1")
fi
start=$(date +%s)
ninja -C "$BUILD_DIR" -j"$JOBS" "${targets[@]}"
echo "sanitizer build: $(( $(date +%s) - start )) s"
leaks=1
# LeakSanitizer stops the process under ptrace-restricted containers; then run without it.
if ! ASAN_OPTIONS=detect_leaks=1 "$BUILD_DIR/warpsim" --version >/dev/null 2>&1; then
  echo "sanitize.sh: LeakSanitizer cannot run here; leak checking is off (ASan and UBSan stay on)"
  leaks=0
fi
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=$leaks:abort_on_error=1:strict_string_checks=1:detect_stack_use_after_return=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
cd "$BUILD_DIR"
start=$(date +%s)
status=0
ctest --output-on-failure -j"$JOBS" --timeout 3600 "${ctest_filter[@]}" || status=$?
echo "sanitizer tests: $(( $(date +%s) - start )) s, exit $status"
exit $status
