# 149-fatal-threads: a program that dies of its own SIGSEGV or SIGABRT in
# main while another thread runs (149-fatal-threads.c) has its profile
# whole on disk by the time its parent's wait returns, as exit() has
# (122-exit-race): checked at once after the shell's wait, 50 runs each
# of -p and -pg, the signals in turn: the status is the signal's, and
# mon.out (and gmon.out) are there, prof reads mon.out (gprof, where
# there is one, gmon.out), and f's 3 calls are counted.
ulimit -c 0
GPROF=$(command -v gprof || :)
mp_cc -p -O2 -pthread -o p "$E2E/149-fatal-threads.c"
mp_cc -pg -O2 -pthread -o pg "$E2E/149-fatal-threads.c"
for exe in p pg; do
	i=0
	while [ $i -lt 50 ]; do
		how=segv want=139
		[ $((i % 2)) = 1 ] && how=abrt want=134
		what="$exe $how run $i"
		rm -f mon.out gmon.out
		st=0
		"./$exe" $how 2> err || st=$?
		expect_eq "$st" $want "$what: status"
		grep monprof err && fail "$what: stderr: $(cat err)"
		[ -f mon.out ] || fail "$what: no mon.out when its wait returned"
		"$PROF" "./$exe" mon.out > /dev/null 2> proferr ||
		    fail "$what: prof mon.out: $(cat proferr)"
		if [ $exe = pg ]; then
			[ -f gmon.out ] ||
			    fail "$what: no gmon.out when its wait returned"
			[ -z "$GPROF" ] || expect_eq "$(gprof -b -p "./$exe" |
			    awk '$NF == "f" { print $4 }')" 3 \
			    "$what: gprof's calls of f"
		fi
		expect_eq "$(count_of f "./$exe")" 3 "$what: calls of f"
		ls -a | grep -q '\.tmp$' && fail "$what: temporary file left"
		i=$((i + 1))
	done
done
true
