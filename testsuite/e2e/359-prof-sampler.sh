# 359-prof-sampler: the sampler and rate a profile recorded, and what
# its times are, in -s's summary, the JSON header and pprof's comment;
# the classic report is the same with or without it, and a profile
# that recorded none (a classic mon.out) says nothing of it.
. "$E2E/300-prof.subr"
sample
standard | "$MKMON" none.out
"$PROF" sample none.out > plain
"$PROF" -s sample none.out 2>&1 > /dev/null | grep -c 'sampled by' > out ||
    true
expect_eq "$(cat out)" 0 "no sampler recorded: -s"
# check N TEXT NAME: a profile of sampler N at 1000 per second.
check() {
	{ standard 1000; echo "meta 4 $1"; } | "$MKMON" mon.out
	"$PROF" sample > out
	# The same rows: only the rate, 1000 rather than 100, scales them.
	"$PROF" -h sample | wc -l > n
	expect_eq "$(cat n)" "$(($(wc -l < plain) - 1))" "$3: rows"
	head -n 1 out > h
	expect_eq "$(cat h)" "$(head -n 1 plain)" "$3: heading"
	"$PROF" -s sample 2>&1 > /dev/null | grep -A1 'samples per second' > out
	printf ' 1000 samples per second (recorded)\n      sampled by the %s\n' \
	    "$2" > want
	expect_file want out
	"$PROF" --format=json sample | head -n 1 | grep -o '"rate": [^s]*"sampler": [^,]*' > out
	expect_eq "$(cat out)" "\"rate\": 1000, \"sampler\": \"$3\"" "$3: JSON"
	"$PROF" --pprof=p.pb.gz sample > /dev/null
	gzip -dc p.pb.gz | grep -ac "sampled by the $2, 1000 per second" > out ||
	    true
	expect_eq "$(cat out)" 1 "$3: pprof comment"
}
check 1 "perf_event task-clock: times are user-mode CPU time (PROFFLAGS=-kernel adds kernel mode)" perf
check 3 "perf_event cpu-clock per CPU: times are user-mode CPU time (PROFFLAGS=-kernel adds kernel mode)" perf-cpu
check 2 "CPU-time timer (SIGPROF): times are CPU time, charged to the user code running" itimer
