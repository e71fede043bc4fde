# 144-seccomp-kill: a program that confines itself with a seccomp filter
# whose action for every call it does not make is to kill the process,
# kill the thread, or trap (SIGSYS), or with strict mode
# (144-seccomp-kill.c), keeps its status and its output: the runtime's
# exit once made gettid(), clone(), futex() and open() in its thread,
# and the filter killed it with SIGSYS, its buffered output lost.  Its
# profile is written too, by the writer process started before the
# filter: on disk when the program has ended where it calls exit()
# (waking the writer where the filter allows futex(), else spinning
# while the writer looks every 10 ms), and soon after where the filter
# kills it or it ends with SYS_exit.  A program that breaks its own
# filter dies of it as without the runtime (SIGSYS, or SIGKILL in strict
# mode).  TSYNC puts the filter on every thread of the program: the perf
# sampler's helper thread is gone first.  Threads started once confined
# (threads: a filter without gettid or tgkill) take their counters with
# neither.  -itimer: the filter refuses rt_sigreturn, so the SIGPROF
# sampler stops before it.  -static wraps syscall() and prctl() with
# ld's --wrap, where a dynamic link defines them as the runtime's (a
# shared library's filter: 148-seccomp-lib).
ulimit -c 0
plain_cc -O2 -o plain "$E2E/144-seccomp-kill.c"
mp_cc -p -O2 -o a.out "$E2E/144-seccomp-kill.c"
mp_cc -pg -O2 -o pg.out "$E2E/144-seccomp-kill.c"
mp_cc -p -O2 -static -o st.out "$E2E/144-seccomp-kill.c"

# wait_for FILE: a killed program's profile is written once it has ended.
wait_for() {
	_i=0
	while [ ! -f "$1" ] && [ $_i -lt 100 ]; do
		sleep 0.1
		_i=$((_i + 1))
	done
}

# check ACT HOW RUN EXE...: each EXE as the plain build, its profile whole.
check() {
	act=$1 how=$2 run=$3
	shift 3
	st=0
	./plain "$act" "$how" "$run" > want 2> wanterr || st=$?
	if [ "$run" = clean ] && [ "$st" != 7 ]; then
		skip "$act $how: the plain program needs more than its list" \
		    "with this libc (status $st)"
	fi
	for exe in "$@"; do
		what="$exe $act $how $run${PROFFLAGS:+ $PROFFLAGS}"
		rm -f mon.out gmon.out
		got=0
		"./$exe" "$act" "$how" "$run" > got 2> err || got=$?
		expect_eq "$got" "$st" "$what: status"
		expect_file want got
		# What the shell says of a signal, if any, and nothing else.
		expect_file wanterr err
		if [ "$run" = clean ] && [ "$act" != strict ]; then
			[ -f mon.out ] || fail "$what: no mon.out when it ended"
		fi
		wait_for mon.out
		if [ "$exe" = pg.out ]; then
			wait_for gmon.out
			[ -f gmon.out ] || fail "$what: no gmon.out"
		fi
		calls=10
		[ "$how" = threads ] && calls=4010
		expect_eq "$(count_of f "./$exe")" $calls "$what: calls of f"
	done
}

for act in kill-process kill-thread trap; do
	for how in prctl tsync futex threads; do
		for run in clean violate; do
			check $act $how $run a.out pg.out st.out
		done
	done
done
check strict prctl clean a.out pg.out
check strict prctl violate a.out
PROFFLAGS=-itimer
export PROFFLAGS
check kill-process prctl clean a.out
check trap futex clean a.out
true
