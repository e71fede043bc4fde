# 308-prof-lto: gcc -flto makes every function that nothing outside the
# executable needs local.  The default report shows every function, local
# or global, with 201's counts (201-counts.expect); -l (classic prof)
# shows only main, and says on stderr that the other counts are in local
# functions it leaves out.  Rows of objects (<libc.so.6>: a sample
# landed in libc) are not the case's.
mp_cc -p -fchecking -O2 -flto "$E2E/201-counts.c" -o a.out
./a.out > /dev/null || fail "run"
"$PROF" -n a.out > out 2> err
[ ! -s err ] || fail "default: stderr: $(cat err)"
awk 'NR > 1 && $NF !~ /^</ { print $NF, $4 }' out > got
expect_file "$E2E/201-counts.expect" got
"$PROF" -g -n a.out > out2
expect_file out out2
"$PROF" -l -n a.out > out 2> err
expect_eq "$(awk '$NF !~ /^</ { print $4, $NF }' out)" "#Calls Name
1 main" "report with -l"
expect_eq "$(cat err)" "prof: a.out: 6 of 7 call counts are in local \
functions, not shown with -l: leave out -l to see them" "warning"
