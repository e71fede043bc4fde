# 103-threads: 8 threads x 200000 calls count exactly 1600000; threads
# are counted; a thread that blocks every signal is sampled as much as
# one that does not: equal CPU time, equal samples within 10%.
rt_cc -O2 -o a.out "$E2E/103-threads.c"
./a.out
expect_eq "$(count_of work)" 1600000 "work calls"
expect_eq "$(count_of spin_a)" 1 "spin_a calls"
expect_eq "$(meta 12)" 10 "threads that ran instrumented code"
ticks a.out > ticks
cat ticks
a=$(awk '$1 == "spin_a" { print $2 }' ticks)
b=$(awk '$1 == "spin_b" { print $2 }' ticks)
[ "${a:-0}" -ge 200 ] || fail "spin_a has ${a:-0} samples"
[ "${b:-0}" -ge $((a * 9 / 10)) ] && [ "$b" -le $((a * 11 / 10)) ] ||
    fail "spin_b (signals blocked) has ${b:-0} samples, spin_a $a"
exit 0
