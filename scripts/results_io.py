"""What the table scripts (rlws_tables, juggler_tables, qos_tables, search_heldout) share: the
launches of a `warpsim compare` directory and the geometric mean."""
import collections
import json
import math
import os


def geomean(xs):
    xs = list(xs)
    return math.exp(sum(math.log(x) for x in xs) / len(xs)) if xs else float("nan")


def load_launches(path):
    """(workload, kernel_id) -> scheduler -> row of `path`/results.jsonl (the rows with the
    schedulers' counters)"""
    launches = collections.defaultdict(dict)
    with open(os.path.join(path, "results.jsonl")) as f:
        for line in f:
            if line.strip():
                r = json.loads(line)
                launches[(r["workload"], r["kernel_id"])][r["scheduler"]] = r
    return launches
