# 124-overflow: a stack overflow in main writes the profile and the
# program dies of SIGSEGV as without profiling (no profile before: the
# handler had no stack to run on), also when the program has an
# alternate signal stack of its own of 8 KiB (the handler runs on it).
# A thread of the program has no alternate stack of the runtime's: its
# overflow ends the program as before, without a profile (monitor(3)).
plain_cc -O2 -o plain "$E2E/124-overflow.c"
rt_cc -O2 -o prog "$E2E/124-overflow.c"
ulimit -c 0
for how in main own thread; do
	rm -f mon.out
	st=0
	./plain $how 2>/dev/null || st=$?
	expect_eq "$st" 139 "plain $how: exit status"
	st=0
	./prog $how 2> err || st=$?
	expect_eq "$st" 139 "$how: exit status"
	grep monprof err && fail "$how: stderr: $(cat err)"
	ls -a | grep -q '\.tmp$' && fail "$how: temporary file left"
	[ $how = thread ] && continue
	[ -f mon.out ] || fail "$how: no mon.out"
	expect_eq "$(count_of f prog)" 3 "$how: calls of f"
	n=$(count_of deep prog)
	[ "$n" -gt 1000 ] || fail "$how: $n calls of deep"
done
exit 0
