# 208-sampling: a program built with -p spends most of its CPU time in
# busy(); most of the histogram's ticks land inside busy().
cat > s.c <<'X'
#include <time.h>
__attribute__((noinline, noclone)) double busy(double x)
{
	for (long i = 0; i < 20000; i++)
		x = x * 1.0000001 + 0.5;
	return x;
}
__attribute__((noinline, noclone)) double idle(double x) { asm volatile(""); return x + 1; }
int main(void)
{
	double x = 0;
	clock_t end = clock() + CLOCKS_PER_SEC / 2;
	while (clock() < end)
		for (int i = 0; i < 100; i++)
			x = idle(busy(x));
	return x == 42;
}
X
mp_cc -p -O2 s.c -o a.out
./a.out
[ "$(count_of idle)" = "$(count_of busy)" ] || fail "busy/idle counts"
[ "$(count_of busy)" -gt 0 ] || fail "busy not counted"
nm -t d --defined-only -S a.out | awk '$3 ~ /^[Tt]$/ && $4 == "busy" { print $1 + 0, $2 + 0 }' > sym
"$MONDUMP" mon.out | awk -v sym="$(cat sym)" '
	BEGIN { split(sym, s, " "); a = s[1]; e = s[1] + s[2] }
	$1 == "hdr" { lpc = $2; hpc = $3; nb = $5 }
	$1 == "bin" { pc = lpc + ($2 + 0.5) * (hpc - lpc) / nb; all += $3
		if (pc >= a && pc < e) in_busy += $3 }
	END { print in_busy + 0, all + 0 }' > ticks
read in_busy all < ticks
echo "ticks in busy: $in_busy of $all"
[ "$all" -gt 0 ] || fail "no ticks"
[ $((in_busy * 10)) -ge $((all * 8)) ] || fail "only $in_busy of $all ticks in busy"
