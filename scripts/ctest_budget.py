#!/usr/bin/env python3
"""Runs the tests of a ctest build directory, cheapest first, for as long as a deadline allows.

    ctest_budget.py --build-dir DIR --deadline EPOCH [--costs FILE] [--exclude-labels REGEX]
                    [--jobs N] [--ratio R] [--min-ratio M] [--grace S]

The tests' expected times come from FILE, a CTestCostData.txt written by another build of the
same suite (CI's normal build, which ran just before); a test it does not list counts as the
median. The tests run in chunks of about 90 s; before each chunk its wall time is predicted as

    ratio * sum(cost + 0.5 s) / jobs

where ratio starts at R (default 12; the sanitizer build's tests were measured 7.4x slower than
the normal build's) and then becomes what the chunks so far took, the whole run or the last chunk,
whichever was slower, but never below --min-ratio (default 10; CI's -O1 sanitizer build measured
7.5-16x, chunk by chunk). A chunk that would end after the
deadline is shortened; when not even the next test fits, the run stops and says which tests
were not run. A test is stopped (and fails) only --grace seconds (default 300) after the deadline,
so a chunk that takes longer than predicted still ends. Exit status: that of the first chunk that failed, else 0.
"""
import argparse
import json
import subprocess
import sys
import time

PER_TEST_FLOOR_S = 0.5  # process start of an instrumented test program
CHUNK_S = 90.0


def read_costs(path):
    costs = {}
    if not path:
        return costs
    try:
        with open(path, encoding="utf-8") as f:
            for line in f:
                line = line.rstrip("\n")
                if line == "---":
                    break
                parts = line.rsplit(" ", 2)
                if len(parts) == 3:
                    try:
                        costs[parts[0]] = float(parts[2])
                    except ValueError:
                        pass
    except OSError:
        pass
    return costs


def list_tests(build_dir, exclude_labels):
    out = subprocess.run(["ctest", "--show-only=json-v1"], cwd=build_dir, check=True,
                         capture_output=True, text=True).stdout
    tests = []
    for number, t in enumerate(json.loads(out)["tests"], start=1):
        labels = []
        disabled = False
        for p in t.get("properties", []):
            if p["name"] == "LABELS":
                labels = p["value"]
            elif p["name"] == "DISABLED":
                disabled = bool(p["value"])
        if not disabled:
            tests.append((number, t["name"], labels))
    if exclude_labels:
        import re
        rx = re.compile(exclude_labels)
        tests = [t for t in tests if not any(rx.search(label) for label in t[2])]
    return tests


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--build-dir", required=True)
    ap.add_argument("--deadline", type=float, required=True)
    ap.add_argument("--costs")
    ap.add_argument("--exclude-labels")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--ratio", type=float, default=12.0)
    ap.add_argument("--min-ratio", type=float, default=10.0)
    ap.add_argument("--grace", type=float, default=300.0)
    args = ap.parse_args()

    costs = read_costs(args.costs)
    tests = list_tests(args.build_dir, args.exclude_labels)
    known = sorted(costs.values())
    median = known[len(known) // 2] if known else 1.0
    plan = sorted(((costs.get(name, median), number, name) for number, name, _ in tests))
    ratio = args.ratio
    spent_wall = 0.0
    spent_cost = 0.0
    ran = 0
    status = 0
    i = 0
    while i < len(plan):
        left = args.deadline - time.time()
        chunk = []
        predicted = 0.0
        while i + len(chunk) < len(plan):
            cost = plan[i + len(chunk)][0] + PER_TEST_FLOOR_S
            # One test cannot be split across the jobs: it alone must fit as well.
            next_predicted = max(predicted + ratio * cost / args.jobs, ratio * cost)
            if next_predicted > left or (chunk and predicted >= CHUNK_S):
                break
            chunk.append(plan[i + len(chunk)])
            predicted = next_predicted
        if not chunk:
            break
        numbers = ",".join(str(n) for _, n, _ in chunk)
        # A test still running at the deadline may finish within the grace period: the deadline
        # plans the chunks, the grace bounds them (a prediction can be off by twice or more).
        timeout = max(60, int(left + args.grace))
        started = time.time()
        rc = subprocess.run(["ctest", "--output-on-failure", f"-j{args.jobs}", "--timeout",
                             str(timeout), "-I", f"0,0,0,{numbers}"], cwd=args.build_dir).returncode
        took = time.time() - started
        spent_wall += took
        spent_cost += sum(c + PER_TEST_FLOOR_S for c, _, _ in chunk)
        # The slower of the whole run so far and the last chunk: the per-test floor fits the cheap
        # tests of the first chunks better than the simulations of the last ones.
        chunk_cost = sum(c + PER_TEST_FLOOR_S for c, _, _ in chunk)
        ratio = max(args.min_ratio, spent_wall * args.jobs / spent_cost, took * args.jobs / chunk_cost)
        ran += len(chunk)
        i += len(chunk)
        print(f"ctest_budget: {ran}/{len(plan)} tests run, {took:.0f} s for {len(chunk)} "
              f"(predicted {predicted:.0f} s); slowdown now {ratio:.1f}x", flush=True)
        if rc != 0 and status == 0:
            status = rc
    if i < len(plan):
        left_out = [name for _, _, name in plan[i:]]
        print(f"ctest_budget: {len(left_out)} of {len(plan)} tests not run before the deadline "
              f"(the most expensive ones; expected {sum(c for c, _, _ in plan[i:]):.0f} s "
              f"in the normal build):")
        for name in left_out:
            print(f"  not run: {name}")
    sys.stdout.flush()
    return status


if __name__ == "__main__":
    sys.exit(main())
