# 151-hist-bins: the mon.out of 101-basic's program has its histogram
# over the executable's text at link time (lpc at or below main) in
# whole BARSIZE (8-byte) bins from an aligned lpc (PIE and non-PIE).
for pie in -pie -no-pie; do
	basic $pie
	lpc=$("$MONDUMP" mon.out | awk '$1 == "hdr" { print $2 }')
	main=$(nm a.out | awk '$3 == "main" { print $1 }')
	[ "$lpc" -le "$(printf %d 0x$main)" ] || fail "$pie lpc $lpc above main"
	"$MONDUMP" mon.out | awk '$1 == "hdr" && ($2 % 8 != 0 ||
	    $3 - $2 != 8 * $5) { exit 1 }' ||
	    fail "$pie: bins are not BARSIZE bytes from an aligned lpc"
done
exit 0
