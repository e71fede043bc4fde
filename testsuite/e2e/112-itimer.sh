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
[ "$spin" -ge $((want * 3 / 4)) ] && [ "$spin" -le $((want * 5 / 4)) ] ||
    fail "spin has $spin samples, want about $want"
exit 0
