# 136-exit-join: an exit handler joins a thread that calls exit() itself
# (136-exit-join.c): the program ends as without the runtime (glibc
# before 2.41: the worker's exit ends it, status 3, its output flushed),
# with its whole profile.  The exit wrapper (runtime/exit.c) held the
# worker until main's exit ended the process, and main waited for the
# worker: the program hung.  The same where a destructor joins, after
# the runtime's own exit handler (-DDESTRUCTOR): the worker waited for
# ever there too (timeout, status 124), until the waiter learned to
# write the profile in the first thread's place.  20 runs of each, each
# bounded.
for how in handler destructor; do
	def=
	[ $how = destructor ] && def=-DDESTRUCTOR
	plain_cc -O2 $def -o plain "$E2E/136-exit-join.c"
	mp_cc -p -O2 $def -o a.out "$E2E/136-exit-join.c"
	st=0
	timeout 20 ./plain > want || st=$?
	[ "$st" = 3 ] || skip "without the runtime the program ends with $st, not 3 (glibc 2.41 or later holds the second exit, as the runtime did)"
	i=0
	while [ $i -lt 20 ]; do
		rm -f mon.out
		st=0
		timeout 20 ./a.out > got 2> err || st=$?
		expect_eq "$st" 3 "$how, run $i: exit status"
		expect_file want got
		[ -s err ] && fail "$how, run $i: stderr: $(cat err)"
		[ -f mon.out ] ||
		    fail "$how, run $i: no mon.out when the program has ended"
		expect_eq "$(count_of f)" 5 "$how, run $i: calls of f"
		i=$((i + 1))
	done
done
