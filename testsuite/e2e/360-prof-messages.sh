# 360-prof-messages: a message that names a problem says what to do:
# -O naming no object of the profile is one line and exit 1, not an
# empty report; a profile of a rebuilt executable says it was rebuilt
# and to rerun it.
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
