# 408-sites: a function the plugin sees every call of is counted at its
# call sites (no entry hook), exactly, in 4 threads, however its callers
# alternate; a function with a caller left uninstrumented, or whose
# address is taken, keeps its entry hook; gprof shows exact counts at
# -O0, -O2 and with -flto, and moncontrol(0) excludes main's call of a,
# counted at its site.
. "$E2E/400-gprof.subr"
for opt in -O0 -O2 "-O2 -flto"; do
	rm -f gmon.out
	mp_cc -pg $opt -pthread -I"$SRCDIR/include" \
	    -fplugin-arg-monprof-verbose "$E2E/408-sites.c" -o prog 2> log ||
	    fail "$opt: build: $(cat log)"
	for f in leaf a b seen; do
		grep -q ": $f: instrumented (arcs at the call sites)" log ||
		    fail "$opt: $f not counted at its sites: $(cat log)"
	done
	for f in hidden taken; do
		grep -q ": $f: instrumented (arcs)$" log ||
		    fail "$opt: $f: $(grep ": $f: " log)"
	done
	./prog 50000 || fail "$opt: run"
	flat prog | grep -v '^main ' > got
	printf '%s\n' "a 200000" "b 200000" "hidden 400000" "leaf 600000" \
	    "seen 200000" "taken 400000" "worker 4" > want
	expect_file want got
	# Arcs counted at the site name the caller even where the call is
	# a tail call (a's and b's at -O2), which gprof's return address
	# would credit to worker.  hidden's (entry hook) are left alone:
	# tail calls from seen and shy.
	graph prog | grep -E ' (leaf|a|b|seen) ' > got
	printf '%s\n' "a leaf 200000/600000" "b leaf 400000/600000" \
	    "worker a 200000/200000" "worker b 200000/200000" \
	    "worker seen 200000/200000" > want
	expect_file want got
	expect_eq "$(count_of leaf prog)" 600000 "$opt: mon.out leaf"
done
exit 0
