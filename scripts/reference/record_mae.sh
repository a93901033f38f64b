#!/usr/bin/env bash
# Records each preset's mean absolute error of warpsim against the committed GPGPU-Sim reference
# on the regression subset, in data/reference/gpgpusim/recorded_mae.csv; the test
# CorrelateCommand.CommittedReferenceHasNotDrifted holds the model to it (2 points of slack).
# Run it when a change to the timing model moves the figures on purpose, and commit the file.
#   scripts/reference/record_mae.sh [WORKLOAD...]     (default: the subset named in the file)
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
REF=$ROOT/data/reference/gpgpusim
[ $# -gt 0 ] || set -- $(head -1 "$REF/recorded_mae.csv" | sed 's/^# workloads://')
# The GPUs the reference ran where they differ from the presets: NAME=FILE, FILE relative to $REF.
presets=$(sed -n 's/^# presets://p' "$REF/recorded_mae.csv")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# Only GPUs with every run of the subset (each of their scheduler directories has each workload).
for d in "$REF"/*/*/; do
  [ "$(basename "$(dirname "$d")")" = gpus ] && continue
  g=$(dirname "$d")
  complete_g=yes
  for s in "$g"/*/; do for w in "$@"; do [ -f "$s$w.small.log" ] || complete_g=no; done; done
  [ $complete_g = yes ] || continue
  rel=${d#"$REF"/}
  for w in "$@"; do
    if [ -f "$d$w.small.log" ]; then mkdir -p "$work/ref/$rel"; cp "$d$w.small.log" "$work/ref/$rel"; fi
  done
done
preset_args=()
for p in $presets; do [ -d "$work/ref/${p%%=*}" ] && preset_args+=(--preset "${p%%=*}=$REF/${p#*=}"); done
"$ROOT/build/warpsim" correlate "$work/ref" --jobs "$(nproc)" --cache "$work/cache" --out "$work/out" --progress lines \
  "${preset_args[@]}" >"$work/correlate.log" 2>&1 || { cat "$work/correlate.log" >&2; exit 1; }
{
  echo "# workloads: $*"
  echo "# presets:$presets"
  echo "preset,mae_pct"
  awk -F, '$2 == "cycles" { printf "%s,%.2f\n", $1, $4 }' "$work/out/summary.csv"
} > "$REF/recorded_mae.csv"
cat "$REF/recorded_mae.csv"
