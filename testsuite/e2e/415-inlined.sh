# 415-inlined: a function inlined into some callers and called out of
# line by others is counted at its out-of-line entry alone, whatever
# GCC inlines: getshort, global, inlined into decode (a tail call in a
# switch) and called from another unit; half, static, called directly
# by twice (inlined at -O2) and through a pointer from the other unit.
# -p, -pg (prof and gprof) and the reference count alike at -O0, -O2,
# -O3 and with -flto, and the reference counts the calls the program
# makes out of line (issue 35: hook ABI 9 lost getshort's other calls).
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
for opt in -O0 -O2 -O3 "-O2 -flto"; do
	rows "$opt" "-p -fplugin-arg-monprof-reference" > ref
	case $opt in
	-O0)	want="decode 334/getshort 1334/half 1000/half_ptr 1/main 1/twice 500" ;;
	# The whole program inlined into main but for half's pointer calls.
	*-flto)	want="half 500/main 1" ;;
	*)	want="decode 334/getshort 1000/half 500/half_ptr 1/main 1/twice 500" ;;
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
