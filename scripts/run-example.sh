#!/usr/bin/env bash
# Sets up, builds, and runs the simulator on the bundled example cluster.
# Extra arguments go to schedsim (e.g. --output json, --explain NS/NAME).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/build.sh build >/dev/null
exec build/tools/schedsim "$@"
