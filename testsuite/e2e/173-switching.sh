# 173-switching: the perf sampler moves to one event per CPU (cpu scope,
# MON_SAMPLER_PERF_CPU) once the process switches more than 1000 times a
# second, where the kernel allows it: a thread that blocks every signal
# is still sampled, another process's samples are dropped (a spinner at
# the same addresses: spin() must get none), counts stay exact.
# -nocpuwide stays in task scope; -cpuwide starts in cpu scope; without
# the privilege the sampler stays in task scope and says nothing.  Where
# it stays, mon.out records how often the threads blocked (meta 25) and
# why it stayed (meta 26), and prof warns of the cost; where it moved,
# neither.
rt_cc -O2 -no-pie -o prog "$E2E/173-switching.c"

# run FLAGS: profile one run with a spinner beside it; check what all
# scopes share; leave the round trips in n.
run() {
	rm -f mon.out
	PROFDIR= ./prog spin &
	spinner=$!
	PROFFLAGS=$1 ./prog > out 2> err || fail "$1: status $?"
	kill "$spinner"
	wait "$spinner" 2>/dev/null || :
	expect_eq "$(cat err)" "" "$1: stderr"
	n=$(cat out)
	expect_eq "$(count_of ping prog)" "$n" "$1: ping"
	expect_eq "$(count_of burn prog)" 1 "$1: burn"
	expect_eq "$(count_of spin prog)" 0 "$1: spin"
	ticks prog > ticks
	b=$(awk '$1 == "burn" { print $2 }' ticks)
	[ "${b:-0}" -ge 50 ] || fail "$1: burn, blocking every signal, got ${b:-0} samples"
	s=$(awk '$1 == "spin" { print $2 }' ticks)
	expect_eq "${s:-0}" 0 "$1: another process's samples"
}

# warned FLAGS: prof's line about the switches (meta 25) in task scope.
warned() {
	"$PROF" prog > /dev/null 2> perr || fail "$1: prof status $?"
	grep -c "threads blocked up to .* times a second, and the sampler" \
	    perr
}

run ""
expect_eq "$(meta 4)" 3 "moved to cpu scope"
[ "$n" -ge 1000 ] || fail "only $n round trips"
expect_eq "$(meta 25)" "" "moved: no switches recorded"
expect_eq "$(warned moved)" 0 "moved: prof's warning"
run -nocpuwide
expect_eq "$(meta 4)" 1 "-nocpuwide: task scope"
# The rate is recorded where some 100 ms had more than 10,000 switches
# a second: n round trips in 1.2 s are about 2n / 1.2 switches a second
# (main's and the echo thread's).  On a loaded machine the program may
# make too few for that ("switches a second recorded: ''"): the record
# is then asked for only where the whole run's rate was twice that.
if [ -n "$(meta 25)" ] || [ "$n" -ge 12000 ]; then
	[ "$(meta 25)" -gt 10000 ] ||
	    fail "-nocpuwide: switches a second recorded: '$(meta 25)'" \
		"of $n round trips"
	expect_eq "$(warned -nocpuwide)" 1 "-nocpuwide: prof's warning"
	expect_eq "$(meta 26)" 1 \
	    "-nocpuwide: why it stayed (MON_STAYED_ASKED)"
else
	echo "-nocpuwide: $n round trips, too few to record a rate"
fi
rm -f mon.out
PROFFLAGS=-cpuwide ./prog short > out 2> err || fail "-cpuwide: status $?"
expect_eq "$(cat err)" "" "-cpuwide: stderr"
expect_eq "$(meta 4)" 3 "-cpuwide: cpu scope from the start"

# Without CAP_PERFMON, where perf_event_paranoid > 0: refused, stays.
if [ "$(cat /proc/sys/kernel/perf_event_paranoid)" -gt 0 ] &&
    command -v setpriv >/dev/null; then
	rm -f mon.out
	setpriv --inh-caps=-all --bounding-set=-all ./prog > out 2> err ||
	    fail "unprivileged: status $?"
	expect_eq "$(cat err)" "" "unprivileged: stderr"
	expect_eq "$(meta 4)" 1 "unprivileged: task scope"
	[ "$(meta 25)" -gt 10000 ] ||
	    fail "unprivileged: switches a second recorded: '$(meta 25)'"
	expect_eq "$(count_of ping prog)" "$(cat out)" "unprivileged: ping"
	expect_eq "$(meta 26)" 3 "unprivileged: why (MON_STAYED_PRIVILEGE)"
else
	echo "not checked: the unprivileged case (perf_event_paranoid <= 0 or no setpriv)"
fi
exit 0
