# 409-announce: global functions (entry hooks) called from several call
# sites in turn, in 4 threads, are counted exactly through the site their
# caller announces (hook ABI 4), at -O0, -O2 and with -flto; a function
# not instrumented that the caller announced and that tail-calls c1 or c2
# never gets one counted for the other; a qsort comparator is credited
# to <external>, not to the caller that announced qsort; a call through
# a pointer is counted; moncontrol(0) excludes calls.  Under callgrind,
# the runtime's hook is called a few times per site and thread, not per
# call.
. "$E2E/400-gprof.subr"
"$CC" -O2 -c "$E2E/409-announce.lib.c" -o lib.o
M=20000
for opt in -O0 -O2 "-O2 -flto"; do
	rm -f gmon.out
	mp_cc -pg $opt -pthread -I"$SRCDIR/include" \
	    -fplugin-arg-monprof-verbose "$E2E/409-announce.c" lib.o \
	    -o prog 2> log || fail "$opt: build: $(cat log)"
	# (An ltrans process compiles as -fPIC, which announces nothing.)
	case $opt in *-flto*) ;; *)
		for f in a b dispatch c1 taken; do
			grep -q ": worker: call of $f announced" log || fail \
			    "$opt: worker's call of $f not announced: $(cat log)"
		done
		grep -q ": main: call of qsort announced" log ||
		    fail "$opt: qsort not announced"
	esac
	./prog $M > out || fail "$opt: run"
	ncmp=$(cat out)
	[ "$ncmp" -gt 500 ] || fail "$opt: qsort made $ncmp comparisons"
	flat prog > got
	printf '%s\n' "a $((4 * M))" "b $((4 * M))" "c1 $((6 * M))" \
	    "c2 $((2 * M))" "cmp $ncmp" "leaf $((12 * M))" "main 1" \
	    "taken $((8 * M))" "worker 4" > want
	expect_file want got
	graph prog > got
	printf '%s\n' "<external> cmp $ncmp/$ncmp" "<external> main 1/1" \
	    "<external> worker 4/4" "a leaf $((4 * M))/$((12 * M))" \
	    "b leaf $((8 * M))/$((12 * M))" "worker a $((4 * M))/$((4 * M))" \
	    "worker b $((4 * M))/$((4 * M))" \
	    "worker c1 $((6 * M))/$((6 * M))" \
	    "worker c2 $((2 * M))/$((2 * M))" \
	    "worker taken $((8 * M))/$((8 * M))" | sort > want
	expect_file want got
done

# The hook's calls: warm-up only (sites x threads), not the 4 * 9 * M
# calls.  Before hook ABI 4, leaf's and c1's alone missed their cache
# on every call.
command -v valgrind > /dev/null 2>&1 || skip "valgrind not found"
mp_cc -pg -O2 -pthread -I"$SRCDIR/include" "$E2E/409-announce.c" lib.o \
    -o prog || fail "callgrind: build"
valgrind --tool=callgrind --callgrind-out-file=cg.out ./prog 2000 \
    > /dev/null 2> vg || fail "callgrind: $(tail -n 5 vg)"
n=$(awk '
    { if (match($0, /\([0-9]+\) [^ ]+/)) {
	split(substr($0, RSTART, RLENGTH), p, " "); name[p[1]] = p[2] } }
    /^cfn=/ { split(substr($0, 5), p, " "); hook = name[p[1]] ~ /^__mon_mcount_arc/ }
    /^calls=/ && hook { split(substr($0, 7), p, " "); n += p[1]; hook = 0 }
    END { print n + 0 }' cg.out)
[ "$n" -gt 0 ] || fail "callgrind: no call of the hook seen"
[ "$n" -le 200 ] || fail "the hook was called $n times for $((4 * 9 * 2000)) calls"
exit 0
