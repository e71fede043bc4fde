# 125-nofile: a program that leaves itself no free descriptor (RLIMIT_NOFILE
# 3 with stdin, stdout and stderr open) still gets its profile.  Under
# a soft limit the hard one allows one more (the writer raises the soft
# limit for its one open, and puts it back): "cannot write mon.out"
# before.  Under a hard limit of 3 no descriptor can be had in the
# program's table, but the writer process has a table of its own, in
# which it closes its copies of all but stderr (before: "cannot write
# mon.out: Too many open files", no profile).  The program sees its
# limits as without profiling.
plain_cc -O2 -o plain "$E2E/125-nofile.c"
rt_cc -O2 -o prog "$E2E/125-nofile.c"
for how in soft hard; do
	rm -f mon.out
	./plain $how || fail "plain $how: status $?"
	./prog $how 2> err || fail "$how: status $?"
	ls -a | grep -q '\.tmp$' && fail "$how: temporary file left"
	[ -s err ] && fail "$how: stderr: $(cat err)"
	expect_eq "$(count_of f prog)" 3 "$how: calls of f"
done
exit 0
