# 138-unshare: unshare(CLONE_NEWUSER) and setns() into a mount namespace
# need the process to be its only thread; the perf sampler's helper
# thread made both fail with EINVAL under the runtime.  Now the helper
# ends for the call and starts again (runtime/unshare.c): the program
# prints what it prints without the runtime, and the sampler goes on:
# after(), spun after the calls, has samples, about as many as before().
plain_cc -O2 -o plain "$E2E/138-unshare.c"
./plain > want || fail "plain: status $?"
grep -q '^unshare: 0 $' want ||
    skip "unshare(CLONE_NEWUSER) fails without the runtime: $(grep unshare want)"
grep -q '^setns: 0 $' want ||
    skip "setns() into the mount namespace fails without the runtime: $(grep setns want)"
mp_cc -p -O2 -o a.out "$E2E/138-unshare.c"
for flags in "" -itimer; do
	rm -f mon.out
	PROFFLAGS=$flags ./a.out > got 2> err || fail "$flags: status $?"
	expect_file want got
	[ -s err ] && fail "$flags: stderr: $(cat err)"
	b=$(ticks a.out | awk '$1 == "before" { print $2 }')
	a=$(ticks a.out | awk '$1 == "after" { print $2 }')
	# 300 ms of CPU each: at 1000 Hz about 300 samples, but a loaded
	# machine's ticks and a timer's granularity vary: more than a third.
	[ "${a:-0}" -gt $((${b:-0} / 3)) ] && [ "${b:-0}" -gt 30 ] ||
	    fail "$flags: samples: before ${b:-0}, after ${a:-0}"
done
# The perf sampler's helper is back after the calls (itimer has none;
# metadata 4 is the sampler: 2 itimer, where perf_event is refused).
THREADS=1 ./a.out > /dev/null 2> err || fail "threads: status $?"
n=2
[ "$(meta 4)" = 2 ] && n=1
expect_eq "$(tr -d '\t' < err)" "Threads:$n" "threads after the calls"
PROFFLAGS=-itimer THREADS=1 ./a.out > /dev/null 2> err ||
    fail "-itimer threads: status $?"
expect_eq "$(tr -d '\t' < err)" "Threads:1" "-itimer: threads after the calls"
# The helper started again after a call inherits the task events, as a
# thread started after them: its own samples (the drains of 20,000 a
# second, some 400) were the program's, one more thread's profile under
# -threads; and with 300 ms between the calls, the last samples of the
# helper the second call stopped (3 runs in 8).  Only the program's
# main thread has a profile.
for between in "" 1 1 1 1; do
	rm -f ./*.a.out
	BETWEEN=$between PROFFLAGS="-threads -nocpuwide -rate 20000" \
	    ./a.out > /dev/null 2> err || fail "-threads: status $?"
	[ -s err ] && fail "-threads: stderr: $(cat err)"
	expect_eq "$(ls ./*.a.out |
	    sed 's/.*[0-9]\.\([0-9]*\)\.a\.out$/\1/' | tr '\n' ' ')" "1 " \
	    "-threads${between:+, 300 ms between}: the threads' profiles"
done
