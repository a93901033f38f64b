#!/bin/sh
# Regenerates the committed PTX of the test kernels (tests/data/kernels/*.cu -> *.ptx) when nvcc
# is available. Usage: scripts/gen_ptx.sh [nvcc]
set -eu
NVCC=${1:-${NVCC:-/usr/local/cuda/bin/nvcc}}
DIR=$(cd "$(dirname "$0")/../tests/data/kernels" && pwd)
if ! command -v "$NVCC" >/dev/null 2>&1; then
  echo "gen_ptx.sh: nvcc not found ($NVCC); keeping the committed PTX" >&2
  exit 0
fi
for cu in "$DIR"/*.cu; do
  out="${cu%.cu}.ptx"
  "$NVCC" -ptx -arch=compute_75 -O3 "$cu" -o "$out"
  echo "generated $(basename "$out")"
done
