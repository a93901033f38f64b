#!/usr/bin/env bash
# The test command: install dependencies, build, run the whole test suite.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
bash scripts/build.sh
# The committed PTX must be what nvcc makes of the sources (skipped with a note without nvcc).
bash scripts/gen_workload_ptx.sh --check
(cd build && ctest --output-on-failure -j"$(nproc)" --timeout 900)
# The whole suite again, built with AddressSanitizer + UndefinedBehaviorSanitizer in build-asan/
# (docs/errors.md; about 18 min to build from nothing and 6 min to run on 2 cores).
bash scripts/sanitize.sh
