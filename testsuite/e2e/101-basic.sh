# 101-basic: a program linked with the runtime writes ./mon.out at exit
# with exact counts (a constructor's call included), link-time fnpc
# (PIE and non-PIE), the format marker, the sampling rate, the pid, and
# histogram bins of exactly BARSIZE bytes.
for pie in -pie -no-pie; do
	rm -f mon.out
	rt_cc -O2 $pie -fPIE -o a.out "$E2E/101-basic.c"
	./a.out &
	pid=$!
	wait $pid || fail "$pie: exit status"
	[ -f mon.out ] || fail "$pie: no mon.out"
	expect_eq "$(count_of leaf)" 1235 "$pie leaf"
	expect_eq "$(count_of caller)" 2 "$pie caller"
	expect_eq "$(count_of main)" 1 "$pie main"
	expect_eq "$(counts a.out | grep -c '^?')" 0 "$pie unmapped cells"
	expect_eq "$(meta 1)" 3559655092786196333 "$pie magic"
	expect_eq "$(meta 2)" 1 "$pie version"
	expect_eq "$(meta 9)" "$pid" "$pie pid"
	[ "$(meta 3)" -ge 100 ] || fail "$pie rate $(meta 3)"
	expect_eq "$(meta 12)" 1 "$pie threads"
	# header range = the executable's text at link time
	lpc=$("$MONDUMP" mon.out | awk '$1 == "hdr" { print $2 }')
	main=$(nm a.out | awk '$3 == "main" { print $1 }')
	[ "$lpc" -le "$(printf %d 0x$main)" ] || fail "$pie lpc $lpc above main"
	# whole 8-byte bins (BARSIZE) from an aligned lpc
	"$MONDUMP" mon.out | awk '$1 == "hdr" && ($2 % 8 != 0 || $3 - $2 != 8 * $5) {
	    exit 1 }' || fail "$pie: bins are not BARSIZE bytes from an aligned lpc"
	ls mon.out.* 2>/dev/null && fail "$pie temporary file left"
done
exit 0
