#!/usr/bin/env bash
# Builds the libFuzzer targets with clang in build-fuzz/ and runs each for a bounded time.
#   scripts/fuzz.sh [SECONDS] [TARGET...]     default 600 s each, targets ptx trace config fatbin
# Seeds come from fuzz/corpus/TARGET (committed, never written); the growing corpus lives in
# build-fuzz/corpus/TARGET and crash inputs in build-fuzz/artifacts/TARGET/. Each run's log
# (with libFuzzer's final cov:/ft:/exec/s figures) is build-fuzz/logs/TARGET/fuzz-0.log.
# Environment: BUILD_DIR (default build-fuzz), JOBS (build jobs, default 2), RSS_MB (default 2048).
set -euo pipefail
cd "$(dirname "$0")/.."
# clang and its fuzzer/sanitizer runtime, from Debian's packages (not needed by the normal build).
if ! command -v clang++ >/dev/null || ! dpkg-query -W -f='${Status}' libclang-rt-14-dev 2>/dev/null | grep -q "ok installed"; then
  SUDO=""
  [ "$(id -u)" -ne 0 ] && SUDO="sudo"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq clang libclang-rt-14-dev
fi
secs=${1:-600}
shift || true
targets=("$@")
[ ${#targets[@]} -eq 0 ] && targets=(ptx trace config fatbin)
BUILD_DIR=${BUILD_DIR:-build-fuzz}
JOBS=${JOBS:-2}
launcher=()
command -v ccache >/dev/null && launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
CC=clang CXX=clang++ cmake -S . -B "$BUILD_DIR" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DWARPSIM_FUZZ=ON -DWARPSIM_SANITIZE=ON -DWARPSIM_BUILD_TESTS=OFF -DWARPSIM_BUILD_BENCH=OFF \
  -DCMAKE_CXX_FLAGS="-fsanitize=fuzzer-no-link" "${launcher[@]}" >/dev/null
build=()
build_failed=0
for t in "${targets[@]}"; do
  if ! ninja -C "$BUILD_DIR" -t query "fuzz_$t" >/dev/null 2>&1; then
    echo "fuzz_$t: not configured (missing sources), skipped"
  elif ! ninja -C "$BUILD_DIR" -j"$JOBS" "fuzz_$t"; then
    echo "fuzz_$t: does not build, skipped"
    build_failed=1
  else
    build+=("fuzz_$t")
  fi
done
[ ${#build[@]} -eq 0 ] && exit 1
root=$(pwd)
bdir=$(cd "$BUILD_DIR" && pwd)
status=$build_failed
for b in "${build[@]}"; do
  t=${b#fuzz_}
  corpus=$bdir/corpus/$t
  art=$bdir/artifacts/$t
  logdir=$bdir/logs/$t
  mkdir -p "$corpus" "$art" "$logdir"
  rm -f "$logdir"/fuzz-*.log
  dict=()
  [ -f "fuzz/$t.dict" ] && dict=(-dict="$root/fuzz/$t.dict")
  echo "== fuzz_$t for ${secs}s (log: $logdir/fuzz-0.log)"
  # One job in one worker process (libFuzzer writes its output to fuzz-0.log in the current
  # directory). The first corpus directory receives new inputs; the seed directory is only read.
  (cd "$logdir" && "$bdir/fuzz/$b" "$corpus" "$root/fuzz/corpus/$t" "${dict[@]}" \
     -max_total_time="$secs" -jobs=1 -workers=1 -rss_limit_mb="${RSS_MB:-2048}" -timeout=20 \
     -print_final_stats=1 -artifact_prefix="$art/") > "$logdir/driver.log" 2>&1 || true
  log=$logdir/fuzz-0.log
  grep -E '^#[0-9]+[[:space:]]+DONE|stat::number_of_executed_units|stat::peak_rss_mb' "$log" || true
  if grep -qE 'ERROR: (libFuzzer|AddressSanitizer|UndefinedBehaviorSanitizer)|runtime error:|==[0-9]+==ERROR' "$log" ||
     compgen -G "$art/crash-*" >/dev/null || compgen -G "$art/oom-*" >/dev/null ||
     compgen -G "$art/timeout-*" >/dev/null; then
    echo "fuzz_$t: FOUND A PROBLEM (see $log and $art/)"
    status=1
  fi
done
exit $status
