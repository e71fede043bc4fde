# 107-profdir: PROFDIR unset -> ./mon.out; empty -> no profiling and no
# file; dir -> dir/<pid>.<progname>; ignored by a setuid program, which
# writes no profile unless its code asks (132).
rt_cc -O2 -o prog "$E2E/101-basic.c"
./prog
[ -f mon.out ] || fail "unset: no ./mon.out"
expect_eq "$(count_of leaf prog)" 1235 "unset: leaf"
rm mon.out
PROFDIR= ./prog
expect_eq "$(ls)" prog "empty: files"
mkdir d
PROFDIR=d ./prog &
pid=$!
wait $pid
expect_eq "$(ls d)" "$pid.prog" "dir: file name"
expect_eq "$(count_of leaf prog d/$pid.prog)" 1235 "dir: leaf"
expect_eq "$(meta 9 d/$pid.prog)" "$pid" "dir: pid"
[ -f mon.out ] && fail "dir: ./mon.out written too"
# setuid (AT_SECURE): PROFDIR and PROFFLAGS are ignored, and nothing is
# written unless the program's own code asks
if [ "$(id -u)" = 0 ] && id nobody >/dev/null 2>&1; then
	chmod 777 .
	chown nobody prog && chmod u+s prog
	PROFDIR=d PROFFLAGS=-pids ./prog
	expect_eq "$(ls d | wc -l)" 1 "setuid: files in PROFDIR"
	[ -f mon.out ] && fail "setuid: a profile its code did not ask for"
fi
exit 0
