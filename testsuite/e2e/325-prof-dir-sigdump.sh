# 325-prof-dir-sigdump: a -sigdump run leaves one file per interval,
# <pid>.<prog>.1, .2 and the exit's <pid>.<prog> (mon.out.1, ... without
# a directory), and gmon.out beside each under the same number; prof
# given the directory sums them all (it read only the exit's, the last
# interval), and -G finds each numbered dump's gmon.out.  Names the
# runtime never gives (.0, .01, .1.2, .gmon.1) are not read.
. "$E2E/300-prof.subr"
mp_cc -p -O2 -o prog "$E2E/325-prof-dir-sigdump.c"
in_profdir d env PROFFLAGS="-sigdump USR1" ./prog
expect_eq "$(ls d | tr '\n' ' ')" "$pid.prog $pid.prog.1 $pid.prog.2 " "files"
for n in 0 01 1.2 gmon.1; do
	cp "d/$pid.prog.1" "d/$pid.prog.$n"
done
calls prog d > got
printf '%s\n' 'f 60' 'g 3' 'main 1' > want
expect_file want got
expect_eq "$(summed prog d)" 3 "profiles summed"

# -pg: the call graph of every interval, from the numbered gmon.out.
mp_cc -pg -O2 -o prog "$E2E/325-prof-dir-sigdump.c"
rm -r d
in_profdir d env PROFFLAGS="-sigdump USR1" ./prog
callgraph prog d > got
cat > want <<'END'
f: 60 calls
    callers:
            60  g

g: 3 calls
    callers:
             3  main
    callees:
            60  f

main: 1 call
    callers:
             1  <external>
    callees:
             3  g
END
expect_file want got

# Without a directory: mon.out.2 and its gmon.out.2, the second interval.
PROFFLAGS="-sigdump USR1" ./prog
callgraph prog mon.out.2 > got
cat > want <<'END'
f: 20 calls
    callers:
            20  g

g: 1 call
    callers:
             1  main
    callees:
            20  f
END
expect_file want got
exit 0
