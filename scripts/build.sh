#!/usr/bin/env bash
# Configures and builds warpsim in build/ (Release).
#   scripts/build.sh            everything: the simulator, the CUDA shim, tests and benchmarks
#   scripts/build.sh TARGET...  only those ninja targets (the main job builds `warpsim`)
set -euo pipefail
cd "$(dirname "$0")/.."
launcher=()
command -v ccache >/dev/null && launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)  # when installed
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release "${launcher[@]}" >/dev/null
ninja -C build -j"$(nproc)" "$@"
