#!/bin/sh
# run.sh [PATTERN...] - run the end-to-end cases testsuite/e2e/NNN-*.sh.
# Each case runs in its own temporary directory (T) with lib.sh sourced;
# exit 0 is a pass, 77 a skip (the case's last line says why, as
# elfutils' and automake's tests do), anything else a failure.  Prints
# PASS/SKIP/FAIL per case as it ends and exits non-zero if any case
# failed.  E2E_JOBS cases run at once (default 1; `make check -jN` sets
# it): each case must pass on a machine that other jobs load.
set -u
LC_ALL=C
export LC_ALL
: "${O:?O must name the build directory}" "${SRCDIR:?}" "${CC:=gcc}"
export O SRCDIR CC

# one CASE-FILE RESULTS: run it; its block of output printed whole, its
# verdict left in RESULTS/NAME.
one() {
	t=$1 name=$(basename "$1" .sh)
	T=$(mktemp -d "${TMPDIR:-/tmp}/monprof-$name.XXXXXX")
	(cd "$T" && T=$T . "$SRCDIR/testsuite/e2e/lib.sh" &&
	    T=$T . "$t") >"$T.log" 2>&1
	rc=$?
	if [ $rc = 0 ]; then
		out="PASS $name"
		rm -rf "$T" "$T.log"
	elif [ $rc = 77 ]; then
		out="SKIP $name: $(tail -n 1 "$T.log")"
		rm -rf "$T" "$T.log"
	else
		out="FAIL $name (log: $T.log, files: $T)
$(tail -n 40 "$T.log" | sed 's/^/    /')"
	fi
	echo "${out%% *}" > "$2/$name"
	printf '%s\n' "$out"
}

if [ "${1:-}" = --one ]; then
	one "$2" "$3"
	exit 0
fi

R=$(mktemp -d "${TMPDIR:-/tmp}/monprof-e2e.XXXXXX")
trap 'rm -rf "$R"' EXIT
for t in "$SRCDIR"/testsuite/e2e/[0-9][0-9][0-9]-*.sh; do
	name=$(basename "$t" .sh)
	if [ $# -gt 0 ]; then
		want=0
		for p in "$@"; do
			case $name in *$p*) want=1 ;; esac
		done
		[ $want = 1 ] || continue
	fi
	echo "$t"
done > "$R/cases"
xargs -P "${E2E_JOBS:-1}" -I {} sh "$0" --one {} "$R" < "$R/cases"
pass=$(grep -lx PASS "$R"/* 2>/dev/null | wc -l)
skip=$(grep -lx SKIP "$R"/* 2>/dev/null | wc -l)
fail=$(grep -lx FAIL "$R"/* 2>/dev/null | wc -l)
echo "e2e: $pass passed, $skip skipped, $fail failed"
[ "$fail" = 0 ] && [ $((pass + skip)) = "$(wc -l < "$R/cases")" ]
