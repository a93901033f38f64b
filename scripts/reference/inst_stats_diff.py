#!/usr/bin/env python3
"""Compares GPGPU-Sim's per-instruction statistics with warpsim's, PTX line by PTX line.

    inst_stats_diff.py GPGPUSIM_RUN_DIR WARPSIM_CSV [--top N]

GPGPUSIM_RUN_DIR holds gpgpu_inst_stats.txt (GPGPU-Sim writes it into the directory it runs in;
../shared/tools/gpgpusim/run.sh's RUNDIR) and the extracted *.ptx it names. WARPSIM_CSV is
`warpsim exec --inst-stats FILE -- PROGRAM` of the same program (the same PTX, so the lines
agree; `warpsim run` executes the bundled CUDA 13 PTX, whose lines differ). Both count thread
instructions per line and the sum of issue-to-result cycles x active threads; the table shows
the average latency of each line in both and what the difference costs in thread-cycles, the
lines whose latency differs most first.
"""
import argparse
import csv
import glob
import os
import sys
from collections import defaultdict


def read_gpgpusim(run_dir):
    path = os.path.join(run_dir, "gpgpu_inst_stats.txt")
    rows = {}
    ptx = None
    with open(path) as f:
        for line in f:
            parts = line.split()
            # "<file> <line> : <count> <latency> ..."
            if len(parts) < 5 or parts[2] != ":" or not parts[1].isdigit():
                continue
            ptx = ptx or parts[0]
            rows[int(parts[1])] = (int(parts[3]), int(parts[4]))
    return rows, ptx


def read_warpsim(path):
    rows = defaultdict(lambda: [0, 0])
    with open(path) as f:
        for r in csv.DictReader(f):
            line = int(r["line"])
            rows[line][0] += int(r["thread_insts"])
            rows[line][1] += int(r["latency"])
    return rows


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("gpgpusim_dir")
    ap.add_argument("warpsim_csv")
    ap.add_argument("--top", type=int, default=30, help="lines shown (default 30)")
    a = ap.parse_args()
    g, ptx_name = read_gpgpusim(a.gpgpusim_dir)
    w = read_warpsim(a.warpsim_csv)
    text = {}
    if ptx_name:
        cand = glob.glob(os.path.join(a.gpgpusim_dir, ptx_name))
        if cand:
            with open(cand[0]) as f:
                for i, l in enumerate(f, 1):
                    text[i] = l.strip()
    out = []
    for line in sorted(set(g) | set(w)):
        gc, gl = g.get(line, (0, 0))
        wc, wl = w.get(line, (0, 0))
        ga = gl / gc if gc else 0.0
        wa = wl / wc if wc else 0.0
        out.append((line, gc, wc, ga, wa, wl - gl))
    tg = sum(r[1] for r in out)
    tw = sum(r[2] for r in out)
    print(f"thread instructions: GPGPU-Sim {tg}, warpsim {tw}")
    print(f"issue-to-result thread-cycles: GPGPU-Sim {sum(v[1] for v in g.values())}, warpsim {sum(v[1] for v in w.values())}")
    print(f"{'line':>5} {'count gpgpusim':>14} {'warpsim':>9} {'avg lat gpgpusim':>16} {'warpsim':>8} {'diff':>7}  ptx")
    for line, gc, wc, ga, wa, d in sorted(out, key=lambda r: -abs(r[5]))[: a.top]:
        print(f"{line:5d} {gc:14d} {wc:9d} {ga:16.1f} {wa:8.1f} {wa - ga:+7.1f}  {text.get(line, '')[:60]}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
