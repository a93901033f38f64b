#!/usr/bin/env python3
"""Searched RLWS or RLWS_MS configurations against GTO and LRR on training and held-out workloads.

usage: python3 scripts/search_heldout.py SEARCH_DIR COMPARE_DIR

SEARCH_DIR is a `warpsim search` output (its final suite re-evaluation is in DIR/cache);
COMPARE_DIR a `warpsim compare` of the same workloads, size and GPU with at least lrr and gto.
For each configuration of final.csv (the top candidates and the paper's defaults; best.toml
marked), and the compare's own schedulers, prints the geometric-mean speedup over LRR and over GTO per kernel
launch on the training workloads and on the held-out rest, and on how many held-out launches
it is faster than GTO, or within 2 % of min(GTO, LRR).
"""
import collections
import csv
import glob
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from results_io import geomean  # noqa: E402


def same_config(a, b):
    strip = lambda p: [l for l in open(p).read().splitlines() if l.strip() and not l.startswith("#")]
    return strip(a) == strip(b)


def launches_of(result):
    """(workload, launch index) -> cycles, from a warpsim run JSON"""
    w = result["harness"]["workload"]
    return {(w, k["launch"]): float(k["cycles"]) for k in result["kernels"]}


def main():
    search, compare = sys.argv[1], sys.argv[2]
    state = json.load(open(os.path.join(search, "state.json")))
    scheduler = state["identity"].split("scheduler ", 1)[1].split("\n", 1)[0].strip()
    runs = collections.defaultdict(dict)  # rl_config path -> launches
    for f in glob.glob(os.path.join(search, "cache", "*.json")):
        d = json.load(open(f))
        if d["harness"]["scheduler"] != scheduler:
            continue
        runs[d["harness"]["params"].get("rl_config", "defaults")].update(launches_of(d))
    base = collections.defaultdict(dict)  # scheduler -> launches
    for f in glob.glob(os.path.join(compare, "cache", "*.json")):
        d = json.load(open(f))
        if not d["harness"].get("params"):
            base[d["harness"]["scheduler"]].update(launches_of(d))
    train = set(state["identity"].split("train ", 1)[1].split("\n", 1)[0].split())
    with open(os.path.join(search, "final.csv")) as f:
        rows = list(csv.DictReader(f))
    by_text = {describe(p): p for p in runs}
    best = describe(os.path.join(search, "best.toml"))
    print("training workloads: %s" % ",".join(sorted(train)))
    print("| configuration | training launches | over LRR | over GTO | held-out launches | over LRR | over GTO "
          "| held-out faster than GTO | held-out within 2 % of best of GTO/LRR |")
    print("|---|---|---|---|---|---|---|---|---|")
    items = []
    for r in rows:
        text = normal(r["configuration"])
        label = "rank %s" % r["rank"] if r["rank"] != "defaults" else "defaults"
        if text == best:
            label += ", best.toml"
        if text in by_text:
            items.append((label, runs[by_text[text]]))
    for sched in ("gto", "tl", "rlws", "rlws_ms"):
        if sched in base:
            items.append((sched + " (compare)", base[sched]))
    for label, cyc in items:
        out = []
        for part in (lambda w: w in train, lambda w: w not in train):
            keys = [k for k in cyc if part(k[0]) and k in base["lrr"] and k in base["gto"]]
            out.append((len(keys), geomean(base["lrr"][k] / cyc[k] for k in keys),
                        geomean(base["gto"][k] / cyc[k] for k in keys), keys))
        held = out[1][3]
        faster = sum(1 for k in held if cyc[k] < base["gto"][k])
        close = sum(1 for k in held if cyc[k] <= 1.02 * min(base["gto"][k], base["lrr"][k]))
        print("| %s | %d | %.4f | %.4f | %d | %.4f | %.4f | %d | %d |" % (
            label, out[0][0], out[0][1], out[0][2], out[1][0], out[1][1], out[1][2], faster, close))


def normal(text):
    """configuration text with the attributes sorted, to compare descriptions"""
    head, _, attrs = text.partition(" | ")
    return head + " | " + " ".join(sorted(attrs.split()))


def describe(path):
    """final.csv's configuration text of an RL configuration file"""
    params, attrs, in_attrs = {}, [], False
    for line in open(path):
        line = line.split("#")[0].strip()
        if not line:
            continue
        if line == "[attributes]":
            in_attrs = True
            continue
        k, v = [x.strip() for x in line.split("=", 1)]
        if in_attrs:
            attrs.append("%s:%s" % (k, v))
        else:
            params[k] = v
    fmt = lambda v: ("%g" % float(v))
    head = "alpha=%s epsilon=%s gamma=%s reward=%s penalty=%s" % tuple(
        fmt(params[k]) for k in ("alpha", "epsilon", "gamma", "reward", "penalty"))
    return normal(head + " | " + " ".join(attrs))


if __name__ == "__main__":
    main()
