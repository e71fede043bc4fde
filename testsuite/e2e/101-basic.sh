# 101-basic: a program linked with the runtime writes ./mon.out at exit
# with exact counts (a constructor's call included), link-time fnpc
# (PIE and non-PIE), the format marker and the sampling rate.
for pie in -pie -no-pie; do
	rm -f mon.out
	rt_cc -O2 $pie -fPIE -o a.out "$E2E/101-basic.c"
	./a.out
	[ -f mon.out ] || fail "$pie: no mon.out"
	expect_eq "$(count_of leaf)" 1235 "$pie leaf"
	expect_eq "$(count_of caller)" 2 "$pie caller"
	expect_eq "$(count_of main)" 1 "$pie main"
	expect_eq "$(counts a.out | grep -c '^?')" 0 "$pie unmapped cells"
	expect_eq "$(meta 1)" 3559655092786196333 "$pie magic"
	expect_eq "$(meta 2)" 1 "$pie version"
	expect_eq "$(meta 9)" "$(meta 9)" "pid"
	[ "$(meta 3)" -ge 100 ] || fail "$pie rate $(meta 3)"
	expect_eq "$(meta 12)" 1 "$pie threads"
	# header range = the executable's text at link time
	lpc=$("$MONDUMP" mon.out | awk '$1 == "hdr" { print $2 }')
	main=$(nm a.out | awk '$3 == "main" { print $1 }')
	[ "$lpc" -le "$(printf %d 0x$main)" ] || fail "$pie lpc $lpc above main"
	ls mon.out.* 2>/dev/null && fail "$pie temporary file left"
done
exit 0
