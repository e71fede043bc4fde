# 414-groups: -p code of an executable counts the calls of its local
# functions where they are made, once per group (hook ABI 9): the calls
# of fib's block (fib twice, add) are one group, as are the calls of
# a straight run whose callees all return.  Counts stay exact where a
# group's calls do not all run: a callee that longjmps every third
# call ends its group (after is counted alone), a moncontrol(0) call
# between two calls leaves the second uncounted, a tail call counts.
# prof's counts equal the program's own, at -O0 and -O2.
for opt in -O0 -O2; do
	mp_cc -p $opt -fplugin-arg-monprof-verbose \
	    "$E2E/414-groups.c" -o prog 2> log || fail "$opt: build: $(cat log)"
	grep -q ": fib: calls counted in one group: fib x2 add x1$" log ||
	    fail "$opt: fib's group: $(cat log)"
	grep -q ": jumps: calls counted in one group: after x1$" log ||
	    fail "$opt: after's group: $(cat log)"
	grep -q "^monprof: leaf: instrumented (calls counted at their sites)$" log ||
	    fail "$opt: leaf has entry code: $(cat log)"
	rm -f mon.out
	./prog 3000 > want 2> err || fail "$opt: run"
	expect_eq "$(cat err)" "jumps 1000 off_g ran 3000" "$opt: the program"
	"$PROF" prog mon.out > report || fail "$opt: prof"
	awk '$4 ~ /^[0-9]+$/ { print $NF, $4 }' report | sort > got
	# off_g ran uncounted: prof has no row of it.
	grep -v '^off_g ' want | sort > want.s
	grep -v '^main ' got > got.s
	expect_file want.s got.s
done
exit 0
