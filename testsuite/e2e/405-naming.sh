# 405-naming: where gmon.out goes.  ./gmon.out beside ./mon.out;
# GMON_OUT_PREFIX -> prefix.<pid> (glibc); PROFDIR=d -> d/<pid>.prog and
# d/<pid>.prog.gmon; PROFDIR= -> nothing; a fork child writes its own,
# counted from zero; -sigdump (numbered: gmon.out.1) and monitor_signal
# dump it too.
. "$E2E/400-gprof.subr"
mp_cc -pg -O2 -I"$SRCDIR/include" "$E2E/405-naming.c" -o prog
./prog
[ -f gmon.out ] && [ -f mon.out ] || fail "default names"
expect_eq "$(calls_of f prog)" 15 "default f"
rm -f gmon.out mon.out

GMON_OUT_PREFIX=pre ./prog &
pid=$!
wait $pid
[ -f pre.$pid ] || fail "no pre.$pid: $(ls)"
[ -f gmon.out ] && fail "gmon.out beside pre.$pid"
expect_eq "$(calls_of f prog pre.$pid)" 15 "prefix f"
rm -f pre.* mon.out

mkdir d
PROFDIR=d ./prog &
pid=$!
wait $pid
expect_eq "$(ls d | tr '\n' ' ')" "$pid.prog $pid.prog.gmon " "PROFDIR files"
expect_eq "$(calls_of f prog d/$pid.prog.gmon)" 15 "PROFDIR f"
expect_eq "$(count_of f prog d/$pid.prog)" 15 "PROFDIR mon.out f"
rm -f d/*

PROFDIR= ./prog
expect_eq "$(ls | tr '\n' ' ')" "d prog " "PROFDIR= writes nothing"

PROFDIR=d ./prog fork &
pid=$!
wait $pid
expect_eq "$(ls d | wc -l)" 4 "fork: files"
child=$(ls d | grep -v "^$pid\\." | sed -n 's/\.prog\.gmon$//p')
[ -n "$child" ] || fail "fork: no child gmon: $(ls d)"
expect_eq "$(calls_of f prog d/$pid.prog.gmon)" 15 "fork: parent f"
expect_eq "$(calls_of g prog d/$pid.prog.gmon)" 0 "fork: parent g"
expect_eq "$(calls_of g prog d/$child.prog.gmon)" 20 "fork: child g"
expect_eq "$(calls_of f prog d/$child.prog.gmon)" 0 "fork: child f"

GMON_OUT_PREFIX=pre ./prog fork
expect_eq "$(ls pre.* | wc -l)" 2 "fork: prefix files"
rm -f pre.* mon.out

PROFFLAGS="-sigdump USR1" ./prog sigdump
expect_eq "$(ls | grep -c '^gmon.out')" 1 "-sigdump: gmon files"
expect_eq "$(calls_of f prog gmon.out.1)" 15 "-sigdump (numbered)"
[ -f mon.out.1 ] || fail "-sigdump: no mon.out.1"
rm -f gmon.out* mon.out*
./prog handler
expect_eq "$(calls_of f prog)" 15 "monitor_signal"
