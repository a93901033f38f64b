#!/usr/bin/env bash
# Records the registers per thread ptxas gives each kernel of the committed suite/*/kernel.ptx,
# per compile target, as the [registers.sm_XX] tables at the end of suite/*/workload.toml. The
# timing model allocates kernels these counts (core.compiled_registers, core.register_target;
# docs/ptx.md, "Registers per thread").
#   scripts/gen_workload_registers.sh [--check] TARGET=PTXAS...
#     TARGET  a compile target, sm_XX as XX (70, 75, 90)
#     PTXAS   the ptxas that compiles for it, e.g.
#       scripts/gen_workload_registers.sh 70=/opt/cuda-11.8/bin/ptxas 75=/usr/local/cuda/bin/ptxas \
#                                         90=/usr/local/cuda/bin/ptxas
#   --check  compare the given targets with the committed tables instead of writing them; fail
#            when one differs
# A workload.toml keeps the tables of targets not given. The committed PTX is nvcc 13's
# (ISA 9.0, .target sm_75); for a ptxas that reads only an older ISA (CUDA 12.x dropped nothing
# these kernels use, CUDA 11.8 reads 7.8) the .version line is lowered to the ISA that ptxas
# names, and the .target line is set to the target compiled for, in a temporary copy.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
check=0
if [ "${1:-}" = "--check" ]; then
  check=1
  shift
fi
[ $# -gt 0 ] || { sed -n '2,17p' "$0" >&2; exit 2; }
declare -A ptxas_for
for a in "$@"; do
  t=${a%%=*}
  p=${a#*=}
  [[ "$t" =~ ^[0-9]+$ && "$a" == *=* ]] || { echo "gen_workload_registers.sh: '$a' is not TARGET=PTXAS" >&2; exit 2; }
  [ -x "$p" ] || { echo "gen_workload_registers.sh: no ptxas at $p" >&2; exit 2; }
  ptxas_for[$t]=$p
done
targets=$(printf '%s\n' "${!ptxas_for[@]}" | sort -n)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
marker="# Registers per thread ptxas gives each kernel of kernel.ptx"

# Prints "kernel<TAB>registers" for kernel.ptx $1 compiled by ptxas $2 for sm_$3.
compile() {
  local ptx=$1 ptxas=$2 target=$3 src=$tmp/in.ptx log=$tmp/ptxas.log
  sed -E "s/^\.target sm_[0-9]+[a-z]?/.target sm_$target/" "$ptx" > "$src"
  if ! "$ptxas" --gpu-name="sm_$target" -v "$src" -o /dev/null > "$log" 2>&1; then
    local isa
    isa=$(sed -nE "s/.*Unsupported \.version [0-9.]+; current version is '([0-9.]+)'.*/\1/p" "$log" | head -1)
    [ -n "$isa" ] || { echo "gen_workload_registers.sh: $ptxas failed on $ptx for sm_$target:" >&2; cat "$log" >&2; return 1; }
    sed -i -E "s/^\.version [0-9.]+/.version $isa/" "$src"
    if ! "$ptxas" --gpu-name="sm_$target" -v "$src" -o /dev/null > "$log" 2>&1; then
      echo "gen_workload_registers.sh: $ptxas failed on $ptx for sm_$target (ISA lowered to $isa):" >&2
      cat "$log" >&2
      return 1
    fi
  fi
  awk '/Compiling entry function/ { k = $0; sub(/.*function \047/, "", k); sub(/\047.*/, "", k) }
       /Used [0-9]+ registers/ && k != "" { for (i = 1; i <= NF; i++) if ($i == "Used") print k "\t" $(i + 1); k = "" }' "$log" |
    sort
}

# The committed table of sm_$2 in workload.toml $1, as "kernel<TAB>registers" lines.
committed() {
  awk -v want="[registers.sm_$2]" '/^\[/ { on = ($0 == want); next }
       on && /^[A-Za-z_0-9$.]+ *= *[0-9]+/ { gsub(/ /, ""); split($0, f, "="); print f[1] "\t" f[2] }' "$1" | sort
}

status=0
for dir in "$root"/suite/*/; do
  w=$(basename "$dir")
  toml=$dir/workload.toml
  [ -f "$dir/kernel.ptx" ] || continue
  for t in $targets; do
    compile "$dir/kernel.ptx" "${ptxas_for[$t]}" "$t" > "$tmp/$w.$t" || { status=1; continue 2; }
  done
  if [ $check = 1 ]; then
    for t in $targets; do
      if ! diff <(committed "$toml" "$t") "$tmp/$w.$t" > "$tmp/diff"; then
        echo "stale registers: suite/$w/workload.toml [registers.sm_$t] (< committed, > ptxas):" >&2
        cat "$tmp/diff" >&2
        status=1
      fi
    done
    continue
  fi
  # Targets recorded before and not given now are kept.
  all=$( (printf '%s\n' $targets; { grep -oE '^\[registers\.sm_[0-9]+\]' "$toml" || true; } | grep -oE '[0-9]+' || true) | sort -nu)
  for t in $all; do [ -f "$tmp/$w.$t" ] || committed "$toml" "$t" > "$tmp/$w.$t"; done
  {
    awk -v m="$marker" 'index($0, m) == 1 { exit } { print }' "$toml" | sed -e :a -e '/^\n*$/{$d;N;ba' -e '}'
    echo
    echo "$marker, per compile target"
    echo "# (scripts/gen_workload_registers.sh; docs/ptx.md, \"Registers per thread\")."
    for t in $all; do
      echo "[registers.sm_$t]"
      awk -F'\t' '{ print $1 " = " $2 }' "$tmp/$w.$t"
    done
  } > "$tmp/$w.toml"
  cp "$tmp/$w.toml" "$toml"
done
[ $check = 1 ] || echo "recorded targets $(echo $targets) in suite/*/workload.toml"
exit $status
