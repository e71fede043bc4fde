#!/bin/sh
# demo.sh - "make demo": build testsuite/demo/wordfreq.c with the drop-in
# "cc -p" (monprof.specs), run it in a temporary directory, and print
# prof's report.
# Environment: CC, O (the build directory, absolute), SRCDIR.
set -e
: "${CC:=gcc}" "${O:?O must name the build directory}" "${SRCDIR:?}"
T=$(mktemp -d "${TMPDIR:-/tmp}/monprof-demo.XXXXXX")
trap 'rm -rf "$T"' EXIT
cd "$T"
echo "\$ $CC -specs=\$O/monprof.specs -p -O2 wordfreq.c -o wordfreq"
"$CC" -specs="$O/monprof.specs" -p -O2 "$SRCDIR/testsuite/demo/wordfreq.c" \
    -o wordfreq
echo "\$ ./wordfreq"
./wordfreq
echo "\$ prof wordfreq"
"$O/prof" wordfreq
