# 175-notify-churn: 40,000 SIGEV_THREAD timers created and deleted one
# after the other, each with its own sival_ptr, and 10,000 mq_notify
# registrations with values of their own, each removed again.  The
# wrappers (runtime/notify.c) keep nothing per call (one trampoline per
# distinct function), so over the churn the profiled program's CPU time
# (user + system of every thread, getrusage around the loop) is at most
# twice the plain build's, and its resident memory grows no more than
# the plain build's does, give or take 384 KiB; the notifications that
# fire before and after it still run in known threads and count
# exactly: timer_fn and mq_fn 80 each (8 notifications x 10 calls).
# Before: a record per distinct (function, value) pair, searched
# linearly and never freed: 15 times the plain CPU time, 1.2 MiB more.
# Each comparison takes the least of 3 runs, interleaved with the plain
# build's, so that a loaded machine slows both alike.
N=40000
SLACK=384			# KiB
"$CC" -O2 -pthread -o plain "$E2E/175-notify-churn.c" -lrt
for how in "" -static; do
	mp_cc -p -O2 $how -pthread -o p "$E2E/175-notify-churn.c" -lrt ||
	    fail "$how: build"
	pcpu= prss= cpu= rss=
	for i in 1 2 3; do
		out=$(./plain $N) || fail "plain: status $?"
		set -- $out
		[ -z "$pcpu" ] || [ "$1" -lt "$pcpu" ] && pcpu=$1
		[ -z "$prss" ] || [ "$2" -gt "$prss" ] && prss=$2
		rm -f mon.out
		out=$(./p $N) || fail "$how: status $?"
		set -- $out
		[ -z "$cpu" ] || [ "$1" -lt "$cpu" ] && cpu=$1
		[ -z "$rss" ] || [ "$2" -lt "$rss" ] && rss=$2
		expect_eq "$(counts p | grep -E '^(timer_fn|mq_fn) ' |
		    tr '\n' ' ')" "mq_fn 80 timer_fn 80 " "$how: counts"
	done
	echo "$how: CPU ${cpu} us (plain ${pcpu} us)," \
	    "RSS +${rss} KiB (plain +${prss} KiB)"
	[ "$cpu" -le $((2 * pcpu)) ] ||
	    fail "$how: CPU time $cpu us, more than twice plain's $pcpu us"
	[ "$rss" -le $((prss + SLACK)) ] ||
	    fail "$how: RSS grew $rss KiB, plain's $prss KiB"
done
exit 0
