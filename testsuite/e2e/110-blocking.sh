# 110-blocking: sampling never makes a blocking call fail (read on a pipe,
# nanosleep, sleep, usleep) while another thread is sampled, with the perf
# sampler and with the itimer fallback; the busy thread is sampled: at
# least a third of the samples the CPU time the process got is worth at
# the rate recorded (a loaded machine gives it less time, and fewer
# samples: wall time is no measure).
rt_cc -O2 -o prog "$E2E/110-blocking.c"
for flags in "" -itimer; do
	rm -f mon.out
	st=0
	PROFFLAGS=$flags ./prog 2> cpu || st=$?
	expect_eq "$st" 0 "$flags: disturbed call"
	s=$(meta 10) rate=$(meta 3) ms=$(cat cpu)
	want=$((ms * rate / 1000 / 3))
	[ "$s" -ge "$want" ] && [ "$s" -gt 0 ] ||
	    fail "$flags: $s samples in $ms ms of CPU at $rate Hz"
	expect_eq "$(count_of burn prog)" 1 "$flags burn"
done
exit 0
