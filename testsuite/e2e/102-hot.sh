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
nm -t d -S --defined-only a.out | awk '$3 ~ /^[Tt]$/ { print $1+0, $2+0, $4 }' > syms
"$MONDUMP" mon.out | awk -v syms=syms '
    BEGIN { while ((getline l < syms) > 0) { split(l, f, " "); n++;
	a[n] = f[1]; s[n] = f[2]; nm[n] = f[3] } }
    $1 == "hdr" { lpc = $2; hpc = $3; nb = $5 }
    $1 == "bin" { pc = lpc + $2 * (hpc - lpc) / nb; hit = "?";
	for (i = 1; i <= n; i++) if (a[i] <= pc && pc < a[i] + s[i]) hit = nm[i];
	t[hit] += $3 }
    END { for (k in t) print k, t[k] }' | sort -k2nr > ticks
cat ticks
expect_eq "$(head -n 1 ticks | cut -d' ' -f1)" spin "hottest function"
spin=$(awk '$1 == "spin" { print $2 }' ticks)
want=$((rate / 2))
[ "$spin" -ge $((want * 6 / 10)) ] && [ "$spin" -le $((want * 12 / 10)) ] ||
    fail "spin has $spin samples, want about $want"
expect_eq "$(meta 5)" 0 "saturated"
exit 0
