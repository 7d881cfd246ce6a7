#!/usr/bin/env bash
# The Rust crates (rust/: libsched-sys, libsched) against BUILDDIR's
# uninstalled library: cargo test (unit, integration and doc tests), the
# example on examples/cluster, a static link (feature `static`, no NEEDED
# libsched.so.0), cargo clippy -D warnings and cargo package. Crates come from crates.io
# as rust/Cargo.lock pins them (--locked).
# Usage: scripts/test-rust.sh [BUILDDIR]   (default build, already built)
set -euo pipefail
cd "$(dirname "$0")/.."
builddir=$(realpath "${1:-build}")
command -v cargo >/dev/null || { echo "test-rust: cargo not found (install Rust with rustup)" >&2; exit 1; }
# clippy is a rustup component; a fresh toolchain may lack it.
cargo clippy --version >/dev/null 2>&1 || rustup component add clippy
export PKG_CONFIG_PATH=$builddir/meson-uninstalled${PKG_CONFIG_PATH:+:$PKG_CONFIG_PATH}
export LD_LIBRARY_PATH=$builddir${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
export CARGO_TERM_COLOR=never
cd rust
cargo test --locked --workspace
cargo run --locked --quiet --example cluster -- ../examples/cluster
cargo build --locked --quiet --example cluster --features static
if readelf -d target/debug/examples/cluster | grep -q 'NEEDED.*libsched'; then
  echo "test-rust: the static build still needs libsched.so" >&2
  exit 1
fi
env -u LD_LIBRARY_PATH target/debug/examples/cluster ../examples/cluster >/dev/null
cargo clippy --locked --workspace --all-targets -- -D warnings
# The crates as crates.io would receive them, each built from its .crate.
cargo package --locked --workspace --allow-dirty --quiet
echo "test-rust: ok"
