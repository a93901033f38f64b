#!/usr/bin/env bash
# Records the registers per thread GPGPU-Sim gives each kernel of the bundled suite on its GTX480,
# TITAN V and RTX 2060 configurations (the ptxas figures it computes occupancy with), as
# data/reference/gpgpusim/registers.tsv: config, workload, kernel, registers.
#   scripts/reference/record_registers.sh GPGPUSIM_DIR STANDALONE_DIR [OUT]
#     GPGPUSIM_DIR    what ../shared/tools/gpgpusim/setup.sh built (e.g. /tmp/gpgpusim-ref)
#     STANDALONE_DIR  the bundled workloads built by scripts/build_standalone.sh with its nvcc
# Each program runs for 20 simulated cycles (-gpgpu_max_cycle 20): the figures are printed when
# the module is loaded. docs/fidelity.md says what they are used for.
set -uo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
gdir=${1:?usage: record_registers.sh GPGPUSIM_DIR STANDALONE_DIR [OUT]}
sa=${2:?usage: record_registers.sh GPGPUSIM_DIR STANDALONE_DIR [OUT]}
out=${3:-$root/data/reference/gpgpusim/registers.tsv}
run=${GPGPUSIM_RUN:-$root/../shared/tools/gpgpusim/run.sh}
[ -x "$run" ] || { echo "record_registers.sh: no run.sh at $run (set GPGPUSIM_RUN)" >&2; exit 2; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
printf 'config\tworkload\tkernel\tregisters\n' > "$tmp/out.tsv"
status=0
for cfg in SM2_GTX480 SM7_TITANV SM75_RTX2060; do
  for prog in "$sa"/*; do
    [ -x "$prog" ] && [ -f "$prog" ] || continue
    w=$(basename "$prog")
    rd=$tmp/$cfg/$w
    EXTRA="-gpgpu_max_cycle 20" timeout 120 "$run" "$gdir" "$cfg" gto "$rd" -- "$prog" --size small > /dev/null 2>&1
    lines=$(sed -nE "s/^GPGPU-Sim PTX: Kernel '([^']+)' : regs=([0-9]+).*/\1\t\2/p" "$rd/out.txt" | sort -u)
    if [ -z "$lines" ]; then
      echo "record_registers.sh: no register figures for $w on $cfg (see $rd/out.txt)" >&2
      status=1
      continue
    fi
    printf '%s\n' "$lines" | sed "s/^/$cfg\t$w\t/" >> "$tmp/out.tsv"
  done
done
cp "$tmp/out.tsv" "$out"
echo "wrote $out ($(($(wc -l < "$out") - 1)) kernels)"
exit $status
