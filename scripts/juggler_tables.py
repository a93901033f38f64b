#!/usr/bin/env python3
"""Markdown tables for docs/juggler.md from the directories scripts/eval_juggler.sh writes.

usage: python3 scripts/juggler_tables.py results/juggler
"""
import collections
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from results_io import geomean, load_launches  # noqa: E402


def speedup(table, x, base):
    """geometric mean of cycles(base)/cycles(x) over kernels having both"""
    return geomean(float(v[base]["cycles"]) / float(v[x]["cycles"])
                   for v in table.values() if x in v and base in v)


def residency(table, x):
    """mean over kernels of the share of active scheduler cycles in each mode"""
    sums, n = collections.Counter(), 0
    for (_, kid), v in table.items():
        if x not in v:
            continue
        r = v[x]
        key = "sched.kernels.%s.active_share." % kid
        if key + "UM" not in r:
            key = "sched.active_share."
        try:
            shares = {m: float(r[key + m]) for m in ("UM", "LHM", "FM")}
        except (KeyError, ValueError):
            continue
        sums.update(shares)
        n += 1
    return {m: 100.0 * sums[m] / n for m in ("UM", "LHM", "FM")} if n else None


def pct(x):
    return "%+.2f %%" % (100.0 * (x - 1.0))


def main():
    root = sys.argv[1]
    main_t = load_launches(os.path.join(root, "main"))
    n = sum(1 for v in main_t.values() if "juggler" in v)
    print("Kernels with results: %d\n" % n)
    print("| scheduler | over GTO | over LRR | over TL | UM / LHM / FM (active cycles) |")
    print("|---|---|---|---|---|")
    rows = [("Juggler", main_t, "juggler"), ("R-Juggler", main_t, "r-juggler")]
    if os.path.isdir(os.path.join(root, "twobit")):
        rows.append(("2-bit Juggler", load_launches(os.path.join(root, "twobit")), "juggler"))
    for label, t, x in rows:
        res = residency(t, x)
        merged = {k: dict(main_t.get(k, {}), **{"x": v[x]}) for k, v in t.items() if x in v}
        cells = [pct(speedup(merged, "x", b)) for b in ("gto", "lrr", "tl")]
        rs = "%.1f / %.1f / %.1f %%" % (res["UM"], res["LHM"], res["FM"]) if res else "-"
        print("| %s | %s | %s | %s | %s |" % (label, cells[0], cells[1], cells[2], rs))
    if os.path.isdir(os.path.join(root, "tl4")):
        t4 = load_launches(os.path.join(root, "tl4"))
        print("\nTL with active=4 over LRR: %s; over GTO: %s" %
              (pct(speedup(t4, "tl", "lrr")), pct(speedup(t4, "tl", "gto"))))
    print("\nPer workload (geometric mean over its kernels), speedup of Juggler:\n")
    print("| workload | over GTO | over LRR | over TL | best fixed |")
    print("|---|---|---|---|---|")
    by_w = collections.defaultdict(dict)
    for k, v in main_t.items():
        by_w[k[0]][k] = v
    for w in sorted(by_w):
        t = by_w[w]
        if not all("juggler" in v for v in t.values()):
            continue
        best = min(("gto", "lrr", "tl"),
                   key=lambda s: sum(float(v[s]["cycles"]) for v in t.values() if s in v))
        print("| %s | %s | %s | %s | %s |" % (w, pct(speedup(t, "juggler", "gto")),
                                            pct(speedup(t, "juggler", "lrr")),
                                            pct(speedup(t, "juggler", "tl")), best))
    print("\nThreshold sweep (one varied, others at 68/5/1): Juggler over GTO, geometric mean\n")
    for name, values in (("uth", [1, 8, 17, 34, 68, 136, 272, 1024]), ("fth", [0, 1, 5, 25, 125]),
                         ("lth", [0, 1, 5, 25, 75, 115])):
        head, cells = [], []
        for v in values:
            d = os.path.join(root, "%s%d" % (name, v))
            default = {"uth": 68, "fth": 5, "lth": 1}[name] == v
            if default:
                t = main_t
            elif os.path.isdir(d) and os.path.exists(os.path.join(d, "results.jsonl")):
                t = load_launches(d)
            else:
                continue
            head.append(("**%d**" if default else "%d") % v)
            cells.append(pct(speedup(t, "juggler", "gto")))
        print("| %s | %s |" % (name.upper(), " | ".join(head)))
        print("|---|" + "---|" * len(head))
        print("| over GTO | %s |\n" % " | ".join(cells))


if __name__ == "__main__":
    main()
