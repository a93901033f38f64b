#!/usr/bin/env bash
# Juggler on the bundled suite (docs/juggler.md): the comparison with GTO, LRR and TL, the
# R-Juggler and 2-bit variants, TL with a 4-warp active set, and the one-at-a-time threshold
# sweep around UTH/FTH/LTH = 68/5/1. Every sweep point is a `warpsim compare` of its own; they
# share one result cache, so a pair common to several points runs once. Summary tables:
# python3 scripts/juggler_tables.py results/juggler
set -euo pipefail
cd "$(dirname "$0")/.."
GPU=${GPU:-rtx2060}
SIZE=${SIZE:-default}
OUT=${OUT:-results/juggler}
WS=${WARPSIM:-./build/warpsim}
mkdir -p "$OUT/cache"
point() {  # point NAME SCHEDULERS [--sched-param ...]
  local name=$1 scheds=$2; shift 2
  mkdir -p "$OUT/$name"
  [ -e "$OUT/$name/cache" ] || ln -s ../cache "$OUT/$name/cache"
  "$WS" compare --suite default --gpu "$GPU" --size "$SIZE" --schedulers "$scheds" \
    --progress lines --out "$OUT/$name" "$@" >"$OUT/$name/stdout.txt" 2>"$OUT/$name/stderr.txt"
}
point main gto,lrr,tl,juggler,r-juggler
point tl4 lrr,gto,tl --sched-param tl:active=4
point twobit lrr,gto,juggler --sched-param juggler:history_bits=2
for v in 1 8 17 34 136 272 1024; do point uth$v lrr,gto,juggler --sched-param juggler:uth=$v; done
for v in 0 1 25 125; do point fth$v lrr,gto,juggler --sched-param juggler:fth=$v; done
for v in 0 5 25 75 115; do point lth$v lrr,gto,juggler --sched-param juggler:lth=$v; done
echo "done: $OUT"
