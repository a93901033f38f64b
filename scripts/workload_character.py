#!/usr/bin/env python3
"""Measures the scheduler character of the bundled workloads: every workload (persistent-thread
variants and synthetic kernels excepted) under LRR, GTO and TL on one GPU preset, printed as the markdown table of
docs/workloads.md ("Measured character") with its summary line.

    scripts/workload_character.py [--gpu gtx480] [--size default] [--jobs N] [--warpsim PATH]
"""
import argparse
import concurrent.futures
import json
import os
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SCHEDULERS = ["lrr", "gto", "tl"]


def workloads(warpsim):
    out = subprocess.run([warpsim, "list", "workloads"], check=True, capture_output=True, text=True).stdout
    rows = []
    for line in out.splitlines()[1:]:
        parts = line.split(None, 3)
        if len(parts) < 4 or parts[1] in ("persistent", "synthetic"):
            continue
        rows.append((parts[0], parts[1], parts[3].strip()))
    return rows


def run(warpsim, name, sched, gpu, size, tmp):
    path = os.path.join(tmp, f"{name}.{sched}.json")
    proc = subprocess.run([warpsim, "run", name, "-s", sched, "--gpu", gpu, "--size", size, "--json", path, "-q"],
                          capture_output=True, text=True)
    if proc.returncode != 0:
        sys.exit(f"workload_character: {name} with {sched} failed (exit {proc.returncode}):\n{proc.stderr}")
    with open(path) as f:
        total = json.load(f)["total"]
    return total["cycles"], total["warp_insts"]


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--gpu", default="gtx480")
    ap.add_argument("--size", default="default")
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--warpsim", default=os.path.join(ROOT, "build", "warpsim"))
    a = ap.parse_args()
    rows = workloads(a.warpsim)
    with tempfile.TemporaryDirectory() as tmp, concurrent.futures.ThreadPoolExecutor(a.jobs) as pool:
        jobs = {(n, s): pool.submit(run, a.warpsim, n, s, a.gpu, a.size, tmp) for n, _, _ in rows for s in SCHEDULERS}
        res = {k: f.result() for k, f in jobs.items()}
    print("| workload | stands for | category | LRR cycles | GTO cycles | TL cycles | GTO/LRR speedup | friendly | warp insts |")
    print("|---|---|---|---|---|---|---|---|---|")
    gto_wins, lrr_wins, tl_best = [], [], []
    for name, cat, stands in rows:
        c = {s: res[(name, s)][0] for s in SCHEDULERS}
        ranked = sorted(SCHEDULERS, key=lambda s: c[s])
        friendly = ranked[0].upper() if c[ranked[1]] > c[ranked[0]] * 1.03 else "-"
        if c["lrr"] > c["gto"] * 1.03:
            gto_wins.append(name)
        if c["gto"] > c["lrr"] * 1.03:
            lrr_wins.append(name)
        if ranked[0] == "tl" and friendly == "TL":
            tl_best.append(name)
        print(f"| {name} | {stands} | {cat} | {c['lrr']} | {c['gto']} | {c['tl']} | {c['lrr'] / c['gto']:.3f} | "
              f"{friendly} | {res[(name, 'gto')][1]} |")
    print()
    print(f"Over the {len(rows)} workloads: GTO beats LRR by more than 3 % on {len(gto_wins)}, LRR beats GTO by "
          f"more than 3 % on {len(lrr_wins)} ({', '.join(lrr_wins) or 'none'}), TL is the best of the three by more "
          f"than 3 % on {len(tl_best)} ({', '.join(tl_best) or 'none'}).")


if __name__ == "__main__":
    main()
