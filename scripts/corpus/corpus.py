#!/usr/bin/env python3
"""Builds and runs public CUDA benchmark suites under `warpsim exec` and tabulates the results.

The suites' sources are never part of warpsim: the caller gives a path to each (Rodinia 3.1,
PolyBench/GPU, NVIDIA's cuda-samples). programs.txt lists the programs, how each is built
(nvcc sources and flags, problem sizes shrunk by the program's own macros) and run (arguments),
and how its self-check is read. Each program is built once and run under every preset asked
for, and with --native also directly on the system's GPU (preset `native`); the results are
written as markdown, CSV and TSV.
"""
import argparse
import concurrent.futures
import csv
import fnmatch
import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
SUITES = {"rodinia": "Rodinia 3.1", "polybench": "PolyBench/GPU", "samples": "CUDA samples"}
CHECKS = ("auto", "polybench", "exit", "none")
NATIVE = "native"  # the preset column of a run on the system's own GPU, without warpsim
COLUMNS = ["program", "suite", "preset", "built", "exit", "clean", "check", "kernels", "cycles",
           "warp_insts", "host_s", "first_error"]


class ListError(Exception):
    pass


def parse_programs(path):
    """Reads the program list: one program a line, fields separated by ' | ':
    suite | name | directory (relative to the suite's root) | nvcc sources and flags | run
    arguments | check [| prepare command]. '#' starts a comment line. In the nvcc and run fields
    {root} is the suite's root, {inputs} the folder of generated inputs, {out} the build folder."""
    programs = []
    names = set()
    with open(path, encoding="utf-8") as f:
        for number, line in enumerate(f, 1):
            text = line.strip()
            if not text or text.startswith("#"):
                continue
            fields = [x.strip() for x in text.split(" | ")]
            where = f"{path}:{number}"
            if len(fields) not in (6, 7):
                raise ListError(f"{where}: expected 6 or 7 fields separated by ' | ', found {len(fields)}")
            suite, name, directory, build, run, check = fields[:6]
            if suite not in SUITES:
                raise ListError(f"{where}: unknown suite '{suite}' (one of {', '.join(SUITES)})")
            if not re.fullmatch(r"[A-Za-z0-9_.+-]+", name):
                raise ListError(f"{where}: program name '{name}' must be letters, digits, _ . + -")
            if (suite, name) in names:
                raise ListError(f"{where}: program '{suite}/{name}' listed twice")
            names.add((suite, name))
            if not (check in CHECKS or check.startswith("re:")):
                raise ListError(f"{where}: check '{check}' must be one of {', '.join(CHECKS)} or re:<regex>")
            if check.startswith("re:"):
                try:
                    re.compile(check[3:])
                except re.error as e:
                    raise ListError(f"{where}: bad regex in check: {e}")
            try:
                shlex.split(build)
                shlex.split(run if run != "-" else "")
            except ValueError as e:
                raise ListError(f"{where}: {e}")
            programs.append({"suite": suite, "name": name, "dir": directory, "build": build,
                             "run": "" if run == "-" else run, "check": check,
                             "prepare": fields[6] if len(fields) == 7 else ""})
    return programs


PASS_RE = re.compile(r"\bPASSED\b|Test passed|Result = PASS|TEST PASSED|\bpassed\b|\bPASS\b|Result: OK|\bSuccess\b",
                     re.IGNORECASE)
FAIL_RE = re.compile(r"\bFAILED\b|Test failed|Result = FAIL|\bFAIL\b|\bfailed\b|\bMismatch\b",
                     re.IGNORECASE)


def verdict(check, out):
    """The program's own verdict from its output: passed, failed or none (it printed none)."""
    if check in ("none", "exit"):
        return "none"
    if check == "polybench":
        counts = [int(m) for m in re.findall(
            r"Non-Matching CPU-GPU Outputs Beyond Error Threshold of [\d.]+ Percent: (\d+)|Number of misses: (\d+)", out)
            for m in m if m]
        if not counts:
            return "none"
        return "passed" if all(c == 0 for c in counts) else "failed"
    if check.startswith("re:"):
        return "passed" if re.search(check[3:], out, re.M) else "failed"
    # warpsim's own messages (warpsim: ...) are not the program's verdict
    lines = [l for l in out.splitlines() if not l.startswith("warpsim")]
    if any(FAIL_RE.search(l) and not re.search(r"\b0 (errors|failed)|failed: 0|FAILED: 0", l, re.I) for l in lines):
        return "failed"
    if any(PASS_RE.search(l) for l in lines):
        return "passed"
    return "none"


def first_error_line(text):
    for line in text.splitlines():
        if re.search(r"warpsim|error|fault|abort|segmentation|exception|not implemented|terminate", line, re.I):
            return line.strip()[:200]
    return ""


def expand(text, program, suites, outdir):
    root = suites[program["suite"]]
    return (text.replace("{root}", root).replace("{inputs}", os.path.join(outdir, "inputs"))
            .replace("{out}", os.path.join(outdir, "bin")))


def build(program, args, suites, outdir):
    """Compiles the program; returns (ok, seconds, first error, binary)."""
    cwd = os.path.join(suites[program["suite"]], program["dir"])
    binary = os.path.join(outdir, "bin", f"{program['suite']}-{program['name']}")
    logfile = os.path.join(outdir, "logs", f"{program['suite']}-{program['name']}.build.log")
    if not os.path.isdir(cwd):
        return False, 0.0, f"no folder {cwd}", binary
    command = ([args.nvcc, "-cudart", "shared", "-gencode", "arch=compute_75,code=compute_75", "-O2",
                "-w", "-o", binary] + shlex.split(expand(program["build"], program, suites, outdir)))
    header = "cd " + shlex.quote(cwd) + " && " + " ".join(shlex.quote(c) for c in command) + "\n"
    if args.reuse_builds and os.path.exists(binary) and os.path.exists(logfile):
        with open(logfile, errors="replace") as log:
            text = log.read()
        if text.startswith(header) and text.endswith("\nbuilt\n"):
            return True, 0.0, "", binary
    start = time.time()
    with open(logfile, "w") as log:
        log.write(header)
        log.flush()
        try:
            rc = subprocess.run(command, cwd=cwd, stdout=log, stderr=subprocess.STDOUT, timeout=args.build_timeout).returncode
        except subprocess.TimeoutExpired:
            rc = -1
    seconds = time.time() - start
    if rc == 0 and os.path.exists(binary):
        with open(logfile, "a") as log:
            log.write("\nbuilt\n")
        return True, seconds, "", binary
    with open(logfile, errors="replace") as log:
        text = log.read().split("\n", 1)[-1]
    err = next((l.strip() for l in text.splitlines() if re.search(r"error|undefined reference", l, re.I)), "")
    return False, seconds, (err or ("build timed out" if rc == -1 else f"nvcc exit {rc}"))[:200], binary


def run(program, preset, binary, args, suites, outdir):
    cwd = os.path.join(suites[program["suite"]], program["dir"])
    tag = f"{program['suite']}-{program['name']}.{preset}"
    jsonfile = os.path.join(outdir, "logs", tag + ".json")
    logfile = os.path.join(outdir, "logs", tag + ".log")
    errfile = os.path.join(outdir, "logs", tag + ".err")
    if os.path.exists(jsonfile):
        os.remove(jsonfile)
    # the program runs in a scratch copy-free way: its working directory is its own folder,
    # so relative data paths resolve; outputs it writes land there too (the suite is a scratch copy)
    command = [binary] + shlex.split(expand(program["run"], program, suites, outdir))
    if preset != NATIVE:
        command = [args.warpsim, "exec", "--gpu", preset, "--scheduler", args.scheduler, "--json", jsonfile,
                   "--"] + command
    start = time.time()
    with open(logfile, "w") as out, open(errfile, "w") as err:
        try:
            proc = subprocess.Popen(command, cwd=cwd, stdout=out, stderr=err, stdin=subprocess.DEVNULL,
                                    start_new_session=True)
            rc = proc.wait(timeout=args.timeout)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, 9)
            proc.wait()
            rc = None
    with open(os.path.join(outdir, "logs", tag + ".status"), "w") as f:
        json.dump({"exit": rc, "host_seconds": round(time.time() - start, 1), "timeout": args.timeout}, f)
    return tabulate(program, preset, outdir)


def tabulate(program, preset, outdir):
    """The table row of one run, from the files it left in OUT/logs."""
    tag = f"{program['suite']}-{program['name']}.{preset}"
    jsonfile = os.path.join(outdir, "logs", tag + ".json")
    logfile = os.path.join(outdir, "logs", tag + ".log")
    errfile = os.path.join(outdir, "logs", tag + ".err")
    row = {"program": program["name"], "suite": program["suite"], "preset": preset, "built": "yes"}
    with open(os.path.join(outdir, "logs", tag + ".status")) as f:
        status = json.load(f)
    rc = status["exit"]
    row["host_s"] = f"{status['host_seconds']:.1f}"
    with open(logfile, errors="replace") as f:
        stdout = f.read()
    with open(errfile, errors="replace") as f:
        stderr = f.read()
    stats = {}
    try:
        with open(jsonfile) as f:
            stats = json.load(f)
    except (OSError, ValueError):
        pass
    kernels = stats.get("kernels", [])
    total = stats.get("total", {})
    row["kernels"] = str(len(kernels))
    row["cycles"] = str(total.get("cycles", 0)) if kernels else "0"
    row["warp_insts"] = str(total.get("warp_insts", 0)) if kernels else "0"
    if preset == NATIVE:  # no simulator, so no statistics
        row["kernels"] = row["cycles"] = row["warp_insts"] = ""
    row["exit"] = "timeout" if rc is None else str(rc)
    problems = []
    if rc is None:
        problems.append(f"timed out after {status['timeout']} s")
    if stats.get("stopped"):
        problems.append(str(stats["stopped"]))
    if stats.get("error"):
        problems.append(str(stats["error"]))
    for e in stats.get("errors", []) or []:
        problems.append(str(e))
    line = first_error_line(stderr)
    if line:
        problems.append(line)
    if rc not in (0, None) and not problems:
        last = next((l.strip() for l in reversed(stdout.splitlines()) if l.strip()), "")
        problems.append(first_error_line(stdout) or f"exit status {rc}" + (f": {last[:160]}" if last else ""))
    if program["check"] == "exit":  # the program reports its check through its exit status
        printed = verdict("auto", stdout + "\n" + stderr)
        row["check"] = "" if rc is None else ("passed" if rc == 0 and printed != "failed" else "failed")
    else:
        row["check"] = verdict(program["check"], stdout + "\n" + stderr)
    clean = rc == 0 and not stats.get("stopped") and not stats.get("error") and not stats.get("errors")
    row["clean"] = "yes" if clean else "no"
    if not kernels and not problems and rc != 0 and preset != NATIVE:
        problems.append("no kernel ran")
    row["first_error"] = problems[0].replace("\n", " ")[:200] if problems else ""
    return row


def main():
    parser = argparse.ArgumentParser(
        prog="run.sh",
        description="Build Rodinia 3.1, PolyBench/GPU and NVIDIA cuda-samples programs with nvcc and run "
                    "each under `warpsim exec` on the given presets; write a results table "
                    "(markdown, CSV, TSV).")
    parser.add_argument("--rodinia", help="root of a gpu-rodinia checkout (holds cuda/)")
    parser.add_argument("--polybench", help="root of a polybenchGpu checkout (holds CUDA/ and common/)")
    parser.add_argument("--samples", help="root of a cuda-samples checkout (holds Samples/ and Common/)")
    parser.add_argument("--out", default="corpus-out", help="output folder (binaries, logs, tables) [corpus-out]")
    parser.add_argument("--warpsim", default=None, help="warpsim binary [build/warpsim]")
    parser.add_argument("--nvcc", default=os.environ.get("NVCC", "/usr/local/cuda/bin/nvcc"), help="nvcc [$NVCC or /usr/local/cuda/bin/nvcc]")
    parser.add_argument("--gpu", action="append", help="preset to run under (repeatable) [gtx480, rtx2060]")
    parser.add_argument("--native", action="store_true",
                        help="also run each program directly on the system's GPU, without warpsim (preset "
                             "'native'; alone, without --gpu, only that)")
    parser.add_argument("--scheduler", default="gto", help="warp scheduler [gto]")
    parser.add_argument("--jobs", "-j", type=int, default=1, help="programs built/run at once [1]")
    parser.add_argument("--timeout", type=int, default=60, help="seconds one run may take [60]")
    parser.add_argument("--build-timeout", type=int, default=300, help="seconds one build may take [300]")
    parser.add_argument("--only", action="append", default=[],
                        help="run only programs matching this glob on 'suite/name' or 'name' (repeatable)")
    parser.add_argument("--list", action="store_true", help="print the program list and exit")
    parser.add_argument("--check-list", action="store_true", help="parse the program list and exit")
    parser.add_argument("--build-only", action="store_true", help="build, do not run")
    parser.add_argument("--retabulate", action="store_true",
                        help="build and run nothing: write the tables again from the logs in --out")
    parser.add_argument("--reuse-builds", action="store_true",
                        help="keep a binary built before with the same command instead of rebuilding it")
    parser.add_argument("--verdict", nargs=2, action="append", metavar=("CHECK", "TEXT"),
                        help="print the self-check verdict CHECK gives for the output TEXT and exit (repeatable)")
    parser.add_argument("--programs", default=os.path.join(HERE, "programs.txt"), help="program list [scripts/corpus/programs.txt]")
    args = parser.parse_args()

    if args.verdict:
        for check, text in args.verdict:
            print(verdict(check, text))
        return
    try:
        programs = parse_programs(args.programs)
    except (OSError, ListError) as e:
        sys.exit(f"run.sh: {e}")
    if args.only:
        programs = [p for p in programs
                    if any(fnmatch.fnmatch(f"{p['suite']}/{p['name']}", g) or fnmatch.fnmatch(p["name"], g) for g in args.only)]
    if args.check_list:
        print(f"{len(programs)} programs: " + ", ".join(f"{s} {sum(p['suite'] == s for p in programs)}" for s in SUITES))
        return
    if args.list:
        for p in programs:
            print(f"{p['suite']}/{p['name']}\t{p['dir']}\t{p['build']}\t{p['run']}")
        return
    suites = {}
    for key in SUITES:
        path = getattr(args, key)
        if path:
            if not os.path.isdir(path):
                sys.exit(f"run.sh: --{key} {path}: not a folder")
            suites[key] = os.path.abspath(path)
    if not suites:
        sys.exit("run.sh: give the path to at least one suite (--rodinia, --polybench, --samples); see --help")
    programs = [p for p in programs if p["suite"] in suites]
    if not programs:
        sys.exit("run.sh: no program of the given suites matches")
    if not args.retabulate and not shutil.which(args.nvcc):
        sys.exit(f"run.sh: nvcc not found at {args.nvcc} (set --nvcc or $NVCC)")
    args.warpsim = os.path.abspath(args.warpsim or os.path.join(HERE, "..", "..", "build", "warpsim"))
    presets = ([NATIVE] if args.native else []) + (args.gpu or ([] if args.native else ["gtx480", "rtx2060"]))
    if not args.retabulate and presets != [NATIVE] and not os.access(args.warpsim, os.X_OK):
        sys.exit(f"run.sh: warpsim not found at {args.warpsim} (build it, or give --warpsim)")
    outdir = os.path.abspath(args.out)
    for sub in ("bin", "logs", "inputs"):
        os.makedirs(os.path.join(outdir, sub), exist_ok=True)
    if args.native and not args.retabulate:
        record_native_gpu(outdir)
    if "rodinia" in suites and not args.retabulate:
        subprocess.run([sys.executable, os.path.join(HERE, "make_inputs.py"), os.path.join(outdir, "inputs")], check=True)

    def built_before(program):
        logfile = os.path.join(outdir, "logs", f"{program['suite']}-{program['name']}.build.log")
        if not os.path.exists(logfile):
            return None
        with open(logfile, errors="replace") as log:
            text = log.read()
        if text.endswith("\nbuilt\n"):
            return True, 0.0, "", ""
        err = next((l.strip() for l in text.split("\n", 1)[-1].splitlines()
                    if re.search(r"error|undefined reference", l, re.I)), "nvcc failed")
        return False, 0.0, err[:200], ""

    def one(program):
        rows = []
        if args.retabulate:
            b = built_before(program)
            if b is None:
                return []
            for preset in presets:
                tag = os.path.join(outdir, "logs", f"{program['suite']}-{program['name']}.{preset}.status")
                if not b[0]:
                    rows.append({"program": program["name"], "suite": program["suite"], "preset": preset,
                                 "built": "no", "exit": "", "clean": "no", "check": "", "kernels": "",
                                 "cycles": "", "warp_insts": "", "host_s": "", "first_error": b[2]})
                elif os.path.exists(tag):
                    rows.append(tabulate(program, preset, outdir))
            return rows
        if program["prepare"]:
            subprocess.run(expand(program["prepare"], program, suites, outdir), shell=True,
                           cwd=os.path.join(suites[program["suite"]], program["dir"]))
        ok, seconds, err, binary = build(program, args, suites, outdir)
        for preset in presets:
            if not ok:
                rows.append({"program": program["name"], "suite": program["suite"], "preset": preset,
                             "built": "no", "exit": "", "clean": "no", "check": "", "kernels": "",
                             "cycles": "", "warp_insts": "", "host_s": "", "first_error": err})
            elif args.build_only:
                rows.append({"program": program["name"], "suite": program["suite"], "preset": preset,
                             "built": "yes", "exit": "", "clean": "", "check": "", "kernels": "",
                             "cycles": "", "warp_insts": "", "host_s": "", "first_error": ""})
            else:
                rows.append(run(program, preset, binary, args, suites, outdir))
        for r in rows:
            print(f"{r['suite']}/{r['program']} {r['preset']}: built {r['built']} exit {r['exit'] or '-'} "
                  f"clean {r['clean'] or '-'} check {r['check'] or '-'} {r['host_s'] or '-'} s {r['first_error']}",
                  flush=True)
        return rows

    rows = []
    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        for result in pool.map(one, programs):
            rows.extend(result)
    write_tables(rows, presets, outdir, args)


def record_native_gpu(outdir):
    """Writes the names of the system's GPUs (nvidia-smi -L) to OUT/logs/native.gpu for the tables."""
    try:
        text = subprocess.run(["nvidia-smi", "-L"], capture_output=True, text=True, timeout=30).stdout
    except (OSError, subprocess.TimeoutExpired):
        text = ""
    with open(os.path.join(outdir, "logs", "native.gpu"), "w") as f:
        f.write(re.sub(r" \(UUID: [^)]*\)", "", text).strip() or "unknown (nvidia-smi -L gave nothing)")


def summary(rows, presets):
    lines = []
    for preset in presets:
        rs = [r for r in rows if r["preset"] == preset]
        built = [r for r in rs if r["built"] == "yes"]
        ran = [r for r in built if r["exit"] not in ("", "timeout") and r["kernels"] not in ("", "0")]
        clean = [r for r in built if r["clean"] == "yes"]
        passed = [r for r in clean if r["check"] == "passed"]
        checked = [r for r in clean if r["check"] != "failed"]
        n = len(built) or 1
        ran = "-" if preset == NATIVE else len(ran)  # a native run is not observed kernel by kernel
        lines.append(f"| {preset} | {len(rs)} | {len(built)} | {ran} | {len(clean)} ({100 * len(clean) / n:.0f} %) | "
                     f"{len(checked)} ({100 * len(checked) / n:.0f} %) | {len(passed)} |")
    return ("| preset | programs | built | ran a kernel | clean | clean and check not failed | check passed |\n"
            "|---|---|---|---|---|---|---|\n" + "\n".join(lines) + "\n")


def failures(rows):
    """One line per program that did not build, run cleanly or pass on some preset: the presets
    and the first error (or the failed check)."""
    by_program = {}
    for r in rows:
        if r["built"] == "yes" and r["clean"] == "yes" and r["check"] != "failed":
            continue
        why = r["first_error"] or ("self-check failed" if r["check"] == "failed" else "not clean")
        key = (r["suite"], r["program"])
        by_program.setdefault(key, {}).setdefault(why, []).append(r["preset"])
    lines = ["| program | suite | presets | first error |", "|---|---|---|---|"]
    for (suite, program), whys in by_program.items():
        for why, presets in whys.items():
            cell = why.replace("|", "\\|")
            lines.append(f"| {program} | {suite} | {', '.join(presets)} | {cell} |")
    return "\n".join(lines) + "\n"


def write_tables(rows, presets, outdir, args):
    for name, delim in (("results.csv", ","), ("results.tsv", "\t")):
        with open(os.path.join(outdir, name), "w", newline="") as f:
            w = csv.DictWriter(f, fieldnames=COLUMNS, delimiter=delim)
            w.writeheader()
            w.writerows(rows)
    with open(os.path.join(outdir, "results.md"), "w") as f:
        f.write(summary(rows, presets) + "\n")
        gpu = os.path.join(outdir, "logs", "native.gpu")
        if NATIVE in presets and os.path.exists(gpu):
            with open(gpu) as g:
                f.write(f"Preset `{NATIVE}`: the program run directly, without warpsim, on {g.read().strip()}.\n\n")
        f.write("| " + " | ".join(COLUMNS) + " |\n|" + "---|" * len(COLUMNS) + "\n")
        for r in rows:
            f.write("| " + " | ".join(str(r[c]).replace("|", "\\|") for c in COLUMNS) + " |\n")
        f.write("\n" + failures(rows))
    print(summary(rows, presets))
    print(f"tables: {outdir}/results.md, results.csv, results.tsv")


if __name__ == "__main__":
    main()
