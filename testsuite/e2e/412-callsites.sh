# 412-callsites: -pg arcs stay exact where a call site's announcement
# does not reach its callee's entry: signal handlers that call the same
# functions between a site and its callee, a call through an alias, a
# function also called through a pointer and from code without
# instrumentation.  gprof's calls and prof's (mon.out) equal the
# program's own count, at -O0 and -O2, for the main thread and a worker
# both signalled.  (Hook ABI 8 counted these calls at their sites, with
# a tag the callee's entry matched; its runtime check against a second
# count made it exact here, but not in every window a signal opens.)
. "$E2E/400-gprof.subr"
for opt in -O0 -O2; do
	mp_cc -pg $opt -pthread -fplugin-arg-monprof-verbose \
	    "$E2E/412-callsites.c" -o prog 2> log || fail "$opt: build: $(cat log)"
	for f in f g; do
		grep -q ": handler: call of $f announced$" log ||
		    fail "$opt: handler's call of $f: $(cat log)"
	done
	rm -f gmon.out mon.out
	./prog 20000 > want || fail "$opt: run"
	flat prog | grep -E '^(f|g|h) ' > got
	expect_file want got
	# prof names f and its alias on one row: "alias_f, f".
	"$PROF" prog mon.out > report || fail "$opt: prof"
	awk '$NF ~ /^(f|g|h)$/ && $4 ~ /^[0-9]+$/ { print $NF, $4 }' report |
	    sort > got
	expect_file want got
done
exit 0
