# 125-nofile: a program that leaves itself no free descriptor (RLIMIT_NOFILE
# 3 with stdin, stdout and stderr open) still gets its profile when the
# hard limit allows one more (the writer raises the soft limit for its
# one open, and puts it back): "cannot write mon.out" before.  Under a
# hard limit of 3 no descriptor can be had: one line, with the reason.
# The program sees its limits as without profiling.
plain_cc -O2 -o plain "$E2E/125-nofile.c"
rt_cc -O2 -o prog "$E2E/125-nofile.c"
for how in soft hard; do
	rm -f mon.out
	./plain $how || fail "plain $how: status $?"
	./prog $how 2> err || fail "$how: status $?"
	ls -a | grep -q '\.tmp$' && fail "$how: temporary file left"
	[ $how = hard ] && break
	[ -s err ] && fail "$how: stderr: $(cat err)"
	expect_eq "$(count_of f prog)" 3 "$how: calls of f"
done
expect_eq "$(wc -l < err)" 1 "hard: lines on stderr"
grep -q "cannot write mon.out: Too many open files" err ||
    fail "hard: message: $(cat err)"
[ -f mon.out ] && fail "hard: mon.out written"
exit 0
