# 160-objects: the time of shared objects is sampled and reported with
# no option: an instrumented object's functions by name with their exact
# calls, an object built without -p as one row <libplain.so>; %Time is of
# every sample, and prof -s says how many each object holds.
mp_cc -p -O2 -fPIC -shared -o libwork.so "$E2E/160-objects.lib.c"
"$CC" -O2 -fPIC -shared -DNAME=plain -o libplain.so "$E2E/160-objects.lib.c"
mp_cc -p -O2 -o a.out "$E2E/160-objects.c" -L. -lwork -lplain \
    -Wl,-rpath,"$PWD"
./a.out > out
"$PROF" a.out > report 2> err
expect_file /dev/null err
cat report
# row NAME: its seconds and calls (0 when it has none)
row() { awk -v f="$1" '$NF == f { print $2, (NF >= 6 ? $4 : 0) }' report; }
set -- $(row work); w_s=$1 w_calls=$2
set -- $(row '<libplain.so>'); p_s=$1
set -- $(row mine); m_s=$1
expect_eq "$w_calls" 40 "calls of work in libwork.so"
# About a third each: each at least a fifth of the time sampled (0.05 s
# each, the mean here, failed under load and would on a faster CPU).
awk -v w="$w_s" -v p="$p_s" -v m="$m_s" 'BEGIN { t = w + p + m
    exit !(t > 0 && w >= t / 5 && p >= t / 5 && m >= t / 5) }' ||
    fail "work $w_s s, <libplain.so> $p_s s, mine $m_s s: each should have a third"
[ -z "$(row plain)" ] || fail "plain named without -all"
# Every sample taken is in the report.
"$PROF" -s a.out > /dev/null 2> sum
expect_eq "$(awk '/samples in this report/ { print $1 }' sum)" "$(meta 10)" \
    "samples in the report = samples taken"
grep -q "samples in $PWD/libplain.so\$" sum ||
    fail "prof -s names no samples in libplain.so"
grep -q "samples in $PWD/libwork.so\$" sum ||
    fail "prof -s names no samples in libwork.so"
pct=$(awk 'NR > 1 { s += $1 } END { printf "%.0f", s }' report)
[ "$pct" -ge 99 ] && [ "$pct" -le 101 ] || fail "%Time adds up to $pct"
# -O: one object's rows only.
"$PROF" -O libwork.so a.out > only
expect_eq "$(awk 'NR > 1 { print $NF }' only)" work "-O libwork.so rows"
