# 120-moncontrol-fair: while 8 threads switch moncontrol, no single
# moncontrol call and no monitor(0) waits long (they waited 5 to 7 s: an
# unfair compare-and-swap spin with sched_yield).  Bound: 250 ms, every
# call of 5 runs, with each sampler; and with a signal handler that
# calls moncontrol in the middle of other calls, no deadlock.  And
# monitor(0) while the togglers run never crashes them: 20 runs with
# each sampler (the stop unmapped the perf rings under a toggler's
# switch: SIGSEGV in 2 of 30 runs).
rt_cc -O2 -o a.out "$E2E/120-moncontrol-fair.c"
for flags in "" -itimer; do
	for run in $(seq 20) alarm; do
		arg=
		[ "$run" = alarm ] && arg=alarm
		set -- $(PROFFLAGS=$flags timeout 60 ./a.out $arg)
		[ $# -eq 2 ] || fail "$flags $arg: no result (a crash or deadlock)"
		echo "$flags $arg: longest moncontrol $1 ms, monitor(0) $2 ms"
		case $run in [1-5]|alarm) ;; *) continue ;; esac
		[ "$1" -le 250 ] || fail "$flags $arg: a moncontrol took $1 ms"
		[ "$2" -le 250 ] || fail "$flags $arg: monitor(0) took $2 ms"
	done
done
exit 0
