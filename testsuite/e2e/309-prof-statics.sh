# 309-prof-statics: an -O2 program whose static functions and clones sit
# between globals (309-prof-statics.c).  The default report names the
# hot static function itself, and gives no time to what did not run: not
# the global before the statics, not the never-called clone just before
# the hot static (the old default took that clone for a global, by its
# name, and gave it all of spin's time).  Code no symbol covers (hidden(),
# its symbol stripped) is on the <unknown> line, with -l too, never
# charged to the function before it.  -l folds the statics into the
# preceding global, as classic prof does.
. "$E2E/300-prof.subr"
mp_cc -p -O2 -ffunction-sections -Wl,--sort-section=name -Wl,--build-id \
    "$E2E/309-prof-statics.c" -o sample || fail "cannot build"
printf '%s\n' 'T begin' 't hidden' 't mix.constprop.0' \
    't setup.constprop.0' 't spin' 'T tally' 'T wrap' > want
nm -n sample | awk 'NR == FNR { want[$2] = 1; next }
    $2 ~ /^[tT]$/ && want[$3] { print $2, $3 }' want - > got
expect_file want got

# A real run: spin on top with most of the time; the calls exact; the
# idle globals and the clone that never ran without time.
./sample || fail "run"
"$PROF" sample > out 2> err
[ ! -s err ] || fail "stderr: $(cat err)"
expect_eq "$(awk 'NR == 2 { print $NF }' out)" spin "top line"
awk 'NR == 2 && $1 < 50 { exit 1 }' out || fail "spin: $(sed -n 2p out)"
awk '$NF ~ /^(begin|main|mix\.constprop\.0|spin|tally|wrap)$/ {
    print $NF, $4 }' out | sort > got
printf '%s\n' 'begin 1' 'main 1' 'mix.constprop.0 1' 'spin 1' 'tally 1' \
    'wrap 1' > want
expect_file want got
awk '$NF ~ /^(begin|main|tally|wrap)$/ && $2 != "0.00"' out > got
expect_file /dev/null got
! grep -q setup out || fail "the clone that never ran: $(grep setup out)"
"$PROF" -z sample | awk '$NF == "setup.constprop.0" { print $2, NF }' > got
expect_eq "$(cat got)" "0.00 4" "-z: the clone, no time, no calls"

# hidden() without its symbol: its time and its call are no function's.
h=$(addr hidden)
objcopy --strip-symbol=hidden sample || fail "objcopy"
! nm sample | grep -qw hidden || fail "hidden still named"
./sample hidden || fail "run hidden"
for opt in -g -l; do
	"$PROF" $opt sample > out
	expect_eq "$(awk 'NR == 2 { print $NF, $4 }' out)" "<unknown> 1" \
	    "$opt: top line"
	awk 'NR == 2 && $1 < 50 { exit 1 }' out ||
	    fail "$opt: <unknown>: $(sed -n 2p out)"
done
"$PROF" sample | awk '$NF == "begin" { print $2 }' > got
expect_eq "$(cat got)" 0.00 "begin, before hidden"

# Exact rows: a profile written by mkmon for the stripped program, 0.90 s
# in spin, 0.10 s in mix.constprop.0, 0.50 s in hidden's code.
textrange sample
{
	echo "range $LPC $TEXTEND"
	echo "bins $((TEXTEND - LPC))"
	echo "meta rate 100"
	tick spin 90
	tick mix.constprop.0 10
	echo "bin $((h + 1 - LPC)) 50"
	echo "cell $((h + 4)) 1"
	for f in begin main mix.constprop.0 spin tally wrap; do
		cell $f 1
	done
} | "$MKMON" mon.out
"$PROF" sample > out
cat > want <<'END'
 %Time Seconds Cumsecs  #Calls   msec/call  Name
  60.0    0.90    0.90       1    900.      spin
  33.3    0.50    1.40       1    500.      <unknown>
   6.7    0.10    1.50       1    100.      mix.constprop.0
   0.0    0.00    1.50       1      0.      begin
   0.0    0.00    1.50       1      0.      main
   0.0    0.00    1.50       1      0.      tally
   0.0    0.00    1.50       1      0.      wrap
END
expect_file want out
# -l, classic: the statics' time goes to begin, their calls are dropped.
"$PROF" -l sample > out
cat > want <<'END'
 %Time Seconds Cumsecs  #Calls   msec/call  Name
  66.7    1.00    1.00       1   1000.      begin
  33.3    0.50    1.50       1    500.      <unknown>
   0.0    0.00    1.50       1      0.      main
   0.0    0.00    1.50       1      0.      tally
   0.0    0.00    1.50       1      0.      wrap
END
expect_file want out
