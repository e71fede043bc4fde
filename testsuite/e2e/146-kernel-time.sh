# 146-kernel-time: the perf sampler counts user-mode time only, and
# says so in prof -s; PROFFLAGS=-kernel counts kernel-mode time too,
# charged to the user code that entered the kernel (read's wrapper in
# the C library, under reader), and prof -s says which; where the kernel
# refuses kernel samples (perf_event_paranoid above 1, no CAP_PERFMON),
# user mode only, and prof -s says it was refused.  Checked against the
# user and system CPU time the program reports of itself.
mp_cc -p -O2 -g -o a.out "$E2E/146-kernel-time.c"

# incl NAME: NAME's inclusive seconds in prof's CSV of mon.out.
incl() {
	"$PROF" --format=csv a.out | awk -F, -v f="$1" '
	    NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
	    $1 == f { print $col["inclusive"] + 0 }'
}
# line: prof -s's sampler line.
line() { "$PROF" -s a.out 2>&1 >/dev/null | sed -n 's/^ *sampled by the //p'; }

./a.out > times
[ "$(meta 4)" = 2 ] && skip "no perf_event here: the timer counts kernel" \
    "time as it always has"
expect_eq "$(meta 30)" "" "user mode: the kernel key"
expect_eq "$(line)" "perf_event task-clock: times are user-mode CPU time (PROFFLAGS=-kernel adds kernel mode)" "user mode: -s"
read utime stime < times
r=$(incl reader)
echo "user mode: user $utime ms, system $stime ms, reader $r s"
# reader's own user time is small: below a third of the system time's.
awk -v r="$r" -v s="$stime" 'BEGIN { exit !(s >= 30 && r * 1000 < s / 3) }' ||
    fail "user mode: reader has $r s of $stime ms of system time"

PROFFLAGS=-kernel ./a.out > times
if [ "$(meta 30)" = 1 ]; then
	expect_eq "$(line)" "perf_event task-clock: times are CPU time, kernel mode too (-kernel), the kernel's charged to the user code that entered it" "-kernel: -s"
	read utime stime < times
	r=$(incl reader)
	t=$("$PROF" -s a.out 2>&1 >/dev/null |
	    awk '/samples in this report/ { print $1 }')
	echo "-kernel: user $utime ms, system $stime ms, reader $r s, $t samples"
	# reader has most of the system time; all samples about the CPU time.
	awk -v r="$r" -v s="$stime" -v u="$utime" -v t="$t" 'BEGIN {
	    exit !(r * 1000 >= s * 0.6 && t >= (u + s) * 0.7) }' ||
	    fail "-kernel: reader $r s, $t samples, for $utime + $stime ms"
else
	expect_eq "$(meta 30)" 0 "-kernel: the kernel key"
	echo "-kernel refused here: $(cat /proc/sys/kernel/perf_event_paranoid)"
fi

# Refused: as another user where perf_event_paranoid keeps the kernel.
if [ "$(id -u)" = 0 ] && command -v setpriv > /dev/null &&
    [ "$(cat /proc/sys/kernel/perf_event_paranoid)" -ge 2 ]; then
	mkdir w
	chmod 777 w
	cp a.out w/
	(cd w && PROFFLAGS=-kernel setpriv --reuid=65534 --regid=65534 \
	    --clear-groups ./a.out > /dev/null)
	cd w
	expect_eq "$(meta 30)" 0 "refused: the kernel key"
	expect_eq "$(line)" "perf_event task-clock: times are user-mode CPU time (-kernel was refused: perf_event_paranoid is above 1 and the process has no CAP_PERFMON)" "refused: -s"
fi
exit 0
