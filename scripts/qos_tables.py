#!/usr/bin/env python3
"""Per-pair Markdown table of a `warpsim qos` run (docs/qaws.md, "Results").

usage: python3 scripts/qos_tables.py results/qos/homogeneous

Reads DIR/qos.csv. For each pair: LRR's isolated K1 and K2 response times; K1 / K2 response
normalised to K1 under LRR for LRR, GTO and QAWS (QAWS at its best budget, in brackets); K2
speedup over LRR; average execution time normalised to LRR; STP. The mean row takes geometric
means, STP arithmetic. Below the table: the arithmetic mean K2 response reduction against LRR,
geometric-mean ANTT, and QAWS's K2 speedup with one budget for every pair.
"""
import collections
import csv
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from results_io import geomean  # noqa: E402


def main():
    path = sys.argv[1]
    with open(os.path.join(path, "qos.csv")) as f:
        rows = list(csv.DictReader(f))
    pairs = []
    best = collections.defaultdict(dict)
    by_budget = collections.defaultdict(dict)
    for r in rows:
        if r["pair"] not in pairs:
            pairs.append(r["pair"])
        if r["best"] == "1":
            best[r["pair"]][r["scheduler"]] = r
        if r["scheduler"] == "qaws":
            by_budget[int(r["budget"])][r["pair"]] = r
    print("| pair | alone K1, K2 (LRR) | LRR K1 / K2 | GTO K1 / K2 | QAWS K1 / K2 (b) | K2 speedup GTO, QAWS "
          "| avg exec GTO, QAWS | STP LRR, GTO, QAWS |")
    print("|---|---|---|---|---|---|---|---|")
    f = lambda r, k: float(r[k])
    for p in pairs:
        l, g, q = best[p]["lrr"], best[p]["gto"], best[p]["qaws"]
        name = p.replace("_pt", "")
        if l["k1"] == l["k2"]:
            name = l["k1"].replace("_pt", "")
        print("| %s | %d, %d | 1 / %.2f | %.2f / %.2f | %.2f / %.2f (%s) | %.2f, %.2f | %.2f, %.2f | %.2f, %.2f, %.2f |" % (
            name, f(l, "alone1"), f(l, "alone2"), f(l, "norm_rt2"), f(g, "norm_rt1"), f(g, "norm_rt2"),
            f(q, "norm_rt1"), f(q, "norm_rt2"), q["budget"], f(g, "k2_speedup"), f(q, "k2_speedup"),
            f(g, "norm_avg_exec"), f(q, "norm_avg_exec"), f(l, "stp"), f(g, "stp"), f(q, "stp")))
    gm = lambda s, k: geomean(f(best[p][s], k) for p in pairs)
    am = lambda s, k: sum(f(best[p][s], k) for p in pairs) / len(pairs)
    print("| **mean** | | 1 / %.2f | %.2f / %.2f | %.2f / %.2f | %.2f, %.2f | %.2f, %.2f | %.2f, %.2f, %.2f |" % (
        gm("lrr", "norm_rt2"), gm("gto", "norm_rt1"), gm("gto", "norm_rt2"), gm("qaws", "norm_rt1"),
        gm("qaws", "norm_rt2"), gm("gto", "k2_speedup"), gm("qaws", "k2_speedup"), gm("gto", "norm_avg_exec"),
        gm("qaws", "norm_avg_exec"), am("lrr", "stp"), am("gto", "stp"), am("qaws", "stp")))
    red = lambda s: 100.0 * sum(1 - f(best[p][s], "rt2") / f(best[p]["lrr"], "rt2") for p in pairs) / len(pairs)
    print("\nK2 response time reduction against LRR, arithmetic mean: GTO %.1f %%, QAWS %.1f %%. "
          "ANTT (geometric mean) LRR %.2f, GTO %.2f, QAWS %.2f." % (
              red("gto"), red("qaws"), gm("lrr", "antt"), gm("gto", "antt"), gm("qaws", "antt")))
    one = ", ".join("b = %d: %.2f" % (b, geomean(f(by_budget[b][p], "k2_speedup") for p in pairs))
                    for b in sorted(by_budget))
    print("QAWS K2 speedup (geometric mean) with one budget for every pair: %s." % one)
    bests = collections.Counter(best[p]["qaws"]["budget"] for p in pairs)
    print("Best budget per pair: %s." % ", ".join("b = %s in %d" % (b, n) for b, n in sorted(bests.items())))
    k2_lowest = sum(1 for p in pairs if f(best[p]["qaws"], "rt2") <= min(f(best[p][s], "rt2") for s in ("lrr", "gto")))
    k1_better = sum(1 for p in pairs if f(best[p]["qaws"], "rt1") < f(best[p]["lrr"], "rt1"))
    both = sum(1 for p in pairs if f(best[p]["qaws"], "rt1") < f(best[p]["lrr"], "rt1")
               and f(best[p]["qaws"], "rt2") < f(best[p]["lrr"], "rt2"))
    gto_k1_first = sum(1 for p in pairs if f(best[p]["gto"], "rt1") < f(best[p]["gto"], "rt2"))
    print("QAWS has the lowest K2 response in %d of %d pairs; beats LRR for K1 in %d and for both "
          "K1 and K2 in %d; GTO finishes K1 before K2 in %d." % (k2_lowest, len(pairs), k1_better, both,
                                                                 gto_k1_first))


if __name__ == "__main__":
    main()
