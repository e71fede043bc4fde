# 406-hist: gmon.out's histogram at the sampler's real rate: gprof says
# "Each sample counts as 0.001 seconds" (1000 Hz, perf sampler), spin
# has the most self time (about 0.4 s) and the call graph is there.
. "$E2E/400-gprof.subr"
mp_cc -pg -O2 "$E2E/406-hist.c" -o prog
./prog
expect_eq "$(meta 4)" 1 "sampler (perf)"
expect_eq "$(meta 3)" 1000 "rate"
gprof -b -p prog gmon.out > flat.txt
cat flat.txt
grep -q '^Each sample counts as 0.001 seconds.$' flat.txt || fail "sample size"
awk '$1 ~ /^[0-9.]+$/ && NF >= 4 { print $NF; exit }' flat.txt > top
echo spin > want
expect_file want top
awk '$NF == "spin" { s = $3 } END { exit !(s >= 0.3 && s <= 0.5) }' \
    flat.txt || fail "spin self seconds"
gprof -b -q prog gmon.out | grep -q 'each sample hit covers' ||
    fail "no call graph"
