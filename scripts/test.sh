#!/usr/bin/env bash
# The test command: install dependencies, build, run the whole test suite (about 9.5 minutes on
# 2 cores from nothing). The same suite built with AddressSanitizer + UndefinedBehaviorSanitizer
# is a separate command, scripts/sanitize.sh, which CI (.ci/run) runs after this one.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh --tests
bash scripts/format.sh --check
bash scripts/build.sh
# The committed PTX must be what nvcc makes of the sources (skipped with a note without nvcc).
bash scripts/gen_workload_ptx.sh --check
# And the register counts workload.toml records for sm_75 and sm_90 what its ptxas gives that PTX
# (sm_70 needs a CUDA 11.x/12.x ptxas: docs/ptx.md, "Registers per thread").
ptxas=${PTXAS:-/usr/local/cuda/bin/ptxas}
if [ -x "$ptxas" ]; then
  bash scripts/gen_workload_registers.sh --check 75="$ptxas" 90="$ptxas"
else
  echo "test.sh: no ptxas at $ptxas; the recorded register counts are used as they are" >&2
fi
(cd build && ctest --output-on-failure -j"$(nproc)" --timeout 900)
