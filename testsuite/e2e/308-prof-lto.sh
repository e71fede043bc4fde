# 308-prof-lto: gcc -flto makes every function that nothing outside the
# executable needs local, so without -g prof shows only main and the
# nested function inner.0 (a clone-like name without its base); it says
# so on stderr and points at -g, which shows every function.
mp_cc -p -fchecking -O2 -flto "$E2E/201-counts.c" -o a.out
./a.out > /dev/null || fail "run"
"$PROF" -n a.out > out 2> err
expect_eq "$(awk '{ print $4, $NF }' out)" "#Calls Name
5 inner.0
1 main" "report without -g"
expect_eq "$(cat err)" "prof: a.out: 5 of 7 call counts are in local \
functions, not shown: try -g" "warning"
"$PROF" -g -n a.out > out 2> err
[ ! -s err ] || fail "-g: stderr: $(cat err)"
awk 'NR > 1 { print $NF, $4 }' out > got
cat > want <<'END'
init 1
inner.0 5
leaf 1000
main 1
mid 10
outer 1
rec 11
END
expect_file want got
