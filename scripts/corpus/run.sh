#!/bin/bash
# Builds and runs Rodinia 3.1, PolyBench/GPU and NVIDIA cuda-samples programs under warpsim exec
# (docs/corpus.md). Usage: scripts/corpus/run.sh --rodinia DIR --polybench DIR --samples DIR [options];
# --help lists the options.
exec python3 "$(dirname "$0")/corpus.py" "$@"
