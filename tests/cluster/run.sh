#!/usr/bin/env bash
# Cluster test on a real Slurm: a single-node cluster on localhost (Debian's slurmctld, slurmd and
# munge, started here from a temporary directory on free ports, stopped at the end) runs a tiny
# study plan as a job array with the scripts `unroll-lab study slurm` writes. The merged results
# must equal the one-process `unroll-lab study` results number for number (the timing fields
# aside). Then one cell is made to fail (the path of its result blocked): the merge job must be
# cancelled, `status` must name the failed cell, and the one resubmission command it prints must
# complete the study with the same results.
# Usage: tests/cluster/run.sh [path/to/unroll-lab]   (default: $CARGO_TARGET_DIR/debug/unroll-lab)
set -euo pipefail
bin="${1:-${CARGO_TARGET_DIR:-$(cd "$(dirname "$0")/../.." && pwd)/target}/debug/unroll-lab}"
say() { printf '[cluster] %s (%s)\n' "$*" "$(date +%T)"; }
fail() { printf '[cluster] FAILED: %s\n' "$*" >&2; exit 1; }
[ -x "$bin" ] || fail "no unroll-lab binary at $bin (build it first: cargo build)"
for tool in munged slurmctld slurmd sbatch squeue sinfo; do
  command -v "$tool" >/dev/null || [ -x "/usr/sbin/$tool" ] \
    || fail "$tool not found: scripts/setup.sh --cluster installs Debian's slurm and munge"
done
export PATH="$PATH:/usr/sbin"

tmp="$(mktemp -d /tmp/unroll-lab-cluster.XXXXXX)"
chmod 755 "$tmp"
stop() {
  for pid in "$tmp"/slurmd.pid "$tmp"/slurmctld.pid "$tmp"/munge/munged.pid; do
    [ -f "$pid" ] && kill "$(cat "$pid")" 2>/dev/null || true
  done
  sleep 0.5
  if [ "${KEEP_CLUSTER_DIR:-0}" = 1 ]; then say "kept $tmp"; else rm -rf "$tmp"; fi
}
trap stop EXIT

say "starting munge and Slurm in $tmp"
mkdir -p "$tmp/munge" "$tmp/state" "$tmp/spool"
chmod 700 "$tmp/munge"
head -c 1024 /dev/urandom > "$tmp/munge/munge.key"
chmod 400 "$tmp/munge/munge.key"
munged --force --key-file="$tmp/munge/munge.key" --socket="$tmp/munge/socket" \
  --pid-file="$tmp/munge/munged.pid" --log-file="$tmp/munge/munged.log" \
  --seed-file="$tmp/munge/seed" || fail "munged did not start"
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
host="$(hostname -s)"
user="$(id -un)"
cpus="$(nproc)"
cat > "$tmp/slurm.conf" <<EOF
ClusterName=unrolllab
SlurmctldHost=$host
SlurmUser=$user
SlurmdUser=$user
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$tmp/munge/socket
SlurmctldPort=$(free_port)
SlurmdPort=$(free_port)
StateSaveLocation=$tmp/state
SlurmdSpoolDir=$tmp/spool
SlurmctldPidFile=$tmp/slurmctld.pid
SlurmdPidFile=$tmp/slurmd.pid
SlurmctldLogFile=$tmp/slurmctld.log
SlurmdLogFile=$tmp/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
MpiDefault=none
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
ReturnToService=2
NodeName=$host NodeAddr=127.0.0.1 CPUs=$cpus State=UNKNOWN
PartitionName=test Nodes=ALL Default=YES MaxTime=INFINITE State=UP
EOF
export SLURM_CONF="$tmp/slurm.conf"
slurmctld -f "$SLURM_CONF" || fail "slurmctld did not start (see $tmp/slurmctld.log)"
slurmd -f "$SLURM_CONF" || fail "slurmd did not start (see $tmp/slurmd.log)"
for _ in $(seq 60); do
  sinfo -h -o %t 2>/dev/null | grep -q idle && break
  sleep 0.5
done
sinfo -h -o %t | grep -q idle || { cat "$tmp"/slurm*.log >&2; fail "the node did not come up"; }
say "cluster up: $(sinfo -h -o '%P %D node(s) %t')"

# Waits until the queue is empty (every job finished, failed or was cancelled).
wait_queue() {
  for _ in $(seq 1200); do
    [ -z "$(squeue -h -o %i)" ] && return 0
    sleep 0.5
  done
  squeue >&2
  fail "jobs still queued after 10 minutes"
}

# The same results, timing aside (wall time and iterations/s are measured where each part ran).
same_results() {
  python3 - "$1" "$2" <<'PY'
import json, sys
def load(path):
    with open(path) as f:
        r = json.load(f)
    r["wall_secs"] = 0
    for v in r["variants"]:
        for t in v["training"]:
            t["iterations_per_sec"] = 0
    return r
a, b = load(sys.argv[1]), load(sys.argv[2])
if a != b:
    for key in a:
        if a[key] != b.get(key):
            print(f"results differ in '{key}'", file=sys.stderr)
    sys.exit(1)
print(f"identical: {len(a['variants'])} variants, every metric, loss curve and sample")
PY
}

study=(--preset quick --seeds 2 --iterations 12 --rollout 40 --modes predict,correct
       --modalities one,nog --channels 4 --depth 1)
say "one-process study"
"$bin" study "${study[@]}" --quiet --out "$tmp/single.json" > "$tmp/single.txt"
"$bin" study plan "${study[@]}" --out "$tmp/plan.json"
cells=$(python3 -c 'import json,sys; print(len(json.load(open(sys.argv[1]))["cells"]))' "$tmp/plan.json")

say "the plan as a job array ($cells cells) and a merge job"
"$bin" study slurm --plan "$tmp/plan.json" --out "$tmp/run" --max-parallel 2 --time 00:10:00 > "$tmp/slurm.txt"
grep -q -- "--array=0-$((cells - 1))%2" "$tmp/run/cells.sbatch" || fail "the array is not 0-$((cells - 1))%2"
submit="$(grep '^jid=' "$tmp/slurm.txt")" || fail "study slurm printed no submit command"
(cd "$tmp" && eval "$submit") > /dev/null
wait_queue
[ -f "$tmp/run/results.json" ] || { cat "$tmp"/run/logs/* >&2; fail "the merge job wrote no results"; }
same_results "$tmp/single.json" "$tmp/run/results.json" || fail "merged results differ from the one-process study"
"$bin" study status --plan "$tmp/plan.json" "$tmp/run" | grep "$cells of $cells cells done" > /dev/null \
  || fail "status does not report every cell done"

say "a failing cell: reported, the merge cancelled, the resubmission completes the study"
"$bin" study slurm --plan "$tmp/plan.json" --out "$tmp/retry" --max-parallel 2 --time 00:10:00 > "$tmp/slurm.txt"
mkdir "$tmp/retry/.cell-00001.json.partial"   # cell 1 cannot write its result
(cd "$tmp" && eval "$(grep '^jid=' "$tmp/slurm.txt")") > /dev/null
wait_queue
[ ! -f "$tmp/retry/results.json" ] || fail "the merge ran although a cell failed"
"$bin" study status --plan "$tmp/plan.json" "$tmp/retry" > "$tmp/status.txt"
cat "$tmp/status.txt"
grep -q "^cell 1 (.*): failed: " "$tmp/status.txt" || fail "status does not report cell 1 as failed"
grep -q -- "--array=1%2" "$tmp/status.txt" || fail "status does not offer to resubmit cell 1"
rmdir "$tmp/retry/.cell-00001.json.partial"
(cd "$tmp" && eval "$(grep '^jid=' "$tmp/status.txt")") > /dev/null
wait_queue
"$bin" study status --plan "$tmp/plan.json" "$tmp/retry" | grep "$cells of $cells cells done" > /dev/null \
  || fail "the resubmitted cell did not complete"
same_results "$tmp/single.json" "$tmp/retry/results.json" || fail "resumed results differ"
say "passed"
