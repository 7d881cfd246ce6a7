#!/bin/sh
# Compares the dynamic symbols libsched.so defines with the golden list, so
# nothing but the sched_* API leaks (hidden visibility + version script).
# Usage: check_exports.sh <nm> <libsched.so> <exported_symbols.txt>
set -eu
nm_tool=$1 lib=$2 golden=$3
actual=$(mktemp)
expected=$(mktemp)
trap 'rm -f "$actual" "$expected"' EXIT
# Drop absolute symbols (the SCHED_0 version node) and version suffixes.
"$nm_tool" -D --defined-only "$lib" | awk '$2 != "A" { sub(/@.*/, "", $3); print $3 }' |
  LC_ALL=C sort >"$actual"
grep -v '^#' "$golden" | LC_ALL=C sort >"$expected"
if ! diff -u "$expected" "$actual"; then
  echo "exported symbols of $lib differ from $golden (- expected, + actual)" >&2
  exit 1
fi
echo "$(wc -l <"$actual") exported symbols match"
