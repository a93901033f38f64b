#!/bin/bash
# Host time of warpsim against GPGPU-Sim 4.2 on the programs of this directory (docs/performance.md).
#   bench/gpgpusim/compare.sh GPGPUSIM_DIR CONFIG PRESET [OUT]
# GPGPUSIM_DIR: a GPGPU-Sim built by ../shared/tools/gpgpusim/setup.sh (its build.sh and run.sh are
# found next to it through GPGPUSIM_TOOLS, default /work/shared/tools/gpgpusim); CONFIG: one of its
# tested configs (SM2_GTX480, SM7_TITANV, ...); PRESET: the warpsim preset to compare (gtx480,
# titanv, ...). Each program is compiled once with GPGPU-Sim's build.sh (nvcc 11.8, -cudart shared)
# and that one binary runs on both: GPGPU-Sim through run.sh with gto, warpsim through
# `warpsim exec --scheduler gto` (best wall time of 3). Prints one table row per program and the
# geometric mean of the ratios; OUT (default /tmp/warpsim-vs-gpgpusim) keeps the binaries and logs.
# ONLY=prog runs one program of the list.
set -euo pipefail
[ $# -ge 3 ] || { sed -n 2,10p "$0"; exit 2; }
gs=$1 cfg=$2 preset=$3 out=${4:-/tmp/warpsim-vs-gpgpusim}
tools=${GPGPUSIM_TOOLS:-/work/shared/tools/gpgpusim}
here=$(cd "$(dirname "$0")" && pwd)
warpsim=${WARPSIM:-$here/../../build/warpsim}
mkdir -p "$out"
now() { date +%s.%N; }
echo "| program | arguments | GPGPU-Sim s | warpsim s | ratio | GPGPU-Sim cycles | warpsim cycles |"
echo "|---|---|---:|---:|---:|---:|---:|"
logsum=0 n=0
while read -r prog args; do
  [ -n "${ONLY:-}" ] && [ "$ONLY" != "$prog" ] && continue
  bin=$out/$prog
  [ -x "$bin" ] || bash "$tools/build.sh" "$gs" "$bin" "$here/$prog.cu" > "$out/$prog.build.log" 2>&1
  run=$out/run_${prog}_$cfg
  rm -rf "$run"
  t0=$(now)
  bash "$tools/run.sh" "$gs" "$cfg" gto "$run" -- "$bin" $args > /dev/null 2>&1
  t1=$(now)
  gsec=$(echo "$t1 - $t0" | bc)
  gcyc=$(grep '^gpu_tot_sim_cycle' "$run/out.txt" | tail -1 | awk '{print $3}')
  best=
  for _ in 1 2 3; do
    t0=$(now)
    "$warpsim" exec --gpu "$preset" --scheduler gto --json "$out/$prog.json" -- "$bin" $args > /dev/null 2>&1
    t1=$(now)
    w=$(echo "$t1 - $t0" | bc)
    if [ -z "$best" ] || [ "$(echo "$w < $best" | bc)" = 1 ]; then best=$w; fi
  done
  wcyc=$(python3 -c "import json,sys; print(json.load(open(sys.argv[1]))['total']['cycles'])" "$out/$prog.json")
  ratio=$(echo "$gsec / $best" | bc -l)
  logsum=$(echo "$logsum + l($ratio)" | bc -l); n=$((n + 1))
  printf '| %s | %s | %.1f | %.2f | %.0fx | %s | %s |\n' "$prog" "$args" "$gsec" "$best" "$ratio" "$gcyc" "$wcyc"
done <<'LIST'
vecadd 1048576
fmaloop 65536 256
reduce 524288
atax 256
mvt 256
gather 65536
LIST
printf '\ngeomean %.1fx over %d programs\n' "$(echo "e($logsum / $n)" | bc -l)" "$n"
