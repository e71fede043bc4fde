# 122-exit-race: main returns while worker threads call exit(): each run
# writes one whole profile, with no message and no temporary file (none
# in 200 of 200 runs: the exit that did not run the runtime's destructor
# ended the process while the other one wrote).  The writer process
# outlives the program when an exit it could not hold ends it: the file
# may appear a few milliseconds after the program has ended.  15 workers
# (main and 15 exits: as many as the runtime's 16 holds catch) for the
# holds themselves: without them an exit ended the process before the
# writer had started, no profile in 7 of 100 runs (3 workers: 2 of 100).
# Through the specs file, which wraps exit() (runtime/exit.c) so that
# one thread runs it and the others wait for the end, any number of
# threads may exit together: 31 and 63 (without the wrapper the exit
# handlers ran out and the profile was lost in 49 of 100 runs of 31
# threads under load, 2 of 40 and 1 of 40 (63) on an idle machine).
# It wraps main too, whose return is then such an exit(): the profile
# is on disk when the program's parent sees it end, checked at once
# after each run (it was written after the end in 10 to 22% of runs),
# and when the program is PID 1 of a PID namespace, whose end kills the
# writer process if it is still writing (no profile in 19 of 40 runs).
rt_cc -O2 -o rt "$E2E/122-exit-race.c"
mp_cc -p -O2 -DBY_PLUGIN -I"$SRCDIR/include" -o mp "$E2E/122-exit-race.c"
for run in "rt 1" "rt 3" "rt 15" "mp 31" "mp 63"; do
	set -- $run
	cp $1 a.out
	n=$2
	i=0
	while [ $i -lt 100 ]; do
		rm -f mon.out
		./a.out $n 2> err || fail "$n workers, run $i: status $?"
		[ -s err ] && fail "$n workers, run $i: stderr: $(cat err)"
		j=0
		while [ $1 = rt ] && [ ! -f mon.out ] && [ $j -lt 50 ]; do
			sleep 0.1
			j=$((j + 1))
		done
		[ -f mon.out ] || fail "$n workers: no mon.out in run $i"
		expect_eq "$(count_of f)" 5 "$n workers, run $i: calls of f"
		ls -a | grep -q '\.tmp$' && fail "$n workers, run $i: temporary file"
		i=$((i + 1))
	done
done
# PID 1 of a PID namespace, where root may make one.
if unshare --pid --fork true 2> /dev/null; then
	cp mp a.out
	i=0
	while [ $i -lt 40 ]; do
		rm -f mon.out
		unshare --pid --fork ./a.out 31 2> err ||
		    fail "PID 1, run $i: status $?"
		[ -f mon.out ] || fail "PID 1: no mon.out in run $i"
		expect_eq "$(count_of f)" 5 "PID 1, run $i: calls of f"
		i=$((i + 1))
	done
fi
exit 0
