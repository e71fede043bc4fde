# 118-rawfork: a child that no fork handler saw (syscall(SYS_fork), or
# clone() without CLONE_VM) ends as without profiling (it died of
# SIGSEGV in the runtime), never touches the parent's sampler (it
# disabled it through the shared event descriptors) and writes its own
# file under its pid.  Under a time limit: a child that took the
# parent's state for its own also hung at exit (1 run in 3), and a
# hang is no failure until the limit.
plain_cc -O2 -o plain "$E2E/118-rawfork.c"
rt_cc -O2 -o prog "$E2E/118-rawfork.c"
mkdir d
ulimit -c 0
for how in sys clone; do
	rm -f d/*
	./plain $how > want
	PROFDIR=d timeout -k 1 30 sh -c 'echo $$ > pid; exec ./prog "$1"' \
	    sh $how > got || fail "$how: parent status $?"
	pid=$(cat pid)
	expect_file want got
	expect_eq "$(count_of h prog d/$pid.prog)" 2 "$how: parent h"
	# the parent's sampler ran after the child ended: h spun 0.3 s then
	s=$(ticks prog d/$pid.prog | awk '$1 == "h" { print $2 }')
	[ "${s:-0}" -ge 400 ] || fail "$how: parent's h samples ${s:-0}"
	child=$(ls d | grep -v "^$pid\\.")
	[ -n "$child" ] || fail "$how: no child profile"
	expect_eq "$(count_of g prog d/$child)" 1 "$how: child g"
done
ls d | grep -q '\.tmp$' && fail "temporary file left"
exit 0
