#!/bin/sh
# Usage: man.sh GO_MD2MAN IN.md OUT.1 NAME SECTION VERSION SUMMARY
# Converts a Markdown page to a man page with go-md2man: a pandoc title block
# becomes the .TH header, the page's "# name" heading becomes the NAME
# section ("name - SUMMARY", what whatis/apropos read), the rest DESCRIPTION.
set -eu
upper=$(printf '%s' "$4" | tr '[:lower:]' '[:upper:]')
{
  printf '%% %s %s "" "libsched %s"\n\n# NAME\n\n%s - %s\n\n# DESCRIPTION\n\n' \
    "$upper" "$5" "$6" "$4" "$7"
  sed '1{/^# /d}' "$2"
} | "$1" |
  # go-md2man leaves a wrapped line that starts with an apostrophe as is,
  # which roff reads as a control line: escape it with \&.
  sed "s/^'/\\\\\&'/" > "$3"
