#!/usr/bin/env bash
# The main job: install dependencies, build, and compare the warp schedulers on the bundled suite.
# SUITE and SCHEDULERS override the workloads and the schedulers (QAWS is left out: with one kernel at a time it is GTO; its
# experiments are `warpsim qos`, docs/qaws.md).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
bash scripts/build.sh warpsim   # only what the main job runs
SUITE=${SUITE:-default}
SCHEDULERS=${SCHEDULERS:-lrr,gto,oldest,youngest,tl,ipaws,juggler,r-juggler,rlws,rlws_ms}
exec ./build/warpsim compare --suite "$SUITE" --gpu gtx480 --schedulers "$SCHEDULERS" --out results/compare "$@"
