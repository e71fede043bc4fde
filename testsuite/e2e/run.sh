#!/bin/sh
# run.sh [PATTERN...] - run the end-to-end cases testsuite/e2e/NNN-*.sh.
# Each case runs in its own temporary directory (T) with lib.sh sourced;
# exit 0 is a pass, 77 a skip (the case's last line says why, as
# elfutils' and automake's tests do), anything else a failure.  Prints
# PASS/SKIP/FAIL per case and exits non-zero if any case failed.
set -u
LC_ALL=C
export LC_ALL
: "${O:?O must name the build directory}" "${SRCDIR:?}" "${CC:=gcc}"
export O SRCDIR CC

pass=0
skip=0
fail=0
for t in "$SRCDIR"/testsuite/e2e/[0-9][0-9][0-9]-*.sh; do
	name=$(basename "$t" .sh)
	if [ $# -gt 0 ]; then
		want=0
		for p in "$@"; do
			case $name in *$p*) want=1 ;; esac
		done
		[ $want = 1 ] || continue
	fi
	T=$(mktemp -d "${TMPDIR:-/tmp}/monprof-$name.XXXXXX")
	(cd "$T" && T=$T . "$SRCDIR/testsuite/e2e/lib.sh" &&
	    T=$T . "$t") >"$T.log" 2>&1
	rc=$?
	if [ $rc = 0 ]; then
		echo "PASS $name"
		pass=$((pass + 1))
		rm -rf "$T" "$T.log"
	elif [ $rc = 77 ]; then
		echo "SKIP $name: $(tail -n 1 "$T.log")"
		skip=$((skip + 1))
		rm -rf "$T" "$T.log"
	else
		echo "FAIL $name (log: $T.log, files: $T)"
		tail -n 40 "$T.log" | sed 's/^/    /'
		fail=$((fail + 1))
	fi
done
echo "e2e: $pass passed, $skip skipped, $fail failed"
[ $fail = 0 ]
