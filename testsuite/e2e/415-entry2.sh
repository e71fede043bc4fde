# 415-entry2: -p code of an executable gives a global function a second
# entry past its count, which its own unit's groups call (hook ABI 9):
# caller's calls of gf and gg are grouped (wf, weak, stays a call of
# its own, counted at its entry, and ends the group).  Calls from
# another unit and through a pointer take the counted entry.  prof's counts equal the program's
# own, at -O0 and -O2, with debug information (call sites name the
# second entry's label); and with -fcf-protection=branch or a patchable
# entry, where functions keep one entry.
# build OPTS: prog from both units, the plugin's words on a.c in log.
build() {
	mp_cc -p "$@" -fplugin-arg-monprof-verbose -c \
	    "$E2E/415-entry2.c" -o a.o 2> log || fail "$*: build: $(cat log)"
	mp_cc -p "$@" -c "$E2E/415-entry2.lib.c" -o b.o || fail "$*: build b"
	mp_cc -p "$@" a.o b.o -o prog || fail "$*: link"
}
# exact OPTS: prof's counts of a run equal the program's own.
exact() {
	rm -f mon.out
	./prog 3000 > want || fail "$*: run"
	"$PROF" prog mon.out > report || fail "$*: prof"
	awk '$4 ~ /^[0-9]+$/ { print $NF, $4 }' report | grep -v '^main ' |
	    sort > got
	sort want > want.s
	expect_file want.s got
}
for opt in -O0 "-O2 -g"; do
	build $opt
	for f in gf gg; do
		grep -q "^monprof: $f: instrumented (a second entry for the unit's calls)$" log ||
		    fail "$opt: $f has no second entry: $(cat log)"
	done
	grep -q "^monprof: wf: instrumented$" log ||
	    fail "$opt: wf, weak: $(cat log)"
	grep -q ": caller: calls counted in one group: gf x1 gg x1$" log ||
	    fail "$opt: caller's group: $(cat log)"
	exact $opt
done
# A unit whose entries must begin with endbr64, or leave room to patch,
# keeps one entry per function: its count stays first in the entry.
for opt in -fcf-protection=branch -fpatchable-function-entry=2; do
	build -O2 $opt
	grep -q "second entry" log && fail "$opt: a second entry: $(cat log)"
	exact $opt
done
exit 0
