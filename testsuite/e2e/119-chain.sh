# 119-chain: a program's crash handler that passes the signal on to the
# handler it replaced (the runtime's), Breakpad style, by calling it or by
# putting it back: the program runs its handler as often as without
# profiling and dies of the signal (it looped, rewriting mon.out 1,202
# times in 3 s); the profile is written once, whole.
plain_cc -O2 -o plain "$E2E/119-chain.c"
rt_cc -O2 -o prog "$E2E/119-chain.c"
ulimit -c 0
for how in call naive restore; do
	for sig in segv term; do
		st=0
		timeout -k 1 5 ./plain $how $sig > want || st=$?
		st2=0
		timeout -k 1 5 ./prog $how $sig > got 2> err || st2=$?
		expect_eq "$st2" "$st" "$how $sig: exit status"
		expect_file want got
		expect_eq "$(count_of f prog)" 3 "$how $sig: calls of f"
		grep monprof err && fail "$how $sig: stderr: $(cat err)"
		ls | grep -q '\.tmp$' && fail "$how $sig: temporary file left"
		rm -f mon.out
	done
done
exit 0
