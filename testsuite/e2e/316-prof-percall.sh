# 316-prof-percall: -u us and -u ns print the per-call column in micro-
# and nanoseconds (three decimals, where msec/call says 0.0000), -u ms
# is classic prof's column; -s says how many samples the times rest on.
. "$E2E/300-prof.subr"
sample
{
	echo "range $LPC $TEXTEND"
	echo "bins $((TEXTEND - LPC))"
	echo "meta rate 1000"
	tick alpha 300
	tick beta 2
	cell alpha 3000000
	cell beta 7
} | "$MKMON" mon.out
"$PROF" sample > out
cat > want <<'END'
 %Time Seconds Cumsecs  #Calls   msec/call  Name
  99.3    0.30    0.30 3000000      0.0001  alpha, alpha_alias
   0.7    0.00    0.30       7      0.      beta
END
expect_file want out
"$PROF" -u ms sample > out
expect_file want out
"$PROF" -u us sample > out
cat > want <<'END'
 %Time Seconds Cumsecs  #Calls   usec/call  Name
  99.3    0.30    0.30 3000000       0.100  alpha, alpha_alias
   0.7    0.00    0.30       7     285.714  beta
END
expect_file want out
"$PROF" -u ns sample > out
cat > want <<'END'
 %Time Seconds Cumsecs  #Calls   nsec/call  Name
  99.3    0.30    0.30 3000000     100.000  alpha, alpha_alias
   0.7    0.00    0.30       7  285714.286  beta
END
expect_file want out

"$PROF" -s sample 2>&1 >/dev/null | grep 'samples in this report' > out
expect_eq "$(cat out)" "  302 samples in this report (0.302 s at 1000 per second)" \
    "-s: samples"

bounded out err -u s sample
expect_eq $st 1 "-u s: exit status"
expect_eq "$(head -n 1 err)" "prof: -u s: the unit is ms, us or ns" "-u s"
