# 408-sites: -pg counts every function at its entry, local ones too
# (hook ABI 10: none is left to its call sites alone), exactly, in 4
# threads, however its callers alternate: a direct call announces its
# site, which the entry counts through; a tail call, a call from code
# left uninstrumented (shy) and a call through a pointer are counted at
# the entry, through its cache or the runtime.  gprof shows exact counts
# at -O0, -O2 and with -flto, and moncontrol(0) excludes main's call
# of a.
. "$E2E/400-gprof.subr"
for opt in -O0 -O2 "-O2 -flto"; do
	rm -f gmon.out
	mp_cc -pg $opt -pthread -I"$SRCDIR/include" \
	    -fplugin-arg-monprof-verbose "$E2E/408-sites.c" -o prog 2> log ||
	    fail "$opt: build: $(cat log)"
	for f in leaf a b seen hidden taken worker main; do
		grep -q ": $f: instrumented (arcs)$" log ||
		    fail "$opt: $f: $(grep ": $f: " log)"
	done
	grep -q ": worker: call of a announced" log ||
	    fail "$opt: worker's call of a: $(cat log)"
	./prog 50000 || fail "$opt: run"
	flat prog | grep -v '^main ' > got
	printf '%s\n' "a 200000" "b 200000" "hidden 400000" "leaf 600000" \
	    "seen 200000" "taken 400000" "worker 4" > want
	expect_file want got
	# An arc names the call's caller.  A tail call (a's
	# and b's second call of leaf at -O2) is counted at leaf's entry,
	# whose return address is worker's: gprof's own way.
	graph prog | grep -E ' (leaf|a|b|seen) ' > got
	case $opt in
	-O0)	printf '%s\n' "a leaf 200000/600000" "b leaf 400000/600000" ;;
	*)	printf '%s\n' "b leaf 200000/600000" ;;
	esac > want
	printf '%s\n' "worker a 200000/200000" "worker b 200000/200000" \
	    >> want
	[ "$opt" = -O0 ] || echo "worker leaf 400000/600000" >> want
	echo "worker seen 200000/200000" >> want
	expect_file want got
	expect_eq "$(count_of leaf prog)" 600000 "$opt: mon.out leaf"
done
exit 0
