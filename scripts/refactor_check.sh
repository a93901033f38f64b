#!/usr/bin/env bash
# Before/after check for a change that must not move any simulated figure.
#
#   scripts/refactor_check.sh OLD_WARPSIM NEW_WARPSIM [--size S] [--gpu G]... [--out DIR]
#                             [--old-configs DIR]
#
# Runs every bundled workload under every registered scheduler on every preset (or the --gpu
# ones) with both binaries, then compares the rows of results.jsonl field by field: cycles,
# every statistic and every scheduler report. Prints the number of rows compared and each
# difference; exits 1 when anything differs, 0 when every row is identical.
# Build an old binary with: git worktree add --detach /tmp/wt-old REV && scripts/build.sh there.
# A binary reads the presets of the tree it was built in; --old-configs DIR makes the old one
# read DIR first (WARPSIM_CONFIG_DIR), e.g. the old revision's configs/gpus when the preset files
# changed and the old binary is a copy.
set -euo pipefail

usage() { sed -n '2,14p' "$0" | sed 's/^# \{0,1\}//'; exit 2; }
[[ $# -ge 2 ]] || usage
old=$1 new=$2
shift 2
size=small
out=$(mktemp -d /tmp/refactor_check.XXXXXX)
gpus=()
old_configs=
while [[ $# -gt 0 ]]; do
  case $1 in
    --size) size=$2; shift 2 ;;
    --gpu) gpus+=("$2"); shift 2 ;;
    --out) out=$2; shift 2 ;;
    --old-configs) old_configs=$2; shift 2 ;;
    *) usage ;;
  esac
done
for bin in "$old" "$new"; do
  [[ -x $bin ]] || { echo "refactor_check: '$bin' is not an executable" >&2; exit 2; }
done
if [[ ${#gpus[@]} -eq 0 ]]; then
  mapfile -t gpus < <("$new" list gpus | awk '{print $1}')
fi
jobs=$(nproc 2>/dev/null || echo 2)

mkdir -p "$out/old" "$out/new"
for side in old new; do
  bin=${!side}
  env_cmd=(env)
  [[ $side == old && -n $old_configs ]] && env_cmd=(env "WARPSIM_CONFIG_DIR=$old_configs")
  for gpu in "${gpus[@]}"; do
    echo "refactor_check: $side $gpu ($size)"
    "${env_cmd[@]}" "$bin" compare --suite default --size "$size" --gpu "$gpu" --jobs "$jobs" --progress lines \
      --no-ipaws-oracle --out "$out/$side/$gpu" > "$out/$side/$gpu.log" 2>&1 ||
      { echo "refactor_check: $side $gpu failed, see $out/$side/$gpu.log" >&2; exit 2; }
  done
done

python3 - "$out" "${gpus[@]}" <<'EOF'
import json, sys
out, gpus = sys.argv[1], sys.argv[2:]
# Fields that describe the host run, not the simulation.
host = ("host_", "wall", "elapsed")

def rows(side, gpu):
    table = {}
    with open(f"{out}/{side}/{gpu}/results.jsonl") as f:
        for line in f:
            r = json.loads(line)
            key = (r.get("workload"), r.get("kernel_id"), r.get("launch"), r.get("scheduler"),
                   r.get("sched_params"), r.get("gpu"))
            table[key] = {k: v for k, v in r.items() if not k.startswith(host)}
    return table

compared = differences = 0
for gpu in gpus:
    old, new = rows("old", gpu), rows("new", gpu)
    for key in sorted(set(old) | set(new), key=str):
        if key not in old or key not in new:
            differences += 1
            print(f"{gpu}: row {key} only in {'new' if key in new else 'old'}")
            continue
        compared += 1
        a, b = old[key], new[key]
        for field in sorted(set(a) | set(b)):
            if a.get(field) != b.get(field):
                differences += 1
                if differences <= 50:
                    print(f"{gpu} {key[0]}/{key[1]}#{key[2]} {key[3]}: {field} {a.get(field)} -> {b.get(field)}")
print(f"refactor_check: {compared} rows compared over {len(gpus)} presets, {differences} differences")
sys.exit(1 if differences else 0)
EOF
