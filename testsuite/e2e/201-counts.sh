# 201-counts: exact counts for a fixed call graph at -O0 -O1 -O2 -O3 -Os
# -Og, PIE and -no-pie, -flto (one step and separate compile and link)
# and -static; every cell's fnpc lies inside its function (a cell that
# maps to no symbol shows up as "?ADDR" and fails the comparison).  The
# expected counts, 201-counts.expect, serve 209 and 308 too.
check() {
	./a.out > out || fail "$*: run"
	expect_eq "$(cat out)" "50500 10 20 1" "$*: output"
	counts ./a.out > got
	diff -u "$E2E/201-counts.expect" got || fail "$*: counts"
}
for opt in -O0 -O1 -O2 -O3 -Os -Og; do
	for pie in -pie -no-pie; do
		mp_cc -p -fchecking $opt $pie "$E2E/201-counts.c" -o a.out
		check $opt $pie
	done
done
mp_cc -p -fchecking -O2 -flto "$E2E/201-counts.c" -o a.out
check -flto
mp_cc -pg -fchecking -O3 -flto -c "$E2E/201-counts.c" -o a.o
mp_cc -pg -O3 -flto a.o -o a.out
check -flto separate
mp_cc -p -fchecking -O2 -static "$E2E/201-counts.c" -o a.out
check -static
