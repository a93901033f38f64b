#!/usr/bin/env python3
"""Compares warpsim's issue log with GPGPU-Sim's, launch by launch and SM by SM.

    issue_log_compare.py GPGPUSIM_LOG WARPSIM_TSV [--launch N] [--bins CYCLES]
                         [--sm S --warp W [--count K]]

WARPSIM_TSV is `warpsim exec --issue-log FILE -- PROGRAM` (or `warpsim run ... --issue-log`).
GPGPUSIM_LOG has one line per issued warp instruction, "I <gpu_sim_cycle> <sm> <scheduler>
<warp> <pc> <op>", as a print added to a private GPGPU-Sim build in
shader_core_ctx::issue_warp writes it (docs/correlate.md, "Issue by issue"); gpu_sim_cycle
starts again at each launch, which is how the launches are told apart. Run the same binary on
both so that the two logs hold the same instructions.

Prints, for launch N (default 0), each SM's first and last issue (cycles since the launch
started) and its number of issues in both logs; with --bins, each SM's issues per CYCLES
cycles; with --sm and --warp, that warp's first K issues side by side (cycle and pc). Warp
numbers are warp slots in both, which agree when CTAs land alike.
"""
import argparse
import csv
import sys
from collections import defaultdict


def read_gpgpusim(path):
    """Launches, each a list of (cycle, sm, sched, warp, pc)."""
    launches, last = [[]], -1
    with open(path) as f:
        for line in f:
            p = line.split()
            if len(p) < 7 or p[0] != "I":
                continue
            cycle = int(p[1])
            if cycle < last - 1000 and launches[-1]:
                launches.append([])
            last = cycle
            launches[-1].append((cycle, int(p[2]), int(p[3]), int(p[4]), int(p[5])))
    return launches


def read_warpsim(path):
    launches = defaultdict(list)
    with open(path) as f:
        for r in csv.DictReader(f, delimiter="\t"):
            launches[int(r["launch"])].append(
                (int(r["launch_cycle"]), int(r["sm"]), int(r["scheduler"]), int(r["warp"]), int(r["pc"], 16)))
    return [launches[k] for k in sorted(launches)]


def per_sm(rows):
    out = {}
    for cycle, sm, _, _, _ in rows:
        first, last, n = out.get(sm, (cycle, cycle, 0))
        out[sm] = (min(first, cycle), max(last, cycle), n + 1)
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("gpgpusim_log")
    ap.add_argument("warpsim_tsv")
    ap.add_argument("--launch", type=int, default=0)
    ap.add_argument("--bins", type=int, default=0, help="issues per SM per this many cycles")
    ap.add_argument("--sm", type=int)
    ap.add_argument("--warp", type=int)
    ap.add_argument("--count", type=int, default=60)
    a = ap.parse_args()
    g_all, w_all = read_gpgpusim(a.gpgpusim_log), read_warpsim(a.warpsim_tsv)
    if a.launch >= len(g_all) or a.launch >= len(w_all):
        sys.exit(f"launch {a.launch}: GPGPU-Sim's log has {len(g_all)} launches, warpsim's {len(w_all)}")
    g, w = g_all[a.launch], w_all[a.launch]
    print(f"launch {a.launch}: {len(g)} issues in GPGPU-Sim's log, {len(w)} in warpsim's")
    gs, ws = per_sm(g), per_sm(w)
    print(f"{'':>4} | {'GPGPU-Sim':^22} | {'warpsim':^22}")
    print(f"{'sm':>4} | {'first':>6} {'last':>6} {'issues':>8} | {'first':>6} {'last':>6} {'issues':>8}")
    for sm in sorted(set(gs) | set(ws)):
        a1, b1 = gs.get(sm, (0, 0, 0)), ws.get(sm, (0, 0, 0))
        print(f"{sm:>4} | {a1[0]:>6} {a1[1]:>6} {a1[2]:>8} | {b1[0]:>6} {b1[1]:>6} {b1[2]:>8}")
    if a.bins:
        for name, rows in (("GPGPU-Sim", g), ("warpsim", w)):
            counts = defaultdict(lambda: defaultdict(int))
            for cycle, sm, _, _, _ in rows:
                counts[sm][cycle // a.bins] += 1
            print(f"{name}: issues per {a.bins} cycles")
            for sm in sorted(counts):
                top = max(counts[sm])
                print(f"  sm {sm:>3}: " + " ".join(str(counts[sm].get(b, 0)) for b in range(top + 1)))
    if a.sm is not None and a.warp is not None:
        pick = lambda rows: [(c, pc) for c, sm, _, warp, pc in rows if sm == a.sm and warp == a.warp][: a.count]
        print(f"sm {a.sm} warp {a.warp}: cycle and pc, GPGPU-Sim | warpsim")
        for x, y in zip(pick(g), pick(w)):
            print(f"  {x[0]:>7} {x[1]:>6} | {y[0]:>7} {y[1]:>6}{'' if x[1] == y[1] else '   (pc differs)'}")


if __name__ == "__main__":
    main()
