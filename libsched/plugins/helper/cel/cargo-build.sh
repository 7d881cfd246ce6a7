#!/bin/sh
# Builds the crate's static library for meson (-Dcel): cargo build --locked
# --release into TARGET_DIR, then copies the archive to OUTPUT.
# Usage: cargo-build.sh CARGO MANIFEST TARGET_DIR OUTPUT
set -eu
cargo=$1 manifest=$2 target_dir=$3 output=$4
CARGO_TERM_COLOR=never "$cargo" build --locked --release --quiet \
  --manifest-path "$manifest" --target-dir "$target_dir"
cp "$target_dir/release/libsched_cel.a" "$output"
