# 357-prof-runtime-hidden: the runtime linked into a -p program is never
# a row: not its __mon_ functions, not its statics (whose names, such as
# add or fill, a program could have), not <external> nor the symbol
# named after the link error; not even under -z.  Samples in it are
# left out of the rows, %Time staying a share of every sample, and -s
# counts them.
. "$E2E/300-prof.subr"
mp_cc -p -O1 -Wl,--build-id -o prog "$E2E/357-prof-runtime-hidden.c"
textrange prog
# tick NAME N: N samples 1 byte into NAME of prog.
tick() { echo "bin $(($(addr "$1" prog) + 1 - LPC)) $2"; }
{
	echo "range $LPC $TEXTEND"
	echo "bins $((TEXTEND - LPC))"
	echo "meta magic ok"
	echo "meta version 1"
	echo "meta rate 100"
	tick work 30
	tick __mon_init 20
	tick put_meta 10
	echo "cell $(($(addr work prog) + 4)) 1"
} | "$MKMON" mon.out

"$PROF" prog > out 2> err
expect_file /dev/null err
cat > want <<'END'
 %Time Seconds Cumsecs  #Calls   msec/call  Name
  50.0    0.30    0.30       1    300.      work
END
expect_file want out

"$PROF" -s prog > /dev/null 2> err
grep -x "   30 samples in monprof's own code, not shown" err > /dev/null ||
    fail "-s: $(cat err)"

# -z: every function of the program, none of the runtime's.
"$PROF" -z prog | awk 'NR > 1 { print $NF }' > rows
nm --defined-only "$O/libmonprof.a" | awk '$2 ~ /^[tTW]$/ { print $3 }' |
    sort -u > runtime
sort -u rows | comm -12 - runtime > both
expect_file /dev/null both
grep -q 'compiled with\|<external>' rows && fail "-z: $(cat rows)"
grep -qx work rows || fail "-z: no work: $(cat rows)"
# The same under -l, and in CSV.
"$PROF" -z -l --format=csv prog | grep -c '__mon_\|put_meta' > n || true
expect_eq "$(cat n)" 0 "-l CSV rows of the runtime"
