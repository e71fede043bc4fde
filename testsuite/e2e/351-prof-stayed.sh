# 351-prof-stayed: where the perf sampler stayed in per-task events and
# the threads blocked often (meta 25), prof's warning says why it stayed,
# as the runtime recorded it (meta 26): -nocpuwide, too small an
# RLIMIT_NOFILE, the privilege (only then CAP_PERFMON), the program's
# closing the descriptors, another errno; a file without meta 26 keeps
# the old words.  It named CAP_PERFMON whatever the cause.
. "$E2E/300-prof.subr"
sample
head='prof: mon.out: its threads blocked up to 20000 times a second, and the sampler worked at each switch (not in the times shown): '
tail='; PROFFLAGS=-itimer costs less'
for c in "1 PROFFLAGS=-nocpuwide kept per-task events" \
    "2 per-CPU events need 16 descriptors a CPU, more than its RLIMIT_NOFILE allowed" \
    "3 per-CPU sampling needs CAP_PERFMON or perf_event_paranoid <= 0" \
    "4 it closed the sampler's descriptors, which per-CPU sampling needs" \
    "1019 the kernel refused per-CPU events: No such device" \
    "- per-CPU sampling needs CAP_PERFMON or perf_event_paranoid <= 0, or more descriptors"; do
	why=${c%% *} words=${c#* }
	{ standard; echo "meta 25 20000"
	  [ "$why" = - ] || echo "meta 26 $why"; } | "$MKMON" mon.out
	"$PROF" sample > /dev/null 2> err || fail "$why: status $?"
	expect_eq "$(cat err)" "$head$words$tail" "meta 26 = $why"
done
