# 131-sigdump: PROFFLAGS -sigdump SIG writes each dump to its own
# numbered file, <pid>.<prog>.1, .2, ... (mon.out.1, ... without a
# directory), each holding the work since the previous one, and the exit
# profile last under the plain name (each dump replaced the one before:
# the first interval was lost unless copied away in time); it accepts
# every signal name kill -l knows, RTMIN+n included, in any case, and
# names the value it refuses; a program that takes the signal over is
# told once, in one line that names the signal and says what to do: at
# once where the program's own signal() or sigaction() does it (the
# specs file wraps them), else at exit (a program linked with the
# runtime by hand); a handler the program installed before the runtime
# started is left alone, said in one line at start (the runtime
# replaced it: the program's handler never ran).
rt_cc -O2 -o prog "$E2E/131-sigdump.c"
mkdir d
# glibc's SIGRTMIN is 34, SIGRTMAX 64
for pair in USR1:10 sigusr2:12 SIGPWR:30 RTMIN+3:37 rtmax-2:62 10:10; do
	name=${pair%:*} sig=${pair#*:}
	rm -f d/*
	PROFDIR=d PROFFLAGS="-sigdump $name" ./prog $sig 2> err &
	pid=$!
	wait $pid || fail "$name: status $?"
	[ -s err ] && fail "$name: stderr: $(cat err)"
	expect_eq "$(ls d | tr '\n' ' ')" "$pid.prog $pid.prog.1 $pid.prog.2 " \
	    "$name: files"
	expect_eq "$(count_of f prog d/$pid.prog.1)" 10 "$name: first dump"
	expect_eq "$(count_of f prog d/$pid.prog.2)" 20 "$name: second dump"
	expect_eq "$(count_of f prog d/$pid.prog)" 30 "$name: exit"
done
rm -f d/*
PROFFLAGS="-sigdump USR2" ./prog 12
expect_eq "$(ls | grep mon.out | tr '\n' ' ')" "mon.out mon.out.1 mon.out.2 " \
    "no directory: files"
expect_eq "$(count_of f prog mon.out.2)" 20 "no directory: second dump"
for bad in FOO KILL SEGV PROF RTMIN-1; do
	PROFFLAGS="-sigdump $bad" ./prog 0 2> err
	expect_eq "$(wc -l < err)" 1 "$bad: lines on stderr"
	grep -q "^monprof: PROFFLAGS: -sigdump $bad: .*, ignored$" err ||
	    fail "$bad: message: $(cat err)"
done
rm -f mon.out*
PROFFLAGS="-sigdump USR1" ./prog 10 take > out 2> err
expect_eq "$(cat out)" "the program's handler" "take: the program's handler"
expect_eq "$(ls | grep mon.out | tr '\n' ' ')" "mon.out mon.out.1 " \
    "take: files"
expect_eq "$(wc -l < err)" 1 "take: lines on stderr"
expect_eq "$(cat err)" "monprof: PROFFLAGS: -sigdump USR1: the program took SIGUSR1 over, no dump after that; choose a signal it leaves alone with -sigdump" \
    "take: message"
# Linked by the specs file: told when the program's handler goes in,
# before that handler runs (f is counted twice here: by the plugin and
# by hand, so only the files and lines are checked).
mp_cc -p -O2 -I"$SRCDIR/include" -o wrapped "$E2E/131-sigdump.c"
mp_cc -p -O2 -I"$SRCDIR/include" -static -o wrapped-static \
    "$E2E/131-sigdump.c"
# how the program takes it, -sigdump's word, the number, the name
for how in take:10:10:SIGUSR1 takeaction:usr2:12:SIGUSR2 \
    take:RTMIN+3:37:SIGRTMIN+3; do
	for exe in wrapped wrapped-static; do
		IFS=: read -r take sig num name <<-E
		$how
		E
		rm -f mon.out*
		PROFFLAGS="-sigdump $sig" ./$exe $num $take \
		    > out 2>&1 || fail "$exe $how: status $?"
		expect_eq "$(cat out)" "monprof: PROFFLAGS: -sigdump $sig: the program took $name over, no dump from now on; choose a signal it leaves alone with -sigdump
the program's handler" "$exe $how: lines"
		expect_eq "$(ls | grep mon.out | tr '\n' ' ')" \
		    "mon.out mon.out.1 " "$exe $how: files"
	done
done
rm -f mon.out*
PROFFLAGS="-sigdump USR1" ./prog 10 first > out 2> err
expect_eq "$(grep -c "^the program's handler$" out)" 2 \
    "first: the program's handler"
expect_eq "$(ls | grep mon.out | tr '\n' ' ')" "mon.out " "first: files"
expect_eq "$(count_of f prog)" 60 "first: calls of f"
expect_eq "$(wc -l < err)" 1 "first: lines on stderr"
expect_eq "$(cat err)" "monprof: PROFFLAGS: -sigdump USR1: the program handles SIGUSR1 itself, ignored; choose a signal it leaves alone with -sigdump" \
    "first: message"
exit 0
