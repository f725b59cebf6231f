#!/usr/bin/env bash
# One shard of a vbw sweep, run as a task of a Slurm job array: task i of
# the array computes the cells of `-shard i/N` into the shared output
# directory (submit.sh submits it; by hand:
#   sbatch --array=1-8 --requeue scripts/slurm/shard.sh bin/vbw 8 -out /shared/results CONFIG.toml).
# Cells already stored there (by an earlier, killed attempt) are not run
# again; the first line of the log says how many were.
#
# usage: shard.sh VBW N [vbw run flags...] CONFIG.toml
#SBATCH --requeue
set -euo pipefail
[ $# -ge 3 ] || {
  echo "shard.sh: usage: shard.sh VBW N [vbw run flags...] CONFIG.toml" >&2
  exit 2
}
vbw=$1 n=$2
shift 2
if [ -z "${SLURM_ARRAY_TASK_ID:-}" ]; then
  echo "shard.sh: not a task of a job array (submit it with sbatch --array=1-$n)" >&2
  exit 2
fi
# One worker per allocated CPU (the node may have more).
exec "$vbw" run -workers "${SLURM_CPUS_PER_TASK:-1}" -shard "$SLURM_ARRAY_TASK_ID/$n" "$@"
