# 122-exit-race: main returns while worker threads call exit(): each run
# writes one whole profile, with no message and no temporary file (none
# in 200 of 200 runs: the exit that did not run the runtime's destructor
# ended the process while the other one wrote).  The writer process
# outlives the program when an exit it could not hold ends it: the file
# may appear a few milliseconds after the program has ended.  15 workers
# (main and 15 exits: as many as the runtime's 16 holds catch) for the
# holds themselves: without them an exit ended the process before the
# writer had started, no profile in 7 of 100 runs (3 workers: 2 of 100).
rt_cc -O2 -o a.out "$E2E/122-exit-race.c"
for n in 1 3 15; do
	i=0
	while [ $i -lt 100 ]; do
		rm -f mon.out
		./a.out $n 2> err || fail "$n workers, run $i: status $?"
		[ -s err ] && fail "$n workers, run $i: stderr: $(cat err)"
		j=0
		while [ ! -f mon.out ] && [ $j -lt 50 ]; do
			sleep 0.1
			j=$((j + 1))
		done
		[ -f mon.out ] || fail "$n workers: no mon.out in run $i"
		expect_eq "$(count_of f)" 5 "$n workers, run $i: calls of f"
		ls -a | grep -q '\.tmp$' && fail "$n workers, run $i: temporary file"
		i=$((i + 1))
	done
done
exit 0
