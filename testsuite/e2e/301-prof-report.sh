# 301-prof-report: the default report (-t): classic header and columns,
# aliases on one line, .cold folded, clone under its own name, weak
# function shown, the static helper on its own line (not folded into
# beta before it), ticks and a cell outside every function on the
# <unknown> line, exact times.
. "$E2E/300-prof.subr"
sample
standard | "$MKMON" mon.out
"$PROF" sample > out 2> err
cat > want <<'END'
 %Time Seconds Cumsecs  #Calls   msec/call  Name
  63.6    3.50    3.50      15    233.3     alpha, alpha_alias
  18.2    1.00    4.50       4    250.      beta
   7.3    0.40    4.90       6     67.      helper
   4.5    0.25    5.15       3     83.      <unknown>
   3.6    0.20    5.35       2    100.      beta.constprop.0
   1.8    0.10    5.45    1000      0.100   gamma_w
   0.9    0.05    5.50       7      7.      ns::foo(int)
   0.0    0.00    5.50       1      0.      main
END
expect_file want out
expect_file /dev/null err

# The same program linked without PIE (ET_EXEC) gives the same report.
sample -no-pie
standard | "$MKMON" mon.out
"$PROF" sample > out2
expect_file want out2

# Columns too wide for classic prof's fields (10^4 s, 10^8 calls) stay
# separated by a blank instead of running together.
{
	echo "range $LPC $TEXTEND"
	echo "bins $((TEXTEND - LPC))"
	echo "meta rate 1"
	tick beta 30000
	tick gamma_w 60000
	cell gamma_w 123456789
} | "$MKMON" mon.out
"$PROF" sample > out
cat > want <<'END2'
 %Time Seconds Cumsecs  #Calls   msec/call  Name
  66.7 60000.00 60000.00 123456789      0.4860  gamma_w
  33.3 30000.00 90000.00                      beta
END2
expect_file want out
