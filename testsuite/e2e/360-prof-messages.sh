# 360-prof-messages: a message that names a problem says what to do:
# -O naming no object of the profile is one line and exit 1, not an
# empty report; a profile of a rebuilt executable says it was rebuilt
# and to rerun it; a missing mon.out says what writes one, and that a
# gmon.out beside it is gprof's (304 has the damaged files' words).
. "$E2E/300-prof.subr"
sample
standard | "$MKMON" mon.out
set +e
"$PROF" -O nosuch sample > out 2> err
st=$?
set -e
expect_eq $st 1 "-O nosuch: exit status"
expect_eq "$(cat err)" "prof: -O nosuch: no such object in the profile: name the executable or a shared object the profile records (prof -s lists those with samples)" \
    "-O nosuch"
expect_file /dev/null out
"$PROF" -O sample sample > /dev/null || fail "-O sample: status $?"

{ standard; echo "buildid 0123456789abcdef"; } | "$MKMON" mon.out
set +e
"$PROF" sample > out 2> err
st=$?
set -e
expect_eq $st 1 "rebuilt: exit status"
grep -q 'it was rebuilt after the profile was written; rerun it, or name the binary that ran$' err ||
    fail "rebuilt: $(cat err)"

# No mon.out, glibc's gmon.out beside it (plain gcc -pg): say that gprof
# reads it and what writes a mon.out; the gmon.out named as the profile
# is told for what it is, not as a damaged mon.out.
mkdir g
printf 'int f(int x) { return x * 2; }\nint main(void) { return f(1) != 2; }\n' > g/m.c
(cd g && "$CC" -pg m.c -o m && ./m) || fail "cannot run a gcc -pg program"
[ -f g/gmon.out ] || skip "gcc -pg wrote no gmon.out"
set +e
(cd g && "$PROF" m) > out 2> err
st=$?
set -e
expect_eq $st 1 "gmon.out beside: exit status"
expect_eq "$(cat err)" "prof: mon.out: No such file or directory; gmon.out beside it is gprof's (gcc -pg): read it with gprof PROG gmon.out, or build with gcc -specs=monprof.specs -p and rerun for a mon.out" \
    "gmon.out beside"
set +e
(cd g && "$PROF" m gmon.out) > out 2> err
st=$?
set -e
expect_eq $st 1 "gmon.out named: exit status"
expect_eq "$(cat err)" "prof: gmon.out: a gprof gmon.out, not a mon.out: read it with gprof PROG FILE; prof reads the mon.out of a program built with gcc -specs=monprof.specs -p or -pg" \
    "gmon.out named"
# Nothing beside it: what writes one.
set +e
(cd g && rm gmon.out && "$PROF" m) > out 2> err
st=$?
set -e
expect_eq $st 1 "no mon.out: exit status"
expect_eq "$(cat err)" "prof: mon.out: No such file or directory; run a program built with gcc -specs=monprof.specs -p to write it, or name the profile: prof PROG FILE" \
    "no mon.out"
