#!/usr/bin/env bash
# Configures (once) and builds a meson build directory.
# Usage: scripts/build.sh [BUILDDIR] [extra meson setup args...]
set -euo pipefail
cd "$(dirname "$0")/.."
builddir=${1:-build}
shift || true
bash scripts/install-deps.sh
if [ ! -f "$builddir/build.ninja" ]; then
  meson setup "$builddir" --werror "$@" >/dev/null
fi
ninja -C "$builddir"
