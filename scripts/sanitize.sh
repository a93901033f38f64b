#!/usr/bin/env bash
# Builds warpsim with AddressSanitizer + UndefinedBehaviorSanitizer (and float-cast-overflow)
# in build-asan/ and runs tests under it. Any sanitizer report fails the test that triggered it.
#   scripts/sanitize.sh                  the whole suite
#   scripts/sanitize.sh REGEX            only tests whose name matches REGEX (ctest -R)
#   scripts/sanitize.sh --inputs         the readers of untrusted input: the test areas integration/errors
#                                        (every bad-input class, fuzz crash replays, watchdog, limits),
#                                        ptx, trace, config, runtime and synth; only their programs
#                                        are built (about three quarters of the build; 242 tests, a tenth of the test time).
#   scripts/sanitize.sh --deadline EPOCH the input readers (all of them, as --inputs), then the rest of the
#                                        suite, cheapest test first, for as long as the time EPOCH
#                                        (seconds since 1970) allows (scripts/ctest_budget.py); it
#                                        names the tests it had no time for. CI (.ci/run) uses this.
# Environment: JOBS (parallel build/test jobs, default nproc), BUILD_DIR (default build-asan),
# COSTS (a normal build's CTestCostData.txt, which orders the rest; default build/Testing/Temporary/).
set -euo pipefail
cd "$(dirname "$0")/.."
JOBS=${JOBS:-$(nproc)}
BUILD_DIR=${BUILD_DIR:-build-asan}
COSTS=${COSTS:-build/Testing/Temporary/CTestCostData.txt}
INPUT_AREAS=(integration/errors ptx trace config runtime synth)
launcher=()
command -v ccache >/dev/null && launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
# -O1 with line tables only (-g1): line numbers in reports, and half the compile time of -O2 -g
# (the instrumented objects and programs are less than half the size).
cmake -S . -B "$BUILD_DIR" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DWARPSIM_SANITIZE=ON \
      -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O1 -g1 -DNDEBUG" -DWARPSIM_BUILD_BENCH=OFF "${launcher[@]}" >/dev/null
input_targets=(warpsim)
for a in "${INPUT_AREAS[@]}"; do input_targets+=("test_${a//\//_}"); done
input_labels="^($(IFS='|'; echo "${INPUT_AREAS[*]}"))\$"
mode=all
targets=()
ctest_filter=()
deadline=
if [ "${1:-}" = "--inputs" ]; then
  mode=inputs
elif [ "${1:-}" = "--deadline" ]; then
  mode=deadline
  deadline=${2:?--deadline needs a time in seconds since 1970}
elif [ $# -gt 0 ]; then
  ctest_filter=(-R "$1")
fi
if [ "$mode" != all ]; then
  targets=("${input_targets[@]}")
  ctest_filter=(-L "$input_labels")
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
start=$(date +%s)
status=0
(cd "$BUILD_DIR" && ctest --output-on-failure -j"$JOBS" --timeout 3600 "${ctest_filter[@]}") || status=$?
echo "sanitizer tests: $(( $(date +%s) - start )) s, exit $status"
if [ "$mode" != deadline ] || [ "$status" -ne 0 ]; then
  exit $status
fi
# The rest of the suite, within the deadline: first the rest of the build.
left=$(( deadline - $(date +%s) ))
if [ "$left" -lt 300 ]; then
  echo "sanitize.sh: ${left} s left before the deadline: the tests outside the input readers are not run under the sanitizers this time"
  exit 0
fi
start=$(date +%s)
rc=0
timeout "$(( left - 120 ))" ninja -C "$BUILD_DIR" -j"$JOBS" || rc=$?
if [ "$rc" -eq 124 ]; then
  echo "sanitize.sh: the rest of the sanitizer build did not finish before the deadline: the tests outside the input readers are not run under the sanitizers this time"
  exit 0
elif [ "$rc" -ne 0 ]; then
  exit $rc
fi
echo "sanitizer build (the rest): $(( $(date +%s) - start )) s"
python3 scripts/ctest_budget.py --build-dir "$BUILD_DIR" --deadline "$deadline" --costs "$COSTS" \
        --exclude-labels "$input_labels" --jobs "$JOBS"
