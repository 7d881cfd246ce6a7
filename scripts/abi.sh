#!/usr/bin/env bash
# ABI stability check of libsched.so against the stored dump of its release
# (libabigail's abidw/abidiff; the rules are in docs/abi.md).
#
# Usage: scripts/abi.sh check LIB   compare LIB (a freshly built libsched.so)
#                                   with abi/<its SONAME>.abi
#        scripts/abi.sh dump LIB    write abi/<its SONAME>.abi from LIB (on a
#                                   release; LIB from the plain build/, as CI
#                                   builds it: debugoptimized, with -g)
# check prints abidiff's report (additions included) and fails on an
# incompatible change: a removed symbol (abidiff exit bit 8) or a changed
# public type or signature (bit 4 once additions are left out). Needs
# abigail-tools (scripts/install-deps.sh).
set -euo pipefail
{
root=$(cd "$(dirname "$0")/.." && pwd)
mode=${1:-}
lib=${2:-}
if [[ $mode != check && $mode != dump ]] || [ ! -f "$lib" ]; then
  sed -n '2,13p' "$0" | sed 's/^# \{0,1\}//' >&2
  exit 2
fi
# Only types declared in the public header count; sched_engine and
# sched_error stay opaque, so their layout inside capi/ may change freely.
scope=(--headers-dir "$root/include/sched" --drop-private-types --exported-interfaces-only)
soname=$(objdump -p "$lib" | awk '$1 == "SONAME" { print $2 }')
[ -n "$soname" ] || { echo "abi.sh: $lib has no SONAME" >&2; exit 1; }
dump="$root/abi/$soname.abi"

if [ "$mode" = dump ]; then
  mkdir -p "$root/abi"
  # Hash type ids and no source locations: a refreshed dump differs from the
  # old one only where the ABI does.
  abidw "${scope[@]}" --no-corpus-path --no-comp-dir-path --no-show-locs \
    --type-id-style hash --drop-undefined-syms --out-file "$dump" "$lib"
  echo "abi.sh: wrote ${dump#"$root"/}"
  exit 0
fi

if [ ! -f "$dump" ]; then
  echo "abi.sh: no dump for $soname (${dump#"$root"/}); after a SONAME bump, store one with" \
       "'scripts/abi.sh dump build/libsched.so' (docs/abi.md)" >&2
  exit 1
fi
diff_args=(--headers-dir2 "$root/include/sched" --drop-private-types --exported-interfaces-only
           --fail-no-debug-info --no-show-locs "$dump" "$lib")
rc=0
abidiff "${diff_args[@]}" || rc=$?
# abidiff's exit status is a bit set: 1 error, 2 usage, 4 ABI change,
# 8 incompatible ABI change (a removed function or variable).
if ((rc & 3)); then
  echo "abi.sh: abidiff failed (exit $rc)" >&2
  exit 1
fi
if ((rc & 8)); then
  echo "abi.sh: INCOMPATIBLE: symbols of ${dump#"$root"/} are gone from $lib (docs/abi.md)" >&2
  exit 1
fi
if ((rc & 4)); then
  # Additions set bit 4 too; they are allowed. Anything left is not.
  rc=0
  abidiff --no-added-syms "${diff_args[@]}" >/dev/null || rc=$?
  if ((rc != 0)); then
    echo "abi.sh: INCOMPATIBLE: public types or signatures changed since ${dump#"$root"/} (docs/abi.md)" >&2
    exit 1
  fi
  echo "abi.sh: additions only, compatible with ${dump#"$root"/}"
  exit 0
fi
echo "abi.sh: no ABI change against ${dump#"$root"/}"
exit 0
}
