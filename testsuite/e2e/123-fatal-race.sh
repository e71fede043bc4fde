# 123-fatal-race: signals during the crash-time or exit-time write.
# SIGTERM again and again, or SIGTERM then SIGINT, SIGHUP and SIGQUIT in
# turn: the program dies of SIGTERM, the first, as without profiling
# (mixed: of one of the four, as which handler runs first is a race), and
# its profile is whole (13 of 60 runs left mon.out.<pid>.tmp and no
# profile; mixed: 6 of 60).  A thread crashing while main exits: the
# program exits 0 or dies of SIGSEGV, as without profiling, and writes
# one whole profile (14 of 150 runs: no profile, a partial temporary
# file, no message).  SIGKILL while the profile is written leaves no
# temporary file (the file is nameless until whole): 20 kills, at 0.1 to
# 0.3 s (a named temporary file was left by 1 kill in 6).
rt_cc -O2 -o a.out "$E2E/123-fatal-race.c"
ulimit -c 0
for how in term mixed; do
	i=0
	while [ $i -lt 60 ]; do
		rm -f mon.out
		st=0
		./a.out $how 2> err || st=$?
		# Mixed: a signal sent 20 us after SIGTERM can reach its
		# handler first on a loaded machine (the kernel kills at the
		# first one only without handlers): any of the four, then.
		case $how.$st in
		term.143|mixed.143|mixed.130|mixed.129|mixed.131) ;;
		*) fail "$how run $i: exit status $st" ;;
		esac
		grep monprof err && fail "$how run $i: stderr: $(cat err)"
		expect_eq "$(count_of f)" 5 "$how run $i: calls of f"
		ls -a | grep -q '\.tmp$' && fail "$how run $i: temporary file"
		i=$((i + 1))
	done
done
i=0
while [ $i -lt 150 ]; do
	rm -f mon.out
	st=0
	./a.out segv 2> err || st=$?
	case $st in 0|139) ;; *) fail "segv run $i: exit status $st" ;; esac
	grep monprof err && fail "segv run $i: stderr: $(cat err)"
	expect_eq "$(count_of f)" 5 "segv run $i (status $st): calls of f"
	ls -a | grep -q '\.tmp$' && fail "segv run $i: temporary file left"
	i=$((i + 1))
done
for round in 1 2 3 4; do
	for delay in 0.1 0.15 0.2 0.25 0.3; do
		./a.out dumps &
		pid=$!
		sleep $delay
		kill -KILL $pid
		wait $pid || true
		ls -a | grep -q '\.tmp$' &&
		    fail "SIGKILL after $delay s: temporary file"
	done
done
exit 0
