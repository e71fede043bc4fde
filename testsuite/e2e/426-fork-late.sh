# 426-fork-late: a fork child of a perf-sampled program starts its own
# perf sampler late (sampler.c): no helper thread, no event, no ring in
# a child that ends within 10 ms of CPU (a fork cost 3.6 times plain
# when every child started them), the CPU timer sampling it meanwhile;
# then perf, from the timer's handler at a safe point (safepoint.c), or
# at the child's first pthread_create, so that its threads are sampled.
# A program that handles SIGPROF, or runs -nostacks, starts the child's
# sampler at once, as before.
mp_cc -p -O2 -pthread -o a.out "$E2E/426-fork-late.c"

# run NAME MODE MS [FLAGS]: the child's report in NAME.out, its profile
# NAME.mon.
run() {
	rm -rf "d.$1"
	mkdir "d.$1"
	PROFDIR=d.$1 PROFFLAGS=${4-} ./a.out "$2" "$3" > "$1.out" 2> "$1.err" ||
	    fail "$1: status $?: $(head -3 "$1.err")"
	[ ! -s "$1.err" ] || fail "$1: stderr: $(head -3 "$1.err")"
	pid=$(awk '$1 == "pid" { print $2 }' "$1.out")
	[ -f "d.$1/$pid.a.out" ] || fail "$1: no profile of child $pid: $(ls "d.$1")"
	cp "d.$1/$pid.a.out" "$1.mon"
	parent=$(awk '$1 == "parent" { print $2 }' "$1.out").a.out
	[ "$(meta 4 "d.$1/$parent")" = 1 ] ||
	    skip "the parent is not sampled by perf (sampler $(meta 4 "d.$1/$parent"))"
}
# field NAME KEY: the child's line KEY's number.
field() {
	awk -v k="$2" '$1 == k { print $2 }' "$1.out"
}

# A child that runs: the timer first, then perf, with its helper.
run spin spin 300
expect_eq "$(field spin forked)" 1 "spin: threads after fork"
expect_eq "$(field spin ran)" 2 "spin: threads after 300 ms (perf's helper)"
expect_eq "$(meta 4 spin.mon)" 1 "spin: the child's sampler"
cpu=$(field spin cpu)
work=$(ticks a.out spin.mon | awk '$1 == "child_work" { print $2 }')
echo "spin: child_work $work samples in $cpu ms of CPU"
[ "${work:-0}" -ge $((cpu * 7 / 10)) ] && [ "$work" -le $((cpu + 20)) ] ||
    fail "spin: child_work $work samples in $cpu ms of CPU"

# A short child: no perf sampler at all; the timer's samples, in perf's
# units (its overruns counted), under the timer's name.
run short spin 4
expect_eq "$(field short forked)" 1 "short: threads after fork"
expect_eq "$(field short ran)" 1 "short: threads at exit"
expect_eq "$(meta 4 short.mon)" 2 "short: the child's sampler"
expect_eq "$(meta 3 short.mon)" 1000 "short: the rate its samples count at"
cpu=$(field short cpu)
n=$(meta 10 short.mon)
echo "short: $n samples in $cpu ms of CPU"
[ "$n" -le $((cpu + 8)) ] || fail "short: $n samples in $cpu ms of CPU"

# At -rate 1 too: the timer's period is a second, not an invalid
# 1e9 ns (which made the child start perf at once).
run slow spin 4 "-rate 1"
expect_eq "$(field slow forked)" 1 "slow: threads after fork"
expect_eq "$(field slow ran)" 1 "slow: threads at exit"
expect_eq "$(meta 4 slow.mon)" 2 "slow: the child's sampler"

# A thread: perf starts before it is created, and it is sampled.
run thread thread 200
expect_eq "$(field thread forked)" 1 "thread: threads after fork"
expect_eq "$(field thread created)" 3 "thread: threads after pthread_create"
expect_eq "$(meta 4 thread.mon)" 1 "thread: the child's sampler"
work=$(ticks a.out thread.mon | awk '$1 == "thread_work" { print $2 }')
echo "thread: thread_work $work samples"
[ "${work:-0}" -ge 140 ] || fail "thread: thread_work $work samples"

# The program's SIGPROF, and -nostacks: the sampler at once.
run sigprof sigprof 50
expect_eq "$(field sigprof forked)" 2 "sigprof: threads after fork"
expect_eq "$(field sigprof sigprof)" 0 "sigprof: the program's handler ran"
# The child resets SIGPROF: the timer yields it, and the child lives;
# after unshare() too (the runtime stops its threads for it); and its
# own child starts a sampler again.
run dfl dfl 100
expect_eq "$(field dfl forked)" 1 "dfl: threads after fork"
expect_eq "$(field dfl ran)" 1 "dfl: threads after 100 ms"
run unshare unshare 100
echo "unshare: $(field unshare unshare)"
expect_eq "$(field unshare ran)" 1 "unshare: threads after 100 ms"
run dflfork dflfork 300
expect_eq "$(field dflfork gran)" 2 "dflfork: the grandchild's threads after 300 ms"

# A vfork child's exec leaves its parent's stand-in alone.
run vfork vfork 300
expect_eq "$(field vfork vfork)" 0 "vfork: /bin/true's status"
expect_eq "$(field vfork ran)" 2 "vfork: threads after 300 ms"
run nostacks spin 50 -nostacks
expect_eq "$(field nostacks forked)" 2 "nostacks: threads after fork"

# Until then the timer's signal interrupts no system call: the kernel
# sends it on the way back to user mode (CPU timers run as task work),
# so select(), which SA_RESTART does not restart, never fails.
run select select 3000
expect_eq "$(field select eintr)" 0 "select: calls that failed with EINTR"
expect_eq "$(meta 4 select.mon)" 2 "select: the child's sampler (the timer)"
n=$(meta 10 select.mon)
echo "select: $n samples in $(field select cpu) ms of CPU"
[ "${n:-0}" -ge 50 ] || fail "select: $n timer samples: too few to tell"

# Many short children, none of which starts a sampler.
mkdir d.forks
PROFDIR=d.forks ./a.out forks 200 > forks.out || fail "forks: status $?"
expect_eq "$(cat forks.out)" ok "forks"
expect_eq "$(ls d.forks | wc -l)" 1 "forks: profiles (the parent's alone)"

# Forks from a 2 ms SIGALRM handler: each child's fork handler (the
# timer armed, SIGPROF taken) runs inside the program's handler.
mkdir d.alarm
PROFDIR=d.alarm ./a.out alarm 100 > alarm.out || fail "alarm: status $?"
expect_eq "$(cat alarm.out)" ok "alarm"
