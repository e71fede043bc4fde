# 135-nfns-reserved: monitor() with a buffer of 600 cells and 19
# functions called: mon.out's nfns counts every cell reserved, as
# Solaris writes it, the 581 unused as zero cells after the others, so
# that prof -s says "19/600 call counts used" and the file is the
# header, the metadata, 600 cells and the histogram.  With 10 cells, 9
# functions take cells of a growth block of 600: 19/610.
mp_cc -p -O2 -I"$SRCDIR/include" -o a.out "$E2E/135-nfns-reserved.c"
for nfunc in 600 10; do
	rm -f mon.out
	PROFFLAGS=-disable_default ./a.out $nfunc > nbins ||
	    fail "$nfunc: exit status $?"
	reserved=$nfunc
	[ $nfunc -ge 19 ] || reserved=$((nfunc + 600))
	"$MONDUMP" mon.out > dump
	nmeta=$(awk '$1 == "meta" && $2 != 0' dump | wc -l)
	expect_eq "$(awk '$1 == "cell"' dump | wc -l)" 19 "$nfunc: cells"
	expect_eq "$(awk '$1 == "cell" && $3 == 1' dump | wc -l)" 19 \
	    "$nfunc: calls"
	expect_eq "$(awk '$1 == "meta" && $2 == 0 && $3 == 0' dump | wc -l)" \
	    $((reserved - 19)) "$nfunc: zero cells"
	expect_eq "$(awk '$1 == "hdr" { print $4, $5 }' dump)" \
	    "$((nmeta + reserved)) $(cat nbins)" "$nfunc: nfns and bins"
	# The zero cells come after every other cell.
	expect_eq "$(awk '$1 == "cell" || ($1 == "meta" && $2 != 0) { n = NR }
	    $1 == "meta" && $2 == 0 && !z { z = NR } END { print (z > n) }' dump)" \
	    1 "$nfunc: zero cells last"
	# The classic file's length, which the compact one records.
	expect_eq "$(od -An -t u8 -j 8 -N 8 mon.out | tr -d ' ')" \
	    $((24 + 16 * (nmeta + reserved) + 2 * $(cat nbins))) "$nfunc: size"
	expect_eq "$("$PROF" -s a.out 2>&1 >/dev/null | head -n 1)" \
	    "   19/$reserved call counts used" "$nfunc: prof -s"
done
exit 0
