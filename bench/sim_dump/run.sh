#!/usr/bin/env bash
# schedsim on a 1 GB cluster dump: 5,000 nodes, 150,000 pods (149,000 bound,
# 1,000 pending) with kubectl's last-applied-configuration annotations,
# managedFields and full statuses, as `kubectl get nodes,pods -A -o json`
# writes them. Prints the dump's size, schedsim's wall time and peak RSS
# (GNU time), for bench/RESULTS.md.
#   bench/sim_dump/run.sh [BUILDDIR] [gen_dump.py args...]
set -euo pipefail
cd "$(dirname "$0")/../.."
builddir=${1:-build}
shift || true
args=("$@")
[ ${#args[@]} -gt 0 ] || args=(--nodes 5000 --pods 150000 --pending 1000 --annotation-bytes 5500)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
python3 bench/sim_dump/gen_dump.py "${args[@]}" "$tmp/dump.json"
echo "dump: $(stat -c %s "$tmp/dump.json") bytes (${args[*]})"
/usr/bin/time -f "schedsim: %e s wall, %M KiB peak RSS, exit %x" \
  "${SCHEDSIM:-$builddir/tools/schedsim}" --seed 1 --output json "$tmp/dump.json" > "$tmp/out.json"
python3 -c 'import json,sys; s=json.load(open(sys.argv[1]))["summary"]; print("summary:", s)' \
  "$tmp/out.json"
