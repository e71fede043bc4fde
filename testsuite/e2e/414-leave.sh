# 414-leave: counts stay exact where the calls of a straight run of code
# do not all run: a callee that longjmps every third call (after is
# not called then), a moncontrol(0) call between two calls (the second
# uncounted), a tail call, a recursion.  prof's counts equal the
# program's own under -p, -pg and the reference, at -O0 and -O2.  A
# fault in the first of three calls leaves the other two uncounted in
# the profile written at the crash (hook ABI 9 counted them: issue 35).
for opt in -O0 -O2; do
	for mode in -p -pg "-p -fplugin-arg-monprof-reference"; do
		what="$opt $mode"
		mp_cc $mode $opt "$E2E/414-leave.c" -o prog 2> log ||
		    fail "$what: build: $(cat log)"
		rm -f mon.out gmon.out
		./prog 3000 > want 2> err || fail "$what: run"
		expect_eq "$(cat err)" "jumps 1000 off_g ran 3000" \
		    "$what: the program"
		"$PROF" prog mon.out > report || fail "$what: prof"
		awk '$4 ~ /^[0-9]+$/ { print $NF, $4 }' report | sort > got
		# off_g ran uncounted: prof has no row of it.
		grep -v '^off_g ' want | sort > want.s
		grep -v '^main ' got > got.s
		expect_file want.s got.s

		rm -f mon.out gmon.out
		rc=0
		./prog crash 2> /dev/null || rc=$?
		expect_eq "$rc" 139 "$what: crash: exit status"
		"$PROF" prog mon.out > report || fail "$what: crash: prof"
		awk '$4 ~ /^[0-9]+$/ { print $NF, $4 }' report | sort > got
		printf '%s\n' "at 1" "crash 1" "main 1" "next 1" > want
		expect_file want got
	done
done
exit 0
