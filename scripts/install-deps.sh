#!/usr/bin/env bash
# Installs the build and test dependencies from Debian's packages when missing.
# Idempotent: a machine that has them all does nothing.
# Beyond the build: go-md2man (schedsim.1), abigail-tools (abidiff for scripts/abi.sh), valgrind (the
# capi_c_valgrind test), and for scripts/fuzz.sh clang with its libFuzzer
# runtime (libclang-rt-dev pulls libclang-rt-14-dev on bookworm, which has
# libclang_rt.fuzzer-x86_64.a); openssl and curl for scripts/kube-components.sh
# (test certificates, the API server's /readyz). cargo builds the CEL
# evaluator of DRA device selectors (meson -Dcel=auto, docs/dra.md; the cel
# crate needs Rust 1.86): a machine without one gets Debian's cargo-web
# (bookworm's cargo, 1.63, is too old), one with rustup's keeps it.
set -euo pipefail

packages=(meson ninja-build pkg-config gcc g++ binutils libcjson-dev libxxhash-dev
          libgtest-dev libgmock-dev libbenchmark-dev libyaml-dev python3
          abigail-tools valgrind clang libclang-rt-dev go-md2man openssl curl)
command -v cargo >/dev/null || packages+=(cargo-web)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  echo "install-deps: installing ${missing[*]}" >&2
  SUDO=""
  [ "$(id -u)" -ne 0 ] && SUDO="sudo"
  export DEBIAN_FRONTEND=noninteractive
  $SUDO apt-get update -qq
  $SUDO apt-get install -y -qq "${missing[@]}" >/dev/null
fi
