# 413-split: -pg code whose calls GCC makes without a line (a call of a
# function's split-off part, fnsplit's .part.0) builds, at -O2 and with
# -g, and counts exactly: make 7, and freeS, wherever GCC split it,
# called 7 times (3 on make's error path, 4 by main).  The plugin's asm
# beside such a call had no file name, and GCC crashed in final
# ("internal compiler error: Segmentation fault"; zstd's pool.c).
. "$E2E/400-gprof.subr"
for opt in -O2 "-O2 -g"; do
	mp_cc -pg $opt -pthread "$E2E/413-split.c" -o prog 2> log ||
	    fail "$opt: build: $(cat log)"
	rm -f gmon.out mon.out
	./prog || fail "$opt: run"
	expect_eq "$(calls_of make prog)" 7 "$opt: make"
	# freeS's head is inlined into its callers: its part counts the
	# calls that get past it, all 7 (prof: gprof takes no name with a
	# dot for a function's).
	"$PROF" prog mon.out > report || fail "$opt: prof"
	expect_eq "$(awk '$NF ~ /^freeS/ && $4 ~ /^[0-9]+$/ { n += $4 }
	    END { print n + 0 }' report)" 7 "$opt: freeS: $(cat report)"
done
exit 0
