#!/usr/bin/env bash
# A one-node Slurm cluster on localhost for testing `warpsim compare --backend slurm`.
#
#   local_cluster.sh start STATE_DIR   install slurm-wlm and munge when missing (apt-get), write a
#                                      minimal slurm.conf under STATE_DIR, start munged,
#                                      slurmctld and slurmd, wait until the node is idle
#   local_cluster.sh stop STATE_DIR    stop exactly the daemons `start` started (their PIDs are
#                                      in STATE_DIR/pids)
#
# Everything (configuration, munge key and socket, spool, logs) lives under STATE_DIR; clients
# find the cluster through SLURM_CONF=STATE_DIR/slurm.conf. Exit status 77 means the cluster
# cannot be set up here (no packages and no way to install them, not root, ...): skip.
set -u

cmd=${1:-}
state=${2:-}
if [[ -z "$cmd" || -z "$state" ]]; then
  echo "usage: $0 start|stop STATE_DIR" >&2
  exit 2
fi
mkdir -p "$state"
state=$(cd "$state" && pwd)

skip() {
  echo "local_cluster: $*" >&2
  exit 77
}

stop() {
  if [[ -f "$state/pids" ]]; then
    while read -r pid name; do
      if kill -0 "$pid" 2>/dev/null; then
        kill "$pid" 2>/dev/null
        for _ in $(seq 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
        kill -0 "$pid" 2>/dev/null && kill -9 "$pid" 2>/dev/null
      fi
    done < <(tac "$state/pids")
    rm -f "$state/pids"
  fi
}

if [[ "$cmd" == stop ]]; then
  stop
  exit 0
fi
[[ "$cmd" == start ]] || { echo "unknown command '$cmd'" >&2; exit 2; }

[[ $(id -u) -eq 0 ]] || skip "slurmd needs root here; run as root to test the Slurm backend"

need_install=0
for prog in munged slurmctld slurmd sbatch squeue sinfo; do
  command -v "$prog" >/dev/null 2>&1 || need_install=1
done
if [[ $need_install -eq 1 ]]; then
  command -v apt-get >/dev/null 2>&1 || skip "slurm-wlm/munge missing and no apt-get to install them"
  echo "local_cluster: installing slurm-wlm and munge" >&2
  if ! DEBIAN_FRONTEND=noninteractive timeout 600 apt-get install -y --no-install-recommends slurm-wlm munge \
      >"$state/apt.log" 2>&1; then
    timeout 300 apt-get update >>"$state/apt.log" 2>&1 || true
    DEBIAN_FRONTEND=noninteractive timeout 600 apt-get install -y --no-install-recommends slurm-wlm munge \
      >>"$state/apt.log" 2>&1 || skip "cannot install slurm-wlm and munge (see $state/apt.log)"
  fi
fi

stop  # leftovers of an earlier start on this state directory

host=$(hostname -s)
cpus=$(nproc)
mkdir -p "$state/munge" "$state/ctld" "$state/spool" "$state/log"
chmod 700 "$state/munge"
if [[ ! -f "$state/munge/munge.key" ]]; then
  dd if=/dev/urandom of="$state/munge/munge.key" bs=1024 count=1 status=none
  chmod 400 "$state/munge/munge.key"
fi

port_free() {
  ! (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null
}

# Two ports unlikely to clash with a real cluster or a parallel test, free right now.
pick_base() {
  local b
  for _ in $(seq 50); do
    b=$((20000 + (RANDOM * 32768 + RANDOM + $$) % 40000))
    port_free "$b" && port_free $((b + 1)) && { echo "$b"; return; }
  done
  echo $((20000 + ($$ % 40000)))
}

write_conf() {
  local base=$1
  cat >"$state/slurm.conf" <<EOF
ClusterName=warpsimtest
SlurmctldHost=${host}(127.0.0.1)
SlurmctldPort=${base}
SlurmdPort=$((base + 1))
AuthType=auth/munge
AuthInfo=socket=${state}/munge/munge.socket
CredType=cred/munge
SlurmUser=root
SlurmdUser=root
StateSaveLocation=${state}/ctld
SlurmdSpoolDir=${state}/spool
SlurmctldPidFile=${state}/slurmctld.pid
SlurmdPidFile=${state}/slurmd.pid
SlurmctldLogFile=${state}/log/slurmctld.log
SlurmdLogFile=${state}/log/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
MpiDefault=none
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
ReturnToService=2
JobCompType=jobcomp/none
AccountingStorageType=accounting_storage/none
JobAcctGatherType=jobacct_gather/none
SlurmctldTimeout=30
SlurmdTimeout=30
InactiveLimit=0
MinJobAge=10
KillWait=5
Waittime=0
NodeName=${host} NodeAddr=127.0.0.1 CPUs=${cpus} RealMemory=1 State=UNKNOWN
PartitionName=debug Nodes=${host} Default=YES MaxTime=INFINITE State=UP
EOF
}

: >"$state/cgroup.conf"
export SLURM_CONF="$state/slurm.conf"

: >"$state/pids"
munged -F --force --key-file="$state/munge/munge.key" --socket="$state/munge/munge.socket" \
  --pid-file="$state/munge/munged.pid" --log-file="$state/log/munged.log" \
  --seed-file="$state/munge/munge.seed" >>"$state/log/munged.out" 2>&1 &
echo "$! munged" >>"$state/pids"
for _ in $(seq 50); do [[ -S "$state/munge/munge.socket" ]] && break; sleep 0.1; done
[[ -S "$state/munge/munge.socket" ]] || { stop; skip "munged did not start (see $state/log/munged.log)"; }

# Starts slurmctld and slurmd on fresh ports and waits (at most 60 s) for the node to be idle.
# Returns 1 when a daemon exits first (a port taken in the meantime, say): the caller retries.
start_daemons() {
  write_conf "$(pick_base)"
  slurmctld -D -i -f "$state/slurm.conf" >>"$state/log/slurmctld.out" 2>&1 &
  local ctld=$!
  slurmd -D -f "$state/slurm.conf" >>"$state/log/slurmd.out" 2>&1 &
  local slurmd_pid=$!
  echo "$ctld slurmctld" >>"$state/pids"
  echo "$slurmd_pid slurmd" >>"$state/pids"
  local deadline=$((SECONDS + 60)) st
  while ((SECONDS < deadline)); do
    if ! kill -0 "$ctld" 2>/dev/null || ! kill -0 "$slurmd_pid" 2>/dev/null; then
      kill "$ctld" "$slurmd_pid" 2>/dev/null
      wait "$ctld" "$slurmd_pid" 2>/dev/null
      grep -v -e " slurmctld$" -e " slurmd$" "$state/pids" >"$state/pids.tmp"; mv "$state/pids.tmp" "$state/pids"
      return 1
    fi
    st=$(timeout 5 sinfo -h -n "$host" -o %T 2>/dev/null | head -1)
    case "$st" in
      idle*|mix*|alloc*) echo "local_cluster: node $host is $st (SLURM_CONF=$SLURM_CONF)" >&2; return 0 ;;
      down*|drain*) timeout 5 scontrol update nodename="$host" state=resume >/dev/null 2>&1 ;;
    esac
    sleep 0.5
  done
  return 2
}

for attempt in 1 2 3; do
  start_daemons
  case $? in
    0) exit 0 ;;
    1) echo "local_cluster: a daemon exited during start-up (attempt $attempt); trying other ports" >&2 ;;
    *) break ;;
  esac
done
echo "local_cluster: the node did not become idle; logs in $state/log" >&2
tail -5 "$state/log/slurmctld.log" "$state/log/slurmd.log" >&2 2>/dev/null
stop
skip "Slurm daemons did not come up"
