#!/usr/bin/env bash
# Regenerates data/reference/gpgpusim: GPGPU-Sim 4.2 on the bundled workloads built as
# standalone CUDA programs (scripts/build_standalone.sh), at --size small, on its tested configs
# SM2_GTX480, SM7_TITANV and SM75_RTX2060 with the lrr, gto and two_level_active:6:0:1 schedulers.
#   scripts/reference/gpgpusim.sh GPGPUSIM_DIR [WORKLOAD...]
#     GPGPUSIM_DIR  what ../shared/tools/gpgpusim/setup.sh made (cuda/ and gpgpusim/ inside)
#     WORKLOAD      default: every workload that builds standalone, cheapest first (by the warp
#                   instructions `warpsim run --size small` counts, when build/warpsim exists)
# Environment: PROGS (where the programs are built, default build/standalone-gpgpusim), WARPSIM
# (the binary that orders them, default build/warpsim), TOOLS (default /work/shared/tools/gpgpusim: run.sh), LIMIT_S (per-run limit,
# default 150), SIZE (default small), FORCE=1 (rerun logs that exist; default: keep them, so an
# interrupted regeneration resumes), OUT (default data/reference/gpgpusim), PAIRS (default all
# nine "CONFIG:SCHEDULER" pairs), LAUNCH_OFFSET (default 0: a perturbed reference, each config's
# -gpgpu_kernel_launch_latency raised by this many cycles; docs/correlate.md, "Perturbed
# runs"). Each workload runs on all pairs before the next one starts, so
# an interrupted regeneration leaves whole workloads. After a time-out the workload's remaining
# pairs are skipped; every skip, time-out and failure goes to OUT/runs.tsv.
# Stored per run: OUT/<gpu>/<scheduler>/<workload>.<size>.log with only GPGPU-Sim's own lines
# for kernel_name, kernel_launch_uid, gpu_sim_cycle, gpu_sim_insn, gpu_tot_sim_cycle, the L1D and
# L2 total cache accesses and misses, the DRAM read and write totals, its exit line, and the
# program's verification line, each unchanged.
set -uo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
gdir=$(cd "${1:?usage: gpgpusim.sh GPGPUSIM_DIR [WORKLOAD...]}" && pwd); shift
tools=${TOOLS:-/work/shared/tools/gpgpusim}
limit=${LIMIT_S:-150}
size=${SIZE:-small}
out=${OUT:-$root/data/reference/gpgpusim}
pairs=${PAIRS:-"SM2_GTX480:lrr SM2_GTX480:gto SM2_GTX480:two_level_active:6:0:1 SM7_TITANV:lrr SM7_TITANV:gto SM7_TITANV:two_level_active:6:0:1 SM75_RTX2060:lrr SM75_RTX2060:gto SM75_RTX2060:two_level_active:6:0:1"}
progs=${PROGS:-$root/build/standalone-gpgpusim}
warpsim=${WARPSIM:-$root/build/warpsim}
work=${WORK:-/tmp/warpsim-gpgpusim-ref.$$}
mkdir -p "$out" "$work"

gpu_of() { case $1 in SM2_GTX480) echo gtx480;; SM7_TITANV) echo titanv;; SM75_RTX2060) echo rtx2060;; SM6_TITANX) echo titanx;; SM7_QV100) echo qv100;; SM86_RTX3070) echo rtx3070;; *) echo "$1" | tr 'A-Z' 'a-z';; esac; }
# The log directory names warpsim's scheduler spec, which correlate runs: two_level_active:N:0:1
# (LRR inside an active set of N, SRR outside) is tl with active=N.
sched_of() { case $1 in two_level_active:*:0:1) n=${1#two_level_active:}; echo "tl:active=${n%%:*}";; *) echo "$1";; esac; }
# A perturbed reference: the config's own kernel launch latency (0 where it sets none) plus
# LAUNCH_OFFSET, handed to run.sh as an extra option.
offset=${LAUNCH_OFFSET:-0}
extra_of() {
  [ "$offset" -eq 0 ] && return
  local base
  base=$(awk '$1 == "-gpgpu_kernel_launch_latency" { v = $2 } END { print v + 0 }' \
    "$gdir/gpgpusim/configs/tested-cfgs/$1/gpgpusim.config")
  echo "-gpgpu_kernel_launch_latency $(( base + offset ))"
}

# Programs: nvcc 11.8 of the GPGPU-Sim install, with the flags of its build.sh.
if [ $# -eq 0 ]; then
  set -- $(for d in "$root"/suite/*/; do [ -f "$d/workload.toml" ] && basename "$d"; done)
  ordered=1
fi
"$root/scripts/build_standalone.sh" "$gdir/cuda/bin/nvcc" "$progs" "$@" | tee "$work/build.txt"
built=$(sed -n 's|^built .*/||p' "$work/build.txt")
# Cheapest first: GPGPU-Sim's time grows with the warp instructions simulated.
if [ -n "${ordered:-}" ] && [ -x "$warpsim" ]; then
  built=$(for w in $built; do
    n=$("$warpsim" run "$w" --size "$size" --gpu titanv -q --json "$work/$w.json" >/dev/null 2>&1 &&
        python3 -c "import json,sys; print(sum(k['warp_insts'] for k in json.load(open(sys.argv[1]))['kernels']))" "$work/$w.json")
    echo "${n:-999999999999} $w"; done | sort -n | awk '{print $2}')
fi
echo "order: $built" | tee "$work/order.txt"

tsv=$out/runs.tsv
[ -f "$tsv" ] || printf 'workload\tgpu\tscheduler\tstatus\twall_s\tnote\n' > "$tsv"
note() { printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$@" >> "$tsv"; }
for w in $built; do
  timed_out=""
  for p in $pairs; do
    cfg=${p%%:*}; sch=${p#*:}; gpu=$(gpu_of $cfg); s=$(sched_of $sch)
    log=$out/$gpu/$s/$w.$size.log
    [ -z "${FORCE:-}" ] && [ -s "$log" ] && continue
    if [ -n "$timed_out" ]; then note "$w" "$gpu" "$s" skipped - "timed out on $timed_out"; continue; fi
    rd=$work/run-$w-$gpu-$s; rm -rf "$rd"
    t0=$(date +%s)
    EXTRA=$(extra_of "$cfg") timeout --kill-after=10 "$limit" nice -n 10 "$tools/run.sh" "$gdir" "$cfg" "$sch" "$rd" -- \
      "$progs/$w" --size "$size" >/dev/null 2>&1
    rc=$?; wall=$(( $(date +%s) - t0 ))
    if [ $rc -eq 124 ] || [ $rc -eq 137 ]; then
      timed_out="$gpu/$s"; note "$w" "$gpu" "$s" timeout "$wall" "over ${limit} s"; echo "$w $gpu $s: timed out"; continue
    fi
    if [ $rc -ne 0 ] || ! grep -q 'exit detected' "$rd/out.txt"; then
      why=$(grep -m1 -iE 'error|assert|not implemented|abort' "$rd/out.txt" | cut -c1-200)
      note "$w" "$gpu" "$s" failed "$wall" "rc=$rc ${why}"; echo "$w $gpu $s: failed rc=$rc"; continue
    fi
    mkdir -p "$(dirname "$log")"
    grep -E "^(kernel_name|kernel_launch_uid|gpu_sim_cycle|gpu_sim_insn|gpu_tot_sim_cycle) = |^[[:space:]]*(L1D|L2)_total_cache_(accesses|misses) = |^total dram (reads|writes) = |^GPGPU-Sim: \*\*\* exit detected \*\*\*|^$w --size .*: (verified|MISMATCH|not checked)" \
      "$rd/out.txt" > "$log"
    grep -q "^$w --size .*: verified" "$rd/out.txt" || note "$w" "$gpu" "$s" mismatch "$wall" "$(grep -m1 "^$w --size" "$rd/out.txt")"
    note "$w" "$gpu" "$s" ok "$wall" ""
    echo "$w $gpu $s: $(grep -c '^kernel_name' "$log") kernels, ${wall} s"
    rm -rf "$rd"
  done
done
