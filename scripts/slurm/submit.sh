#!/usr/bin/env bash
# Submit the sweep of one vbw config to Slurm: a job array with one task per
# shard (each task runs `vbw run -shard i/N` into one shared output
# directory), and a merge job (`vbw merge`) that starts only once every task
# of the array has succeeded. Run it from the checkout (or wherever the
# config's relative paths hold): the jobs start in the current directory.
#
# usage: scripts/slurm/submit.sh -shards N [-quick] [-out DIR] [-data DIR]
#            [-cpus C] [-tasks SPEC] [-vbw PATH] CONFIG.toml [-- SBATCH_OPTION...]
#
#   -shards N    split the sweep's cells into N shards (array tasks 1..N)
#   -quick       use the config's [quick] settings (as vbw run -quick)
#   -out DIR     shared output directory, visible from every node
#                (default: output, or output/quick with -quick, as vbw)
#   -data DIR    data directory (as vbw run -data)
#   -cpus C      CPUs per shard (sbatch --cpus-per-task; vbw -workers); default 1
#   -tasks SPEC  the shards to submit, as a Slurm array spec (default 1-N):
#                `-tasks 3,7` resubmits shards 3 and 7 only; `-tasks 1-N%4`
#                runs at most 4 at a time
#   -vbw PATH    the vbw binary (default: bin/vbw of this checkout)
#   -- ...       further sbatch options for both jobs (--partition, --account,
#                --time, --mem, ...)
#
# A copy of the binary is kept in OUT/slurm/bin/ (named by its SHA-256), so
# that rebuilding bin/vbw while jobs wait does not change what they run:
# stored cells are keyed by the build, and every shard and the merge must use
# the same one. Logs go to OUT/slurm/ (a requeued task appends to its log).
# A task that dies (scancel, a lost node, a time limit) leaves its finished
# cells stored; Slurm requeues it after a node failure (--requeue), or
# resubmit it with -tasks: it runs only the cells that are missing. If a task
# fails, the merge job is cancelled (its dependency can no longer be met);
# the resubmission brings a new one.
set -euo pipefail

prog=submit.sh
die() {
  echo "$prog: $*" >&2
  exit 2
}

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
shards='' quick='' out='' data='' cpus=1 tasks='' vbw="$here/../../bin/vbw" config=''
extra=()
while [ $# -gt 0 ]; do
  case $1 in
    -shards | -out | -data | -cpus | -tasks | -vbw)
      [ $# -ge 2 ] || die "$1 needs a value"
      case $1 in
        -shards) shards=$2 ;;
        -out) out=$2 ;;
        -data) data=$2 ;;
        -cpus) cpus=$2 ;;
        -tasks) tasks=$2 ;;
        -vbw) vbw=$2 ;;
      esac
      shift 2
      ;;
    -quick) quick=-quick && shift ;;
    -h | -help | --help) sed -n '2,/^set -euo/p' "$0" | sed '$d' | sed 's/^# \{0,1\}//' && exit 0 ;;
    --)
      shift
      extra=("$@")
      break
      ;;
    -*) die "unknown option $1 (see $0 -help)" ;;
    *)
      [ -z "$config" ] || die "one config per submission (got $config and $1)"
      config=$1
      shift
      ;;
  esac
done

[ -n "$config" ] || die "no config given (usage: $prog -shards N [-quick] [-out DIR] CONFIG.toml)"
[ -f "$config" ] || die "config $config: no such file"
[[ $shards =~ ^[1-9][0-9]*$ ]] || die "-shards must be a whole number ≥ 1 (got '${shards}')"
[[ $cpus =~ ^[1-9][0-9]*$ ]] || die "-cpus must be a whole number ≥ 1 (got '$cpus')"
tasks=${tasks:-1-$shards}
[ -x "$vbw" ] || die "$vbw is not an executable vbw (build it with make build, or give -vbw PATH)"
command -v sbatch >/dev/null || die "sbatch not found: run this on a Slurm login node"
# Every task index must name a shard 1..N (a step :S or a throttle %M may
# follow).
for t in $(echo "${tasks%\%*}" | sed 's/:[0-9]*//g' | tr ',-' '  '); do
  if ! [[ $t =~ ^[0-9]+$ ]] || [ "$t" -lt 1 ] || [ "$t" -gt "$shards" ]; then
    die "-tasks $tasks: shard $t is not one of 1-$shards"
  fi
done

if [ -z "$out" ]; then
  out=output
  [ -z "$quick" ] || out=output/quick
fi
mkdir -p "$out/slurm/bin"
logs=$(cd "$out/slurm" && pwd)

# Keep the binary that the jobs run.
sum=$(sha256sum "$vbw" | cut -c1-12)
bin="$logs/bin/vbw-$sum"
if [ ! -x "$bin" ]; then
  cp "$vbw" "$bin.tmp.$$"
  chmod 755 "$bin.tmp.$$"
  mv -f "$bin.tmp.$$" "$bin"
fi

args=(-out "$out")
[ -z "$quick" ] || args+=("$quick")
[ -z "$data" ] || args+=(-data "$data")
name=vbw-$(basename "$config" .toml)

array=$(sbatch --parsable --chdir="$PWD" --job-name="$name" --array="$tasks" --cpus-per-task="$cpus" \
  --requeue --open-mode=append --output="$logs/%x-%A_%a.log" ${extra[@]+"${extra[@]}"} \
  "$here/shard.sh" "$bin" "$shards" "${args[@]}" "$config") || die "sbatch of the shards failed"
array=${array%%;*}
merge=$(sbatch --parsable --chdir="$PWD" --job-name="$name-merge" --dependency="afterok:$array" \
  --kill-on-invalid-dep=yes --output="$logs/%x-%j.log" ${extra[@]+"${extra[@]}"} \
  "$here/merge.sh" "$bin" -shards "$shards" "${args[@]}" "$config") ||
  die "sbatch of the merge failed (the shards are job $array: scancel $array, or merge by hand once they finish)"
merge=${merge%%;*}
echo "shards: job $array (tasks $tasks of $shards), logs in $logs"
echo "merge: job $merge (starts once every task of job $array has succeeded)"
