#!/usr/bin/env bash
# The main job: install dependencies, build, and compare the warp schedulers on the bundled suite.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
bash scripts/build.sh
exec ./build/warpsim compare --suite default --gpu gtx480 --out results/compare "$@"
