#!/bin/sh
# Regenerates suite/*/kernel.ptx from kernel.cu with nvcc (when present).
#   scripts/gen_workload_ptx.sh            regenerate all
#   scripts/gen_workload_ptx.sh --check    fail if a committed kernel.ptx differs from nvcc's
set -eu
NVCC=${NVCC:-/usr/local/cuda/bin/nvcc}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
CHECK=0
[ "${1:-}" = "--check" ] && CHECK=1
if ! command -v "$NVCC" >/dev/null 2>&1; then
  echo "gen_workload_ptx.sh: nvcc not found ($NVCC); the committed PTX is used as it is" >&2
  exit 0
fi
status=0
for cu in "$ROOT"/suite/*/kernel.cu; do
  dir=$(dirname "$cu")
  out="$dir/kernel.ptx"
  if [ $CHECK = 1 ]; then
    tmp=$(mktemp)
    "$NVCC" -ptx -arch=compute_75 -O3 "$cu" -o "$tmp"
    if ! cmp -s "$tmp" "$out"; then
      echo "stale PTX: $out (run scripts/gen_workload_ptx.sh)" >&2
      status=1
    fi
    rm -f "$tmp"
  else
    "$NVCC" -ptx -arch=compute_75 -O3 "$cu" -o "$out"
    echo "generated ${out#$ROOT/}"
  fi
done
exit $status
