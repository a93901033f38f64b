#!/usr/bin/env python3
"""Learning-scheduler variants against the static schedulers, on a tuning set and a held-out set
of workloads (docs/rlws.md, "Beyond the paper").

usage: python3 scripts/rl_variants.py --tuning W1,W2,... LABEL=DIR/results.jsonl ...

Each results.jsonl is a `warpsim compare` sweep of gto, lrr, tl and one learning scheduler
(rlws or rlws_ms) with the variant's --sched-param. Per kernel (the launches of one kernel
added up, as the harness's summary does): the geometric-mean speedup over GTO on the tuning
workloads and on the rest (held out), the kernels more than 2 % slower than the best of
GTO/LRR/TL, and the share of scheduler cycles with a ready warp left unissued (stall.declined).
"""
import argparse
import collections
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from results_io import geomean  # noqa: E402

STATIC = ("gto", "lrr", "tl")


def load(path):
    """(workload, kernel name) -> scheduler -> [cycles, declined, scheduler cycles]"""
    k = collections.defaultdict(lambda: collections.defaultdict(lambda: [0.0, 0.0, 0.0]))
    with open(path) as f:
        for line in f:
            if not line.strip():
                continue
            r = json.loads(line)
            v = k[(r["workload"], r["kernel"])][r["scheduler"]]
            v[0] += float(r["cycles"])
            v[1] += float(r.get("stall.declined") or 0)
            v[2] += float(r.get("stall.scheduler_cycles") or 0)
    return k


def gm(xs):
    """geometric mean to 4 places, or a dash for no kernels"""
    return f"{geomean(xs):.4f}" if xs else "-"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--tuning", required=True, help="comma-separated tuning workloads")
    ap.add_argument("variants", nargs="+", help="LABEL=results.jsonl")
    a = ap.parse_args()
    tuning = set(a.tuning.split(","))
    oracle_printed = False
    print("| variant | kernels tuning/held-out | over GTO, tuning | over GTO, held-out | over GTO, all "
          "| kernels > 2 % below best static | declined |")
    print("|---|---|---|---|---|---|---|")
    for spec in a.variants:
        label, path = spec.rsplit("=", 1)
        ks = load(path)
        learners = {s for v in ks.values() for s in v if s not in STATIC}
        if len(learners) != 1:
            sys.exit(f"{path}: expected one learning scheduler besides {STATIC}, found {sorted(learners)}")
        rl = learners.pop()
        sp = {"t": [], "h": []}
        behind, worst = 0, []
        dec = tot = 0.0
        for (w, kern), v in sorted(ks.items()):
            if rl not in v or any(s not in v for s in STATIC):
                continue
            c = v[rl][0]
            sp["t" if w in tuning else "h"].append(v["gto"][0] / c)
            best = min(v[s][0] for s in STATIC)
            if c > 1.02 * best:
                behind += 1
                worst.append((c / best, f"{w}/{kern}"))
            dec += v[rl][1]
            tot += v[rl][2]
        allk = sp["t"] + sp["h"]
        if not oracle_printed:  # the ceiling a per-kernel choice among the static schedulers reaches
            oracle_printed = True
            orc = {"t": [], "h": []}
            for (w, kern), v in ks.items():
                if rl in v and all(s in v for s in STATIC):
                    orc["t" if w in tuning else "h"].append(v["gto"][0] / min(v[s][0] for s in STATIC))
            print(f"| best of GTO/LRR/TL per kernel | {len(orc['t'])}/{len(orc['h'])} | {gm(orc['t'])} | "
                  f"{gm(orc['h'])} | {gm(orc['t'] + orc['h'])} | 0 | |")
            for st in STATIC:
                n = sum(1 for v in ks.values()
                        if all(s in v for s in STATIC) and v[st][0] > 1.02 * min(v[s][0] for s in STATIC))
                g = {h: [ks[k]["gto"][0] / ks[k][st][0] for k in ks
                         if all(s in ks[k] for s in STATIC) and (k[0] in tuning) == (h == "t")] for h in "th"}
                print(f"| {st.upper()} | | {gm(g['t'])} | {gm(g['h'])} | "
                      f"{gm(g['t'] + g['h'])} | {n} | |")
        print(f"| {label} ({rl}) | {len(sp['t'])}/{len(sp['h'])} | {gm(sp['t'])} | "
              f"{gm(sp['h'])} | {gm(allk)} | {behind} | {100 * dec / max(tot, 1):.2f} % |")
        worst.sort(reverse=True)
        print("  worst: " + ", ".join(f"{n} {100 * (x - 1):.1f} %" for x, n in worst[:5]), file=sys.stderr)


if __name__ == "__main__":
    main()
