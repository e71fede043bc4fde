# 431-fork-storm: a process that forks often goes on the CPU timer
# (runtime/sampler.c): after 16 forks in a row, each within 1 ms of the
# last, its fork handler stops the perf sampler (the events switched at
# each wait for a child, the helper thread) and the timer samples, as
# in a fork child, until 10 ms of CPU without a fork, when perf starts
# again, or sooner where the program is about to handle SIGPROF, or
# where the timer takes no sample (SIGPROF blocked for good).  Not where
# the forks are a signal handler's, the program has another thread, or
# it blocks SIGPROF (until it unblocks it: dash and Python block every
# signal around a fork).  Its counts stay exact and its samples whole.
# glibc's single-threaded flag, which a privileged process's helper (a
# pthread) clears, is set again once the helper is gone, where only the
# runtime's thread cleared it (runtime/single.c): after the forks, and
# in every fork child (the program checks each child's).
# As the user the tests run as and, for root, as nobody.
mp_cc -p -O2 -o a.out "$E2E/431-fork-storm.c"

# run USER MODE: the report in MODE.out, the profile MODE.mon.
run() {
	user_dir "d.$2"
	$(as_user "$1") env PROFDIR="d.$2" ./a.out "$2" 300 300 > "$2.out" \
	    2> "$2.err" || fail "$1 $2: status $?: $(head -3 "$2.err")"
	[ ! -s "$2.err" ] || fail "$1 $2: stderr: $(head -3 "$2.err")"
	set -- "$1" "$2" d."$2"/*.a.out
	[ $# = 3 ] && [ -f "$3" ] || fail "$1 $2: profiles: $(ls "d.$2")"
	cp "$3" "$2.mon"
}
field() {
	awk -v k="$2" '$1 == k { print $2 }' "$1.out"
}
# sampled USER MODE: parent_work has at least 70 % of its CPU ms in samples.
sampled() {
	work=$(ticks a.out "$2.mon" | awk '$1 == "parent_work" { print $2 }')
	echo "$1 $2: parent_work $work samples in $(field "$2" cpu) ms"
	[ "${work:-0}" -ge $(($(field "$2" cpu) * 7 / 10)) ] ||
	    fail "$1 $2: parent_work $work samples in $(field "$2" cpu) ms"
}

for u in $(test_users); do
	run "$u" main
	case $(meta 4 main.mon) in
	1|3)	;;
	*)	skip "$u: the program is not sampled by perf (sampler $(meta 4 main.mon))" ;;
	esac
	# On the timer after the forks: no helper thread; then perf again.
	expect_eq "$(field main storm)" 1 "$u main: threads after the forks"
	expect_eq "$(field main after)" 2 "$u main: threads after 300 ms of work"
	expect_eq "$(field main single)" 11 "$u main: glibc's flags after the forks"
	case $(field main single2) in
	00|11)	;;
	*)	fail "$u main: glibc's flags after the work: $(field main single2)" ;;
	esac
	expect_eq "$(count_of fork_one ./a.out main.mon)" 300 \
	    "$u main: calls of fork_one"
	expect_eq "$(count_of parent_work ./a.out main.mon)" 1 \
	    "$u main: calls of parent_work"
	expect_eq "$(meta 3 main.mon)" 1000 "$u main: the rate its samples count at"
	cpu=$(field main cpu)
	work=$(ticks a.out main.mon | awk '$1 == "parent_work" { print $2 }')
	echo "$u main: parent_work $work samples in $cpu ms of CPU"
	[ "${work:-0}" -ge $((cpu * 7 / 10)) ] && [ "$work" -le $((cpu + 20)) ] ||
	    fail "$u main: parent_work $work samples in $cpu ms of CPU"
	# Every one of them with its caller, main, whichever sampler took it.
	whole=$(stacks a.out main.mon | awk '$1 ~ /main;parent_work$/ { n += $2 }
	    END { print n + 0 }')
	echo "$u main: $whole of them under main"
	[ "$whole" -ge $((work * 9 / 10)) ] ||
	    fail "$u main: $whole of $work samples of parent_work under main"

	# From a signal handler, or beside another thread: perf stays.
	run "$u" signal
	expect_eq "$(field signal storm)" 2 "$u signal: threads after the forks"
	expect_eq "$(field signal after)" 2 "$u signal: threads after the work"
	expect_eq "$(count_of fork_one ./a.out signal.mon)" 300 \
	    "$u signal: calls of fork_one"
	run "$u" thread
	expect_eq "$(field thread storm)" 3 "$u thread: threads after the forks"
	expect_eq "$(field thread after)" 3 "$u thread: threads after the work"
	expect_eq "$(field thread single)" 00 "$u thread: glibc's flags after the forks"
	# A thread of the program's began and ended: the flag stays clear.
	run "$u" joined
	expect_eq "$(field joined storm)" 1 "$u joined: threads after the forks"
	expect_eq "$(field joined single)" 00 "$u joined: glibc's flags after the forks"
	# It cancelled itself: glibc's own byte stays clear.
	run "$u" cancel
	expect_eq "$(field cancel storm)" 1 "$u cancel: threads after the forks"
	expect_eq "$(field cancel single)" 10 "$u cancel: glibc's flags after the forks"
	# SIGPROF blocked: the timer would take no sample; perf stays.
	run "$u" block
	expect_eq "$(field block storm)" 2 "$u block: threads after the forks"
	sampled "$u" block

	# Every signal blocked around each fork: on the timer all the same.
	run "$u" around
	expect_eq "$(field around storm)" 1 "$u around: threads after the forks"
	expect_eq "$(field around after)" 2 "$u around: threads after the work"

	# SIGPROF blocked for good on the timer: perf back at once, or,
	# where the program blocks it around its forks, at a later fork.
	run "$u" blockafter
	expect_eq "$(field blockafter after)" 2 "$u blockafter: threads after the work"
	sampled "$u" blockafter
	run "$u" blocklate
	expect_eq "$(field blocklate storm)" 1 "$u blocklate: threads after the forks"
	expect_eq "$(field blocklate blocked)" 2 "$u blocklate: threads after the blocked forks"
	sampled "$u" blocklate
	expect_eq "$(count_of fork_one ./a.out blocklate.mon)" 600 \
	    "$u blocklate: calls of fork_one"

	# The program ignores SIGPROF after the forks: perf again at once.
	run "$u" sigign
	expect_eq "$(field sigign storm)" 1 "$u sigign: threads after the forks"
	expect_eq "$(field sigign after)" 2 "$u sigign: threads after the work"
	case $(meta 4 sigign.mon) in
	1|3)	;;
	*)	fail "$u sigign: sampler $(meta 4 sigign.mon)" ;;
	esac
	sampled "$u" sigign

	# An exec that fails: the timer again, then perf.
	run "$u" execfail
	expect_eq "$(field execfail after)" 2 "$u execfail: threads after the work"
	sampled "$u" execfail
done
