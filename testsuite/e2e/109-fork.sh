# 109-fork: with PROFDIR set, parent and child each write their own
# <pid>.<progname>; the child's counts and samples start from zero and
# its sampler runs; parent + child = the whole work.
rt_cc -O2 -o prog "$E2E/109-fork.c"
mkdir d
for flags in "" -itimer; do
	rm -f d/*
	PROFFLAGS=$flags PROFDIR=d ./prog &
	pid=$!
	wait $pid
	expect_eq "$(ls d | wc -l)" 2 "$flags files"
	child=$(ls d | grep -v "^$pid\\.")
	expect_eq "$(count_of f prog d/$pid.prog)" 15 "$flags parent f"
	expect_eq "$(count_of g prog d/$pid.prog)" 0 "$flags parent g"
	expect_eq "$(count_of main prog d/$pid.prog)" 1 "$flags parent main"
	expect_eq "$(count_of f prog d/$child)" 0 "$flags child f"
	expect_eq "$(count_of g prog d/$child)" 20 "$flags child g"
	expect_eq "$(count_of cspin prog d/$child)" 1 "$flags child cspin"
	expect_eq "$(count_of main prog d/$child)" 0 "$flags child main"
	expect_eq "$(meta 9 d/$child)" "${child%%.*}" "$flags child pid"
	s=$(meta 10 d/$child)
	[ "$s" -ge 20 ] || fail "$flags child samples $s"
	s=$(meta 10 d/$pid.prog)
	[ "$s" -le 10 ] || fail "$flags parent samples $s (the child's?)"
done
exit 0
