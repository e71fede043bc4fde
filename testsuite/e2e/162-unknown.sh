# 162-unknown: samples in code of no object (a JIT's) are counted and
# reported as <unknown>, beside the program's own functions.
[ "$(uname -m)" = x86_64 ] || skip "the generated code is x86-64"
mp_cc -p -O2 -o a.out "$E2E/162-unknown.c"
st=0
./a.out > out || st=$?
[ $st -ne 77 ] || skip "no executable anonymous memory here"
expect_eq $st 0 "exit status"
[ "$(meta 19)" -gt 0 ] || fail "no sample in no object (meta 19)"
"$PROF" a.out > report 2> err
expect_file /dev/null err
cat report
awk '$NF == "<unknown>" && $2 > 0 { u = 1 } $NF == "mine" && $2 > 0 { m = 1 }
    END { exit !(u && m) }' report || fail "<unknown> and mine should have time"
