# 415-inlined: a function inlined into some callers and called out of
# line by others is counted at its out-of-line entry alone, whatever
# GCC inlines: getshort, global, inlined into twice and field and
# called from another unit; half, static, called directly by halves
# (inlined at -O1 and up) and through a pointer from the other unit.
# -p, -pg (prof and gprof) and the reference count alike at -O0 to -O3
# and with -flto, and the reference counts the calls the program makes
# out of line.  (Hook ABI 9's -p lost getshort's 1,100 at -O1.)
. "$E2E/400-gprof.subr"
# rows OPTS MODE: "name calls" per function of prof's report of a run.
rows() {
	mp_cc $2 $1 "$E2E/415-inlined.c" "$E2E/415-inlined.main.c" \
	    -o prog 2> log || fail "$1 $2: build: $(cat log)"
	rm -f mon.out gmon.out
	./prog > out || fail "$1 $2: run"
	"$PROF" prog mon.out | awk '$4 ~ /^[0-9]+$/ { print $NF, $4 }' |
	    sort
}
for opt in -O0 -O1 -O2 -O3 "-O2 -flto"; do
	rows "$opt" "-p -fplugin-arg-monprof-reference" > ref
	case $opt in
	-O0)	want="field 100/getshort 1280/half 1000/half_ptr 1/halves 500/main 1/tail 100/twice 80" ;;
	# The whole program inlined into main but half's pointer calls,
	# tail's and twice's (noinline).
	*-flto)	want="half 500/main 1/tail 100/twice 80" ;;
	*)	want="field 100/getshort 1100/half 500/half_ptr 1/halves 500/main 1/tail 100/twice 80" ;;
	esac
	expect_eq "$(tr '\n' / < ref)" "$want/" "$opt: the reference"
	rows "$opt" -p > got
	expect_file ref got
	rows "$opt" -pg > got
	expect_file ref got
	flat prog > got
	expect_file ref got
done
exit 0
