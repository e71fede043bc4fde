# 163-ranges: monitor(MON_RANGES, 0, args, n, 0) profiles several
# disjoint ranges (two functions of the executable, one of a shared
# object) with 32-bit counters, sorts args by decreasing lowpc, refuses
# overlapping or unmapped ranges with EINVAL, and prof names each
# range's time.
mp_cc -p -O2 -fPIC -shared -o libwork.so "$E2E/160-objects.lib.c"
mp_cc -p -O2 -I"$SRCDIR/include" -o a.out "$E2E/163-ranges.c" -L. -lwork \
    -Wl,-rpath,"$PWD"
PROFFLAGS=-disable_default ./a.out > out || fail "exit status $?"
expect_eq "$(cat out)" "counted 1 1 1" "every range counted"
expect_eq "$(meta 10)" "$("$PROF" -s a.out 2>&1 >/dev/null |
    awk '/samples in this report/ { print $1 }')" "every sample reported"
"$PROF" a.out > report 2> err
expect_file /dev/null err
cat report
for f in hot1 hot2 work; do
	awk -v f=$f '$NF == f && $2 > 0 { y = 1 } END { exit !y }' report ||
	    fail "$f has no time"
done
