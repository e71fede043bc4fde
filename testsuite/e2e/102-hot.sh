# 102-hot: the perf sampler at the default rate: the hottest bins lie in
# spin(), the recorded rate is >= 1000 Hz, and the number of samples in
# spin matches 0.5 s at that rate (-40% .. +20%: a virtual machine loses
# timer ticks to steal time, never gains them).
rt_cc -O2 -o a.out "$E2E/102-hot.c"
./a.out
expect_eq "$(meta 4)" 1 "sampler (perf)"
rate=$(meta 3)
[ "$rate" -ge 1000 ] || fail "rate $rate"
# bins -> pcs: lpc + i * (hpc - lpc) / nbins; which function holds them?
ticks a.out > ticks
cat ticks
expect_eq "$(head -n 1 ticks | cut -d' ' -f1)" spin "hottest function"
spin=$(awk '$1 == "spin" { print $2 }' ticks)
want=$((rate / 2))
[ "$spin" -ge $((want * 6 / 10)) ] && [ "$spin" -le $((want * 12 / 10)) ] ||
    fail "spin has $spin samples, want about $want"
expect_eq "$(meta 5)" 0 "saturated"
exit 0
