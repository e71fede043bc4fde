# 106-moncontrol: moncontrol(0) stops counting and sampling, (1) resumes,
# and it returns the previous mode.  busy spins 0.3 s of CPU while off:
# no sample in it, and fewer in all than a tenth of what it would have
# had on (a loaded machine may give the start-up and exit code, which
# run while on, a tick: "a sample after moncontrol(0)" was that).
for hook in "" -DMON_HOOK_SHARED; do
	rm -f mon.out
	rt_cc -O2 $hook -I"$E2E" -o a.out "$E2E/106-moncontrol.c"
	st=0
	./a.out || st=$?
	expect_eq "$st" 0 "$hook exit status"
	expect_eq "$(count_of f)" 13 "$hook f"
	expect_eq "$(count_of g)" 1 "$hook g"
	expect_eq "$(count_of busy)" 0 "$hook busy"
	ticks a.out > ticks
	awk '$1 == "busy" || $1 == "spin_cpu" { n += $2 }
	    END { exit n > 0 }' ticks ||
	    fail "$hook: samples in busy while off: $(cat ticks)"
	[ "$(meta 10)" -lt 30 ] ||
	    fail "$hook: $(meta 10) samples while busy spun off"
done
exit 0
