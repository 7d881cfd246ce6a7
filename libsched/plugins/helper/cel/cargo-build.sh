#!/bin/sh
# Builds the crate's static library for meson (-Dcel): cargo build --locked
# --release into TARGET_DIR, then copies the archive to OUTPUT. With
# "fuzzing" (meson -Dfuzzing=true), the crate gets libFuzzer's coverage
# instrumentation too (as cargo-fuzz sets it), so fuzz_selector's feedback
# reaches into the CEL parser and interpreter.
# SCHED_CEL_TARGET_DIR, when set, replaces TARGET_DIR: build dirs whose
# crate builds are the same share one (scripts/test.sh: the TSan build uses
# the plain build's, and cargo finds it up to date).
# Usage: cargo-build.sh CARGO MANIFEST TARGET_DIR OUTPUT [fuzzing]
set -eu
cargo=$1 manifest=$2 target_dir=${SCHED_CEL_TARGET_DIR:-$3} output=$4
out_dir=$target_dir/release
target=""
if [ "${5:-}" = fuzzing ]; then
  # An explicit --target keeps RUSTFLAGS off build scripts and proc macros,
  # which run on the host without libFuzzer's runtime (as cargo-fuzz does).
  host=$(rustc -vV | sed -n 's/^host: //p')
  target="--target $host"
  out_dir=$target_dir/$host/release
  RUSTFLAGS="-Cpasses=sancov-module -Cllvm-args=-sanitizer-coverage-level=4"
  RUSTFLAGS="$RUSTFLAGS -Cllvm-args=-sanitizer-coverage-inline-8bit-counters"
  RUSTFLAGS="$RUSTFLAGS -Cllvm-args=-sanitizer-coverage-pc-table"
  RUSTFLAGS="$RUSTFLAGS -Cllvm-args=-sanitizer-coverage-trace-compares"
  export RUSTFLAGS
fi
# shellcheck disable=SC2086  # $target is empty or two words
CARGO_TERM_COLOR=never "$cargo" build --locked --release --quiet $target \
  --manifest-path "$manifest" --target-dir "$target_dir"
cp "$out_dir/libsched_cel.a" "$output"
