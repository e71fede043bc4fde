# 320-prof-callgraph: prof -G lists each function's callers and callees
# with the exact counts of the same -pg run's gmon.out (<external> for
# qsort's calls and main's), in the report's order; -l folds as the
# report does; PROFDIR files and --gmon work; a gmon.out of another run
# is refused in one line, and so is a -p profile without stacks; a -p
# profile with stacks gets the graph without counts.
. "$E2E/300-prof.subr"
mp_cc -pg -O1 -o cg "$E2E/320-prof-callgraph.c"
./cg

callgraph -n cg > out
cat > want <<'END'
cmp: 5 calls
    callers:
             5  <external>

fib: 177 calls
    callers:
           176  fib
             1  main
    callees:
           176  fib

leaf: 1001 calls
    callers:
          1000  work
             1  main

main: 1 call
    callers:
             1  <external>
    callees:
            10  work
             1  fib
             1  leaf

work: 10 calls
    callers:
            10  main
    callees:
          1000  leaf
END
expect_file want out
# The counts are gprof's.
. "$E2E/400-gprof.subr"
expect_eq "$(graph cg | grep ' work ')" "main work 10/10" "gprof agrees"

# -l: the statics' calls are not shown, as in the flat report.
callgraph -l -n cg 2>/dev/null > out
cat > want <<'END'
main: 1 call
    callers:
             1  <external>
    callees:
            10  work

work: 10 calls
    callers:
            10  main
END
expect_file want out

# A PROFDIR run: <pid>.cg beside <pid>.cg.gmon; and --gmon names one.
mkdir d
PROFDIR=d ./cg x
callgraph -n cg d | sed -n '/^work/,$p' > out
printf '%s\n' "work: 20 calls" "    callers:" "            20  main" \
    "    callees:" "          2000  leaf" > want
expect_file want out
cp gmon.out one.gmon
"$PROF" -G --gmon=one.gmon cg > /dev/null

# A gmon.out of another run (other counts): refused.
./cg x
bounded out err -G --gmon=one.gmon cg
expect_eq $st 1 "another run: exit status"
expect_eq "$(cat err)" "prof: one.gmon: not of the run the profile is of: the calls of 2 functions differ (leaf: 2001 in the profile, 1001 in the arcs); rerun the program to write both again" \
    "another run"

# A -p profile: its stacks give the graph, without counts; a stale
# gmon.out of the -pg build beside it gives a warning, not its counts.
mp_cc -p -O1 -o cgp "$E2E/320-prof-callgraph.c"
mkdir p
(cd p && ../cgp)
bounded out err -G cgp p/mon.out
expect_eq $st 0 "-p with stacks: exit status"
expect_file /dev/null err
# (It runs too briefly for samples: 143 has the stacks' edges.)
grep -q '^work: 10 calls, ' out || fail "-p with stacks: no work: $(cat out)"
grep -q '^ *[0-9][0-9]*  ' out && fail "-p with stacks: counts: $(cat out)"
cp gmon.out p/gmon.out
bounded out err -G cgp p/mon.out
expect_eq $st 0 "-p with stacks, stale gmon.out: exit status"
expect_eq "$(cat err)" "prof: p/gmon.out: not of the run the profile is of: its histogram is of another program: no call counts" \
    "-p with stacks, stale gmon.out"
rm p/gmon.out

# Without stacks (PROFFLAGS -nostacks), the graph needs -pg's arcs.
(cd p && PROFFLAGS=-nostacks ../cgp)
bounded out err -G cgp p/mon.out
expect_eq $st 1 "-p: exit status"
expect_eq "$(cat err)" "prof: p/mon.out: no p/gmon.out beside it: the call graph needs a -pg build (gcc -pg) and the gmon.out of its run" \
    "-p"
PROFFLAGS=-nostacks ./cgp
bounded out err -G cgp
expect_eq $st 1 "-p, stale gmon.out: exit status"
expect_eq "$(cat err)" "prof: gmon.out: not of the run the profile is of: its histogram is of another program; name the run's: --gmon=FILE" \
    "-p, stale gmon.out"
