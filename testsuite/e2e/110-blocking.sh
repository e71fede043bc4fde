# 110-blocking: sampling never makes a blocking call fail (read on a pipe,
# nanosleep, sleep, usleep) while another thread is sampled, with the perf
# sampler and with the itimer fallback; the busy thread is sampled.
rt_cc -O2 -o prog "$E2E/110-blocking.c"
for flags in "" -itimer; do
	rm -f mon.out
	st=0
	PROFFLAGS=$flags ./prog || st=$?
	expect_eq "$st" 0 "$flags: disturbed call"
	s=$(meta 10)
	[ "$s" -ge 100 ] || fail "$flags: only $s samples"
	expect_eq "$(count_of burn prog)" 1 "$flags burn"
done
exit 0
