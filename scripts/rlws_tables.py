#!/usr/bin/env python3
"""RLWS Tables VI, VII and X (Anantpur et al.) from a `warpsim compare` directory, per kernel
launch and per kernel (the launches of one kernel added up, as the harness's summary does).

usage: python3 scripts/rlws_tables.py results/t67 [--csv OUT.csv]

Needs lrr, gto and tl in the sweep; rlws, rlws_ms, ipaws and ipaws_oracle where present.
A launch is LRR-friendly when LRR takes fewer cycles than GTO, GTO-friendly otherwise. The rank
of X is 1 + the number of {lrr, gto, tl} with strictly fewer cycles than X (ties in X's favour),
as in the paper's Table VI, which ranks RLWS among the four schedulers.
"""
import collections
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from results_io import geomean, load_launches  # noqa: E402

ORDER = ["lrr", "gto", "tl", "ipaws", "ipaws_oracle", "rlws", "rlws_ms"]


def per_kernel(launches):
    """(workload, kernel name) -> scheduler -> summed cycles"""
    kernels = collections.defaultdict(lambda: collections.defaultdict(float))
    for (w, _), v in launches.items():
        for s, r in v.items():
            kernels[(w, r["kernel"])][s] += float(r["cycles"])
    return kernels


def cycles_table(launches):
    return {k: {s: float(r["cycles"]) for s, r in v.items()} for k, v in launches.items()}


def table7(tab, scheds):
    rows = []
    groups = [("LRR-friendly", lambda c: c["lrr"] < c["gto"]),
              ("GTO-friendly", lambda c: c["lrr"] >= c["gto"]),
              ("GTO-friendly, LRR != GTO", lambda c: c["lrr"] > c["gto"]),
              ("All", lambda c: True)]
    for name, pred in groups:
        sel = [c for c in tab.values() if all(s in c for s in scheds) and pred(c)]
        rows.append((name, len(sel), [geomean(c["lrr"] / c[s] for c in sel) for s in scheds]))
    return rows


def table6(tab, x):
    by_rank = collections.defaultdict(list)
    for c in tab.values():
        if not all(s in c for s in ("lrr", "gto", "tl", x)):
            continue
        rank = 1 + sum(1 for s in ("lrr", "gto", "tl") if c[s] < c[x])
        by_rank[rank].append(c)
    rows = []
    for rank in (1, 2, 3, 4):
        sel = by_rank.get(rank, [])
        rows.append((rank, len(sel), [geomean(c[b] / c[x] for c in sel) for b in ("lrr", "gto", "tl")]))
    every = [c for cs in by_rank.values() for c in cs]
    rows.append(("all", len(every), [geomean(c[b] / c[x] for c in every) for b in ("lrr", "gto", "tl")]))
    return rows


def declined(launches, x):
    """NO_INSTR chosen while a warp was ready: stall.declined over scheduler cycles"""
    d = sc = nw = 0
    over1 = 0
    worst = (0.0, None)
    for k, v in launches.items():
        if x not in v:
            continue
        r = v[x]
        dd, ss, nn = float(r["stall.declined"]), float(r["stall.scheduler_cycles"]), float(r["stall.no_warp"])
        d, sc, nw = d + dd, sc + ss, nw + nn
        share = dd / ss if ss else 0.0
        if share > 0.01:
            over1 += 1
        if share > worst[0]:
            worst = (share, k)
    return d / sc, d / (sc - nw), over1, worst


def weights(launches, x):
    """largest |final weight of SM 0| per workload, and weight resets summed over launches"""
    biggest, resets = 0.0, 0
    seen = set()
    for (w, _), v in launches.items():
        if x not in v or w in seen:
            continue
        seen.add(w)
        r = v[x]
        for key, val in r.items():
            if key.startswith("sched.%s.final_theta_sm0." % x):
                biggest = max(biggest, abs(float(val)))
            if key.startswith("sched.%s.kernels." % x) and key.endswith(".weight_resets"):
                resets += int(val)
    return biggest, resets


def main():
    path = sys.argv[1]
    launches = load_launches(path)
    scheds = [s for s in ORDER if any(s in v for v in launches.values())]
    for label, tab in (("kernel launches", cycles_table(launches)), ("kernels", per_kernel(launches))):
        print("## Per %s (%d)\n" % (label, len(tab)))
        print("Table VII: geometric-mean speedup over LRR\n")
        print("| group | n | " + " | ".join(scheds) + " |")
        print("|---|---|" + "---|" * len(scheds))
        for name, n, vals in table7(tab, scheds):
            print("| %s | %d | %s |" % (name, n, " | ".join("%.3f" % v for v in vals)))
        for x in ("rlws", "rlws_ms"):
            if x not in scheds:
                continue
            print("\nTable %s: rank of %s among lrr, gto, tl, %s\n" % ("VI" if x == "rlws" else "X", x, x))
            print("| rank | n | %s/LRR | %s/GTO | %s/TL |" % (x, x, x))
            print("|---|---|---|---|---|")
            rows = table6(tab, x)
            for rank, n, vals in rows:
                print("| %s | %d | %s |" % (rank, n, " | ".join("%.3f" % v for v in vals)))
            total = rows[-1][1]
            b2 = rows[0][1] + rows[1][1]
            print("\nbest or second: %d of %d (%.0f %%)" % (b2, total, 100.0 * b2 / total))
        print()
    for x in ("rlws", "rlws_ms"):
        if x in scheds:
            share, share_live, over1, worst = declined(launches, x)
            big, resets = weights(launches, x)
            print("%s: declined %.2f %% of scheduler cycles (%.2f %% of cycles with a live warp); "
                  "launches above 1 %%: %d; worst %.2f %% %s; largest final |weight| of SM 0: %.3g; "
                  "weight resets: %d" % (x, 100 * share, 100 * share_live, over1, 100 * worst[0],
                                         worst[1], big, resets))
    if "--csv" in sys.argv:
        out = sys.argv[sys.argv.index("--csv") + 1]
        with open(out, "w") as f:
            f.write("workload,kernel_id,kernel," + ",".join(scheds) + "\n")
            for (w, kid), v in sorted(launches.items()):
                name = next(iter(v.values()))["kernel"]
                f.write("%s,%s,%s,%s\n" % (w, kid, name, ",".join(
                    str(int(float(v[s]["cycles"]))) if s in v else "" for s in scheds)))


if __name__ == "__main__":
    main()
