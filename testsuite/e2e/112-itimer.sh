# 112-itimer: the setitimer fallback (PROFFLAGS=-itimer): samples land in
# the hot function, the rate recorded is what the kernel delivered
# (samples per CPU-second, at most the 1000 Hz asked), and the samples in
# spin agree with it for 0.5 s of CPU within 25%.
rt_cc -O2 -o a.out "$E2E/102-hot.c"
PROFFLAGS=-itimer ./a.out
expect_eq "$(meta 4)" 2 "sampler"
rate=$(meta 3)
[ "$rate" -ge 50 ] && [ "$rate" -le 1000 ] || fail "rate $rate"
counts a.out >/dev/null
ticks a.out > ticks
cat ticks
expect_eq "$(head -n 1 ticks | cut -d' ' -f1)" spin "hottest function"
spin=$(awk '$1 == "spin" { print $2 }' ticks)
want=$((rate / 2))
[ "$spin" -ge $((want * 3 / 4)) ] && [ "$spin" -le $((want * 5 / 4)) ] ||
    fail "spin has $spin samples, want about $want"
exit 0
