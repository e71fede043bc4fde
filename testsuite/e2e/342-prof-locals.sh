# 342-prof-locals: -g, the default, gives static functions their own
# rows; -l is classic prof's folding, also with -s; the later of the two
# wins.
. "$E2E/300-prof.subr"
sample
standard | "$MKMON" mon.out

# -g is the default: the static helper has its own line, its time and
# calls.
"$PROF" -g sample > out
"$PROF" sample > want
expect_file want out
expect_eq "$(grep ' helper$' out)" \
    "   7.3    0.40    4.90       6     67.      helper" "-g helper"
grep -q 'cold' out && fail ".cold part shown"

# -l: classic prof's folding.  The static helper's time goes to beta,
# the global before it, its calls are dropped; beta's clone reports
# into beta, time and calls; <unknown> is still no function's.
"$PROF" -l sample > out
cat > want <<'END'
 %Time Seconds Cumsecs  #Calls   msec/call  Name
  63.6    3.50    3.50      15    233.3     alpha, alpha_alias
  29.1    1.60    5.10       6    267.      beta
   4.5    0.25    5.35       3     83.      <unknown>
   1.8    0.10    5.45    1000      0.100   gamma_w
   0.9    0.05    5.50       7      7.      ns::foo(int)
   0.0    0.00    5.50       1      0.      main
END
expect_file want out
"$PROF" -g -l sample > out2
expect_file out out2
"$PROF" -l -g sample | grep -q ' helper$' || fail "-g after -l hides locals"
"$PROF" -l -s sample 2>&1 > /dev/null | head -n 1 > out
expect_eq "$(cat out)" \
    "    7/9 call counts used (1 in hidden locals, 1 outside functions)" \
    "-l -s"
