# 127-vfork: a child sharing the parent's memory (vfork(), or
# clone(CLONE_VM)) that calls exit(): it ran the parent's exit handlers,
# the runtime's among them, so the parent never wrote its profile.  Now
# the runtime ends it with _exit(status) before the destructors, which
# are left to the parent.  The parent's profile is whole, with the
# child's calls in it (made in its memory); the child writes none; the
# output and the statuses are as without profiling.
plain_cc -O2 -o plain "$E2E/127-vfork.c"
rt_cc -O2 -o prog "$E2E/127-vfork.c"
mkdir d
for how in vfork clonevm; do
	rm -f d/*
	./plain $how > want
	PROFDIR=d ./prog $how > got &
	pid=$!
	wait $pid || fail "$how: status $?"
	expect_file want got
	expect_eq "$(ls d)" "$pid.prog" "$how: files"
	expect_eq "$(count_of f prog d/$pid.prog)" 3 "$how: parent f"
	expect_eq "$(count_of g prog d/$pid.prog)" 1 "$how: child's g"
done
exit 0
