#!/usr/bin/env bash
# The merge job of a sharded vbw sweep: assembles the results from the cells
# that the shards stored in the shared output directory (vbw merge), and
# draws the figures. submit.sh submits it with --dependency=afterok on the
# shards' array. A merge that finds cells missing writes nothing and fails,
# naming the cells and the shards to run again.
#
# usage: merge.sh VBW [vbw merge flags...] CONFIG.toml
set -euo pipefail
[ $# -ge 2 ] || {
  echo "merge.sh: usage: merge.sh VBW [vbw merge flags...] CONFIG.toml" >&2
  exit 2
}
vbw=$1
shift
exec "$vbw" merge "$@"
