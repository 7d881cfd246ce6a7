#!/usr/bin/env bash
# Configures (once) and builds a meson build directory.
# Usage: scripts/build.sh [BUILDDIR] [extra meson setup args...]
# With CONFIGURE_ONLY=1 it stops after setup (meson test then builds only
# what the selected tests need).
set -euo pipefail
cd "$(dirname "$0")/.."
builddir=${1:-build}
shift || true
bash scripts/install-deps.sh
if [ ! -f "$builddir/build.ninja" ]; then
  meson setup "$builddir" --werror "$@" >/dev/null
fi
[ "${CONFIGURE_ONLY:-0}" = 1 ] || ninja -C "$builddir"
