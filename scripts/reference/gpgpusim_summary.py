#!/usr/bin/env python3
"""Summary of data/reference/gpgpusim for its README: logs per GPU and scheduler, and every run
that did not give one (runs.tsv: timeouts, failures, skips, mismatches).
    scripts/reference/gpgpusim_summary.py [DIR]"""
import csv
import os
import sys

root = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "../../data/reference/gpgpusim")
gpus, scheds = ["gtx480", "titanv", "rtx2060"], ["lrr", "gto", "tl"]
print("| gpu | " + " | ".join(scheds) + " |")
print("|---|" + "---|" * len(scheds))
workloads = set()
for g in gpus:
    row = []
    for s in scheds:
        d = os.path.join(root, g, s)
        logs = [f[: -len(".small.log")] for f in os.listdir(d) if f.endswith(".small.log")] if os.path.isdir(d) else []
        workloads.update(logs)
        row.append(str(len(logs)))
    print(f"| {g} | " + " | ".join(row) + " |")
complete = [w for w in sorted(workloads)
            if all(os.path.exists(os.path.join(root, g, s, w + ".small.log")) for g in gpus for s in scheds)]
print(f"\nOn all nine pairs ({len(complete)}): {', '.join(complete)}\n")
tsv = os.path.join(root, "runs.tsv")
if os.path.exists(tsv):
    rows = [r for r in csv.DictReader(open(tsv), delimiter="\t") if r["status"] != "ok"]
    if rows:
        print("| workload | gpu | scheduler | status | wall s | note |\n|---|---|---|---|---|---|")
        for r in rows:
            print(f"| {r['workload']} | {r['gpu']} | {r['scheduler']} | {r['status']} | {r['wall_s']} | {r['note']} |")
    else:
        print("Every run recorded in runs.tsv completed.")
