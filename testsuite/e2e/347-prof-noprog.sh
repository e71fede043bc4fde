# 347-prof-noprog: prof with no program finds the executable that wrote
# the profile (its path is recorded in mon.out) and checks its build-id;
# one that is gone is named by its recorded path in one line saying
# what to do; without a recorded path it falls back to a.out, as
# classic prof does.
. "$E2E/300-prof.subr"
mkdir bin run
printf 'int __attribute__((noinline)) f(int x) { return x + 1; }\nint main(void) { int s = 0; for (int i = 0; i < 5; i++) s += f(i); return s == 0; }\n' > p.c
mp_cc -p -O2 -Wl,--build-id -o bin/prog p.c
cd run
../bin/prog
"$PROF" ../bin/prog > want 2>&1
"$PROF" > got 2>&1 || fail "prof with no program: status $?"
expect_file want got
expect_eq "$(awk '$NF == "f" { print $4 }' got)" 5 "f's calls"
# Rebuilt since: refused by build-id, not misread.
(cd .. && mp_cc -p -O0 -Wl,--build-id -o bin/prog p.c)
st=0
"$PROF" > got 2>&1 || st=$?
expect_eq $st 1 "rebuilt program: status"
grep -q "profile of another executable (build-id" got ||
    fail "rebuilt program: $(cat got)"
# Gone: named by the path the profile records, not taken for a.out.
rm ../bin/prog
st=0
"$PROF" > got 2>&1 || st=$?
expect_eq $st 1 "no program: status"
expect_eq "$(cat got)" "prof: mon.out: the program it records, $(cd .. && pwd -P)/bin/prog: No such file or directory; if it is elsewhere, name it: prof PROG mon.out" \
    "no program"
# No path recorded (a classic mon.out): a.out.
printf 'range 0 0\n' | "$MKMON" mon.out
st=0
"$PROF" > got 2>&1 || st=$?
expect_eq $st 1 "classic: status"
expect_eq "$(cat got)" "prof: a.out: No such file or directory; name the executable the profile is of: prof PROG mon.out" \
    "classic"
