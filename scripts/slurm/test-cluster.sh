#!/usr/bin/env bash
# make test-cluster: the Slurm path of README "Sweeps on a cluster", run on
# a real one-node Slurm cluster brought up on this machine.
#
#  1. Installs Debian's slurmctld, slurmd, slurm-client, munge and jq when
#     they are missing (root only; no service is started by the install).
#  2. Starts munged, slurmctld and slurmd under a temporary directory, with a
#     generated slurm.conf (one node of two CPUs, one partition, free ports,
#     its own munge socket and key), so nothing clashes with a system Slurm.
#  3. Submits the -quick sweep of configs/chapter3/alice-grid-full.toml with
#     scripts/slurm/submit.sh (a job array of 3 shards, then a dependent
#     merge job), waits for both, and compares the merged results with a
#     single-machine run: every cell, table and figure identical, summary
#     and manifest identical apart from timings.
#  4. Failure handling, on configs/chapter3/model-order.toml (75 cells): one
#     array task is cancelled mid-run (scancel) and another requeued mid-run
#     (scontrol requeue, as after a lost node); the requeued task finishes
#     only its missing cells; the merge job is cancelled with its dependency,
#     and a merge started anyway fails naming the missing cells and the
#     shard, writing nothing; the cancelled shard is resubmitted with
#     submit.sh -tasks, runs only its missing cells (the stored ones are
#     untouched), and the new merge equals a single-machine run.
#
# Every process it started (daemons, job steps) is stopped and the directory
# removed on exit, also when a step fails (TEST_CLUSTER_KEEP=1 keeps the
# directory for inspection). Exits 0, or 1 with a one-line reason.
set -euo pipefail
umask 022
cd "$(dirname "$0")/../.."
root=$PWD
prog=test-cluster
vbw=$root/bin/vbw
submit=$root/scripts/slurm/submit.sh
started=$(date +%s)

fail() {
  echo "$prog: FAIL: $*" >&2
  exit 1
}
say() { echo "$prog: $* ($(($(date +%s) - started))s)"; }

[ "$(id -u)" = 0 ] || fail "needs root (slurmd runs the jobs as their owner; the packages may need installing)"
[ -x "$vbw" ] || fail "$vbw missing (make build)"

T=$(mktemp -d /tmp/vbw-cluster.XXXXXX)
chmod 755 "$T" # munged wants its socket's directories searchable by all
conf=$T/slurm.conf
policy=/usr/sbin/policy-rc.d
made_policy=
single=

# Processes of this cluster carry SLURM_CONF=$conf in their environment
# (the daemons are started with it, and sbatch hands it on to every job),
# which this script itself never does: that is how cleanup finds them.
ours() {
  local p
  for p in /proc/[0-9]*; do
    if grep -qsxzF "SLURM_CONF=$conf" "$p/environ"; then
      echo "${p#/proc/}"
    fi
  done
}

cleanup() {
  local rc=$? f pid left i
  trap - EXIT INT TERM
  set +e
  if [ -n "$made_policy" ]; then rm -f "$policy"; fi
  if [ -n "$single" ]; then
    kill "$single" 2>/dev/null
    wait "$single" 2>/dev/null
  fi
  if [ -S "$T/munge/munge.sock" ] && [ -f "$T/slurmctld.pid" ]; then
    SLURM_CONF=$conf timeout 10 scancel --quiet --user=root >/dev/null 2>&1
  fi
  for f in slurmd slurmctld munge/munged; do
    [ -f "$T/$f.pid" ] || continue
    pid=$(cat "$T/$f.pid")
    if [ -z "$pid" ] || ! kill -TERM "$pid" 2>/dev/null; then continue; fi
    for ((i = 0; i < 50; i++)); do
      kill -0 "$pid" 2>/dev/null || break
      sleep 0.1
    done
    kill -KILL "$pid" 2>/dev/null
  done
  # Job steps and jobs outlive slurmd; stop whatever is left of ours.
  left=$(ours)
  if [ -n "$left" ]; then
    # shellcheck disable=SC2086 # one pid per word
    kill -TERM $left 2>/dev/null
    sleep 1
    left=$(ours)
    # shellcheck disable=SC2086
    [ -z "$left" ] || kill -KILL $left 2>/dev/null
    sleep 0.2
  fi
  if [ -n "$(ours)" ]; then
    echo "$prog: FAIL: processes of the test cluster survive: $(ours | tr '\n' ' ')" >&2
    rc=1
  fi
  if [ -n "${TEST_CLUSTER_KEEP:-}" ]; then
    echo "$prog: kept $T" >&2
  else
    rm -rf "$T"
  fi
  exit "$rc"
}
trap cleanup EXIT
trap 'fail "interrupted"' INT TERM

# 1. Packages.
need=()
for pair in slurmctld:slurmctld slurmd:slurmd sbatch:slurm-client munged:munge jq:jq; do
  command -v "${pair%%:*}" >/dev/null 2>&1 || need+=("${pair#*:}")
done
if [ ${#need[@]} -gt 0 ]; then
  command -v apt-get >/dev/null 2>&1 || fail "missing ${need[*]}, and no apt-get to install them"
  # A service started by the install (munged with the system key) would
  # outlive the test: deny starts while installing.
  if [ ! -e "$policy" ]; then
    printf '#!/bin/sh\nexit 101\n' >"$policy" && chmod 755 "$policy" && made_policy=1
  fi
  say "installing ${need[*]}"
  # VBW_APT_UPDATED: .ci/run has already run apt-get update (once per CI run).
  { { [ -n "${VBW_APT_UPDATED:-}" ] || apt-get update -qq; } && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${need[@]}"; } \
    >"$T/apt.log" 2>&1 || fail "apt-get install ${need[*]} failed: $(grep -m1 -E '^E:' "$T/apt.log" || tail -n1 "$T/apt.log")"
  if [ -n "$made_policy" ]; then rm -f "$policy" && made_policy=; fi
fi

# 2. The cluster.
free_port() {
  local p
  while :; do
    p=$((20000 + RANDOM % 40000))
    if ! (: <"/dev/tcp/127.0.0.1/$p") 2>/dev/null; then
      echo "$p"
      return
    fi
  done
}
node=$(uname -n)
node=${node%%.*}
ctld_port=$(free_port)
slurmd_port=$(free_port)
[ "$slurmd_port" != "$ctld_port" ] || slurmd_port=$((ctld_port + 1))
mkdir -p "$T/munge" "$T/state" "$T/spool" "$T/log"
head -c 1024 /dev/urandom >"$T/munge/munge.key"
chmod 400 "$T/munge/munge.key"
cat >"$conf" <<EOF
# A one-node test cluster of vbw's make test-cluster (generated).
ClusterName=vbwtest
SlurmctldHost=$node(127.0.0.1)
SlurmctldPort=$ctld_port
SlurmdPort=$slurmd_port
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
# cred_expire is also how long a requeued job waits before it may start
# again (120s by default).
AuthInfo=socket=$T/munge/munge.sock,cred_expire=10
StateSaveLocation=$T/state
SlurmdSpoolDir=$T/spool
SlurmctldPidFile=$T/slurmctld.pid
SlurmdPidFile=$T/slurmd.pid
SlurmctldLogFile=$T/log/slurmctld.log
SlurmdLogFile=$T/log/slurmd.log
# No cgroups (a container may have none): track job processes by parent pid.
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
MpiDefault=none
SwitchType=switch/none
SchedulerType=sched/backfill
SchedulerParameters=sched_interval=2,bf_interval=2
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
SlurmdParameters=config_overrides
ReturnToService=2
KillWait=10
MinJobAge=3600
MailProg=/bin/true
NodeName=$node NodeAddr=127.0.0.1 CPUs=2 State=UNKNOWN
PartitionName=vbw Nodes=$node Default=YES MaxTime=INFINITE State=UP
EOF
export -n SLURM_CONF 2>/dev/null || true
sl() { SLURM_CONF=$conf "$@"; }

sl munged --socket="$T/munge/munge.sock" --key-file="$T/munge/munge.key" --pid-file="$T/munge/munged.pid" \
  --log-file="$T/log/munged.log" --seed-file="$T/munge/munged.seed" >"$T/log/munged.out" 2>&1 ||
  fail "munged did not start: $(tail -n1 "$T/log/munged.out")"
sl slurmctld -f "$conf" >"$T/log/slurmctld.out" 2>&1 || fail "slurmctld did not start: $(tail -n1 "$T/log/slurmctld.out")"
sl slurmd -f "$conf" -N "$node" >"$T/log/slurmd.out" 2>&1 || fail "slurmd did not start: $(tail -n1 "$T/log/slurmd.out")"
for ((i = 0; ; i++)); do
  state=$(sl sinfo -h -N -o %T 2>/dev/null || true)
  [ "$state" = idle ] && break
  [ "$i" -lt 100 ] || fail "node $node not idle after 30s (sinfo: '${state}'; $(grep -m1 -i error "$T/log/slurmd.log" "$T/log/slurmctld.log" || true))"
  sleep 0.3
done
say "one-node cluster up ($node, 2 CPUs, ports $ctld_port/$slurmd_port)"

# Job states: one "id state exitcode" line per job (per task of an array).
states() {
  sl scontrol -o show job "$1" 2>/dev/null | awk '{
    delete f
    for (i = 1; i <= NF; i++) { k = $i; sub(/=.*/, "", k); v = $i; sub(/^[^=]*=/, "", v); f[k] = v }
    print f["JobId"], f["JobState"], f["ExitCode"]
  }' || true
}
task_state() { # ARRAYJOB TASK
  sl scontrol -o show job "$1_$2" 2>/dev/null | grep -o 'JobState=[A-Z_]*' | cut -d= -f2 || true
}
terminal() { [[ $1 =~ ^(COMPLETED|FAILED|CANCELLED|TIMEOUT|NODE_FAIL|OUT_OF_MEMORY|BOOT_FAIL|DEADLINE|PREEMPTED)$ ]]; }
# wait_done SECONDS JOB...: until every job (every task) has ended.
wait_done() {
  local limit=$1 j s deadline=$(($(date +%s) + $1))
  shift
  while :; do
    local busy=''
    for j in "$@"; do
      s=$(states "$j")
      [ -n "$s" ] || fail "job $j is unknown to slurmctld"
      while read -r _ st _; do terminal "$st" || busy="job $j $st"; done <<<"$s"
    done
    [ -n "$busy" ] || return 0
    [ "$(date +%s)" -lt "$deadline" ] || fail "$busy after ${limit}s"
    sleep 0.3
  done
}
# expect JOB STATE: every task of JOB ended in STATE.
expect() {
  local bad
  bad=$(states "$1" | awk -v want="$2" '$2 != want {print "job " $1 " " $2 " (exit " $3 ")"; exit}')
  [ -z "$bad" ] || fail "$bad, want $2${3:+; $3}"
}
jobid() { sed -n "s/^$1: job \([0-9]*\).*/\1/p" "$2"; }

# untimed FILE.csv: the table without its timing columns (a header that
# contains "seconds"); the tables are plain CSV, without quoted commas.
untimed() {
  awk -F, -v OFS=, 'NR == 1 { for (i = 1; i <= NF; i++) drop[i] = tolower($i) ~ /seconds/ }
    { line = ""; n = 0
      for (i = 1; i <= NF; i++) if (!drop[i]) line = line (n++ ? OFS : "") $i
      print line }' "$1"
}

# cells DIR: the cells of the results folder DIR, kept in its state
# directory beside it (DIR itself is a link to the current generation).
cells() { echo "$(dirname "$1")/.$(basename "$1").vbw/cells"; }

# same_results A B: two results folders of one config hold the same results:
# the same files, byte for byte, but for the timings: the columns of a table
# and the keys of summary.json, manifest.json and the cells whose name
# contains "seconds" (any case), and the manifest's start time, machine
# (its load averages and workers differ between the runs) and cell counts.
same_results() {
  local a=$1 b=$2 f drop
  drop='walk(if type == "object" then with_entries(select(.key | test("seconds"; "i") | not)) else . end)'
  if [ ! -f "$a/summary.json" ] || [ ! -f "$b/summary.json" ]; then fail "no summary.json in $a or $b"; fi
  diff <(cd "$a" && find . -type f ! -name summary.json ! -name manifest.json | sort) \
    <(cd "$b" && find . -type f ! -name summary.json ! -name manifest.json | sort) >/dev/null ||
    fail "$b and $a hold different files"
  while read -r f; do
    case $f in
      *.csv) cmp -s <(untimed "$a/$f") <(untimed "$b/$f") ;;
      *) cmp -s "$a/$f" "$b/$f" ;;
    esac || fail "$b/${f#./} differs from the single-machine run"
  done < <(cd "$a" && find . -type f ! -name summary.json ! -name manifest.json)
  [ "$(jq -S "$drop" "$a/summary.json")" = "$(jq -S "$drop" "$b/summary.json")" ] ||
    fail "$b/summary.json differs from the single-machine run beyond timings"
  jq -e '.metrics | length > 0' "$b/summary.json" >/dev/null || fail "$b/summary.json has no metrics"
  # (The outputs' sizes and checksums change with the timings they hold; the
  # files themselves are compared above.)
  # The cell counts say how the results were computed (in one run, or in
  # shards and then merged, which resumes every cell): only their total
  # must agree.
  [ "$(jq -S "del(.start, .machine, .cells) | .outputs |= map(.name) | $drop" "$a/manifest.json")" = \
    "$(jq -S "del(.start, .machine, .cells) | .outputs |= map(.name) | $drop" "$b/manifest.json")" ] ||
    fail "$b/manifest.json differs from the single-machine run beyond timings"
  [ "$(jq '.cells.computed + .cells.resumed' "$a/manifest.json")" = "$(jq '.cells.computed + .cells.resumed' "$b/manifest.json")" ] ||
    fail "$b/manifest.json counts other cells than the single-machine run's"
  diff <(cd "$(cells "$a")" && ls) <(cd "$(cells "$b")" && ls) >/dev/null || fail "$(cells "$b") and $(cells "$a") hold different cells"
  for f in "$(cells "$a")"/*.json; do
    [ "$(jq -cS "$drop" "$f")" = "$(jq -cS "$drop" "$(cells "$b")/${f##*/}")" ] ||
      fail "cell ${f##*/} differs between $b and the single-machine run"
  done
}

# 3. A sweep and its merge.
cfg=configs/chapter3/alice-grid-full.toml
"$vbw" run -quick -out "$T/single-quick" "$cfg" >"$T/log/single.out" 2>&1 ||
  fail "single-machine run of $cfg failed: $(tail -n1 "$T/log/single.out")"
sl "$submit" -shards 3 -quick -out "$T/sweep" "$cfg" >"$T/submit1.out" 2>&1 ||
  fail "submit.sh failed: $(tail -n1 "$T/submit1.out")"
array=$(jobid shards "$T/submit1.out")
merge=$(jobid merge "$T/submit1.out")
if [ -z "$array" ] || [ -z "$merge" ]; then fail "submit.sh printed no job ids: $(head -n1 "$T/submit1.out")"; fi
wait_done 120 "$array" "$merge"
[ "$(states "$array" | wc -l)" = 3 ] || fail "job $array is not an array of 3 tasks: $(states "$array" | tr '\n' ' ')"
expect "$array" COMPLETED "$(tail -qn1 "$T"/sweep/slurm/*.log | head -n1)"
expect "$merge" COMPLETED "$(tail -qn1 "$T"/sweep/slurm/*merge*.log 2>/dev/null)"
same_results "$T/single-quick/chapter3/alice-grid" "$T/sweep/chapter3/alice-grid"
say "sbatch --array of 3 shards + dependent merge of $cfg (-quick): $(find "$(cells "$T/sweep/chapter3/alice-grid")" -name '*.json' | wc -l) cells, results equal the single-machine run"

# 4. Failures: cancel one task mid-run and requeue another, resubmit, merge.
cfg=configs/chapter3/model-order.toml
res=$T/fail/chapter3/model-order
"$vbw" run -out "$T/single" "$cfg" >"$T/log/single2.out" 2>&1 &
single=$!
# One task at a time (%1), each on both CPUs, so that the cells that appear
# while a task runs are that task's.
sl "$submit" -shards 3 -cpus 2 -tasks '1-3%1' -out "$T/fail" "$cfg" >"$T/submit2.out" 2>&1 ||
  fail "submit.sh failed: $(tail -n1 "$T/submit2.out")"
array=$(jobid shards "$T/submit2.out")
merge=$(jobid merge "$T/submit2.out")
ncells() { find "$(cells "$res")" -name '*.json' 2>/dev/null | wc -l; }
# wait_cells TASK N: until task TASK runs and N more cells than $base are
# stored.
wait_cells() {
  local deadline=$(($(date +%s) + 90)) st
  while :; do
    st=$(task_state "$array" "$1")
    if [ "$st" = RUNNING ] && [ "$(ncells)" -ge $((base + $2)) ]; then return 0; fi
    terminal "$st" && fail "task $1 of job $array ended ($st) before it could be stopped mid-run"
    [ "$(date +%s)" -lt "$deadline" ] || fail "task $1 of job $array did not store $2 cells within 90s (state $st)"
    sleep 0.1
  done
}
base=0
wait_cells 1 2
sl scancel "${array}_1"
# Task 1 is CANCELLED (not COMPLETING) once its processes have ended; the
# cells stored from then on are task 2's.
for ((i = 0; ; i++)); do
  [ "$(task_state "$array" 1)" = CANCELLED ] && break
  [ "$i" -lt 300 ] || fail "task 1 of job $array still $(task_state "$array" 1) 60s after scancel"
  sleep 0.2
done
base=$(ncells)
wait_cells 2 2
sl scontrol requeue "${array}_2" || fail "scontrol requeue ${array}_2 failed"
wait_done 180 "$array" "$merge"
wait "$single" || fail "single-machine run of $cfg failed: $(tail -n1 "$T/log/single2.out")"
single=
for t in 2 3; do
  [ "$(task_state "$array" $t)" = COMPLETED ] || fail "task $t of job $array ended $(task_state "$array" $t), want COMPLETED"
done
[ "$(task_state "$array" 1)" = CANCELLED ] || fail "the cancelled task ended $(task_state "$array" 1)"
[ "$(states "$merge" | awk '{print $2}')" = CANCELLED ] ||
  fail "merge job $merge ran without shard 1 ($(states "$merge"))"
log2=$(ls "$T"/fail/slurm/*_2.log)
[ "$(grep -c 'shard 2/3 has' "$log2")" = 2 ] || fail "the requeued task 2 did not run twice ($log2: $(grep 'shard 2/3' "$log2" | tr '\n' ' '))"
again=$(grep 'shard 2/3 has' "$log2" | tail -n1)
[[ $again =~ \ [1-9][0-9]*\ stored\ by\ an\ earlier\ run,\ [1-9][0-9]*\ to\ run$ ]] ||
  fail "the requeued task 2 did not resume mid-run: $again"
say "scancel of task 1 and scontrol requeue of task 2 mid-run: task 2 reran and resumed ($again)"

# A merge before shard 1 has finished fails, names the cells, writes nothing.
total=$(find "$(cells "$T/single/chapter3/model-order")" -name '*.json' | wc -l)
have=$(ncells)
[ "$have" -lt "$total" ] || fail "shard 1 finished before it was cancelled"
bin=$(echo "$T"/fail/slurm/bin/vbw-*)
[ -x "$bin" ] || fail "submit.sh kept no copy of vbw in $T/fail/slurm/bin"
sl sbatch --wait --parsable --output="$T/early-merge.log" "$root/scripts/slurm/merge.sh" "$bin" -shards 3 -out "$T/fail" "$cfg" >/dev/null 2>&1 &&
  fail "a merge with shard 1 unfinished succeeded"
msg=$(tail -n1 "$T/early-merge.log")
[[ $msg == *"merge: $((total - have)) of $total cells are missing ("*"); nothing was written: run shard 1 of 3 (-shard 1/3) into this output directory, then merge again" ]] ||
  fail "unexpected early merge error: $msg"
[ ! -e "$res/summary.json" ] || fail "the failed merge wrote $res/summary.json"
say "merge before shard 1 finished: refused, nothing written ($msg)"

# Resubmit shard 1: it runs the missing cells only, and the merge completes.
before=$(cd "$(cells "$res")" && stat -c '%n %i %.9Y %s' -- *.json)
sl "$submit" -shards 3 -cpus 2 -tasks 1 -out "$T/fail" "$cfg" >"$T/submit3.out" 2>&1 ||
  fail "resubmission failed: $(tail -n1 "$T/submit3.out")"
array=$(jobid shards "$T/submit3.out")
merge=$(jobid merge "$T/submit3.out")
wait_done 120 "$array" "$merge"
expect "$array" COMPLETED "$(tail -n1 "$T"/fail/slurm/*-"$array"_1.log)"
expect "$merge" COMPLETED "$(tail -qn1 "$T"/fail/slurm/*merge-"$merge".log)"
after=$(cd "$(cells "$res")" && stat -c '%n %i %.9Y %s' -- *.json)
changed=$(grep -vxF -f <(echo "$after") <(echo "$before") | head -n1 || true)
[ -z "$changed" ] || fail "the resubmitted shard rewrote a stored cell (${changed%% *})"
[ "$(ncells)" = "$total" ] || fail "$(ncells) of $total cells after the resubmission"
line=$(grep 'shard 1/3 has' "$T"/fail/slurm/*-"$array"_1.log)
[[ $line == *" $((total - have)) to run" ]] || fail "the resubmitted shard ran more than the $((total - have)) missing cells: $line"
same_results "$T/single/chapter3/model-order" "$res"
say "resubmitted shard 1 ($line); merged results equal the single-machine run"
say "ok"
