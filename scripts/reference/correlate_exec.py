#!/usr/bin/env python3
"""Cycle error of warpsim against the committed GPGPU-Sim reference (data/reference/gpgpusim, size
small) two ways per launch: `warpsim run` of the bundled workload (the committed CUDA 13 PTX, what
`warpsim correlate` runs) and `warpsim exec` of the standalone build GPGPU-Sim ran (its CUDA 11.8
PTX). Built with an sm_70 cubin as well, the standalone programs give warpsim ptxas's sm_70
register counts, as GPGPU-Sim uses; the difference between the two columns is then what the PTX
alone does (docs/fidelity.md, "PTX").

    NVCC_FLAGS="-gencode arch=compute_70,code=[compute_70,sm_70] -Xfatbin -compress=false" \\
        scripts/build_standalone.sh /tmp/gpgpusim-ref/cuda/bin/nvcc /tmp/sa70
    scripts/reference/correlate_exec.py /tmp/sa70 [--warpsim build/warpsim] [--jobs 2] [--misses]

Prints per GPU and way the MAE, the count within 15 %, the scheduler agreement (GTO/LRR and TL/LRR
speedups within 0.03 of the reference's; the fastest of the three where the reference's gap
exceeds 3 %) and the largest errors; with --misses, every launch whose GTO/LRR or TL/LRR speedup
is more than 0.03 from the reference's, each way.
"""
import argparse
import concurrent.futures
import json
import os
import re
import statistics
import subprocess
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
REF = os.path.join(ROOT, "data", "reference", "gpgpusim")
GPUS = {"gtx480": "gtx480", "titanv": "titanv", "rtx2060": os.path.join(REF, "gpus", "SM75_RTX2060.toml")}
SCHEDULERS = {"lrr": ["lrr"], "gto": ["gto"], "tl:active=6": ["tl", "--sched-param", "active=6"]}


def reference_cycles(path):
    """gpu_sim_cycle of each launch, in log order."""
    return [int(m.group(1)) for m in re.finditer(r"^gpu_sim_cycle = (\d+)", open(path).read(), re.M)]


def kernel_cycles(path):
    with open(path) as f:
        return [k["cycles"] for k in json.load(f)["kernels"]]


def one(args, tmp, gpu, sched, workload):
    name, *params = SCHEDULERS[sched]
    tag = f"{gpu}_{name}_{workload}"
    run_json, exec_json = os.path.join(tmp, tag + ".run.json"), os.path.join(tmp, tag + ".exec.json")
    common = ["--gpu", GPUS[gpu], "--scheduler", name, *params]
    subprocess.run([args.warpsim, "run", workload, "--size", "small", "--seed", "1", *common, "-q", "--json", run_json],
                   capture_output=True)
    subprocess.run([args.warpsim, "exec", *common, "--json", exec_json, "--",
                    os.path.join(args.standalone, workload), "--size", "small", "--seed", "1"], capture_output=True)
    out = {}
    for way, path in (("run", run_json), ("exec", exec_json)):
        try:
            out[way] = kernel_cycles(path)
        except (OSError, ValueError, KeyError):
            out[way] = None
    return gpu, sched, workload, out


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("standalone", help="directory of the standalone builds (scripts/build_standalone.sh)")
    ap.add_argument("--warpsim", default=os.path.join(ROOT, "build", "warpsim"))
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--misses", action="store_true",
                    help="also list the launches whose GTO/LRR or TL/LRR speedup is more than 0.03 from the reference's")
    args = ap.parse_args()
    jobs = []
    for gpu in GPUS:
        for sched in SCHEDULERS:
            d = os.path.join(REF, gpu, sched)
            for log in sorted(os.listdir(d)) if os.path.isdir(d) else []:
                if log.endswith(".small.log") and os.path.exists(os.path.join(args.standalone, log.split(".")[0])):
                    jobs.append((gpu, sched, log.split(".")[0]))
    errors = {}
    cycles = {}  # (gpu, way, workload, launch) -> {sched: (reference, warpsim)}
    with tempfile.TemporaryDirectory() as tmp, concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
        for gpu, sched, workload, out in pool.map(lambda j: one(args, tmp, *j), jobs):
            ref = reference_cycles(os.path.join(REF, gpu, sched, workload + ".small.log"))
            for way, sim in out.items():
                if sim is None or len(sim) != len(ref):
                    print(f"skipped: {way} {gpu} {sched} {workload} (launches: reference {len(ref)}, warpsim "
                          f"{'none' if sim is None else len(sim)})")
                    continue
                for i, (r, s) in enumerate(zip(ref, sim)):
                    errors.setdefault((gpu, way), []).append((100.0 * (s - r) / r, workload, sched, i))
                    cycles.setdefault((gpu, way, workload, i), {})[sched] = (r, s)
    # Scheduler agreement per launch, as `warpsim correlate` counts it: GTO/LRR and TL/LRR speedups
    # within 0.03 of the reference's, and the fastest of the three where the reference's gap
    # between its fastest and second fastest exceeds 3 %.
    agree = {}
    misses = []
    for (gpu, way, workload, launch), by in cycles.items():
        a = agree.setdefault((gpu, way), [0, 0, 0, 0, 0, 0])
        for other, k in (("gto", 0), ("tl:active=6", 2)):
            if "lrr" in by and other in by:
                (rl, sl), (ro, so) = by["lrr"], by[other]
                a[k + 1] += 1
                a[k] += abs(rl / ro - sl / so) <= 0.03
                if abs(rl / ro - sl / so) > 0.03:
                    misses.append((gpu, workload, launch, other, way, rl / ro, sl / so))
        if len(by) == 3:
            ref = sorted(by, key=lambda x: by[x][0])
            if by[ref[1]][0] > 1.03 * by[ref[0]][0]:
                a[5] += 1
                a[4] += min(by, key=lambda x: by[x][1]) == ref[0]
    print("| gpu | way | launches | MAE % | within 15 % | GTO/LRR within 0.03 | TL/LRR within 0.03 | fastest agrees "
          "| largest errors |")
    print("|---|---|---|---|---|---|---|---|---|")
    for (gpu, way), v in sorted(errors.items()):
        worst = ", ".join(f"{w} {s} #{i} {e:+.1f}" for e, w, s, i in sorted(v, key=lambda x: -abs(x[0]))[:3])
        a = agree.get((gpu, way), [0] * 6)
        print(f"| {gpu} | {way} | {len(v)} | {statistics.mean(abs(e) for e, *_ in v):.2f} | "
              f"{sum(abs(e) <= 15 for e, *_ in v)} | {a[0]} of {a[1]} | {a[2]} of {a[3]} | {a[4]} of {a[5]} | {worst} |")
    if args.misses:
        print()
        print("| gpu | workload | launch | speedup over LRR | way | reference | warpsim |")
        print("|---|---|---|---|---|---|---|")
        for gpu, workload, launch, other, way, r, s in sorted(misses):
            print(f"| {gpu} | {workload} | {launch} | {other} | {way} | {r:.3f} | {s:.3f} |")


if __name__ == "__main__":
    main()
