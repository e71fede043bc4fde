# 134-thread-churn: 20,000 short-lived threads, 4 alive at a time, each
# calling 256 functions 3 times.  The storage of a thread that has
# ended (its -p slots, its -pg arc table) goes to a thread that starts
# later, so the profiled program's peak RSS stays within 16 MiB of the
# plain build's (it was 160 MB under -p, 480 MB under -pg), and every
# count is exact: each function 60,000 calls, worker 20,000, main 1,
# 20,001 threads.  The same with every signal blocked in the threads.
# (-p: each thread's lease holds its counters' tallies, 256 x 24 bytes.)
NTHR=20000
PER=$((NTHR * 3))
LIMIT=$((16 * 1024))		# KiB
"$CC" -O2 -pthread -o plain "$E2E/134-thread-churn.c"
mp_cc -p -O2 -pthread -o p "$E2E/134-thread-churn.c"
mp_cc -pg -O2 -pthread -o pg "$E2E/134-thread-churn.c"
# -p counts in the executable's thread-local counters (hook ABI 3).
readelf -SW p | grep -q ' __mon_pcells ' || fail "p: no __mon_pcells section"
base=$(./plain $NTHR) || fail "plain: status $?"
echo "plain: $base KiB"

# same NAME FILE: how many functions f* of FILE ("name count") have
# exactly PER calls, and NAME's count.
same() {
	awk -v per=$PER '$1 ~ /^f[0-3]+$/ && $2 == per { n++ }
	    END { print n + 0 }' "$1"
}
count_in() {
	awk -v f="$1" '$1 == f { print $2 }' "$2"
}

# check EXE [block]: run, bound the peak RSS, check the counts.
check() {
	what="$*"
	rm -f mon.out gmon.out
	rss=$(./$1 $NTHR 4 ${2:-}) || fail "$what: status $?"
	echo "$what: $rss KiB"
	[ "$rss" -le $((base + LIMIT)) ] ||
	    fail "$what: peak RSS $rss KiB, plain $base KiB"
	counts ./$1 > counts
	expect_eq "$(same counts)" 256 "$what: functions called $PER times"
	expect_eq "$(count_in worker counts)" $NTHR "$what: worker"
	expect_eq "$(count_in main counts)" 1 "$what: main"
	expect_eq "$(meta 12)" $((NTHR + 1)) "$what: threads"
}
check p
check p block
check pg
# gprof reads the arcs of gmon.out: the same counts.
if command -v gprof >/dev/null 2>&1; then
	gprof -b -p pg gmon.out | awk 'NF == 7 && $4 ~ /^[0-9]+$/ {
	    print $7, $4 }' > flat
	expect_eq "$(same flat)" 256 "gprof: functions called $PER times"
	expect_eq "$(count_in worker flat)" $NTHR "gprof: worker"
fi
exit 0
