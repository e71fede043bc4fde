# 409-announce: global functions (entry hooks) called from several call
# sites in turn, in 4 threads, are counted exactly through the site their
# caller announces (hook ABI 5), at -O0, -O2 and with -flto; a function
# not instrumented that the caller announced and that tail-calls c1 or c2
# never gets one counted for the other; a qsort comparator is credited
# to <external>, not to the caller that announced qsort; a call through
# a pointer is counted; moncontrol(0) excludes calls.  The same with
# -fPIC (a static library's code: announcements guarded by the mark
# that only executables define).  Under callgrind, the runtime's hook is
# called a few times per site and thread, not per call, at -O2, -fPIC
# and -flto; built into a shared object, the same code counts exactly,
# and its own call sites announce too (through the object's
# __mon_site_mod), so the hook stays as rare.  Announcing takes no
# thread-local
# storage: a library of 121 functions and 180 announced calls built with
# the default initial-exec words still loads with dlopen().  -O0 code
# keeps its records in their section.
. "$E2E/400-gprof.subr"
"$CC" -O2 -c "$E2E/409-announce.lib.c" -o lib.o
M=20000
for opt in -O0 -O2 "-O2 -fPIC" "-O2 -flto"; do
	rm -f gmon.out
	mp_cc -pg $opt -pthread -I"$SRCDIR/include" \
	    -fplugin-arg-monprof-verbose "$E2E/409-announce.c" lib.o \
	    -o prog 2> log || fail "$opt: build: $(cat log)"
	# (An ltrans process's messages are not in the log.)
	case $opt in *-flto*) ;; *)
		for f in a b dispatch c1 taken; do
			grep -q ": worker: call of $f announced" log || fail \
			    "$opt: worker's call of $f not announced: $(cat log)"
		done
		grep -q ": main: call of qsort announced" log ||
		    fail "$opt: qsort not announced"
	esac
	./prog $M > out || fail "$opt: run"
	ncmp=$(cat out)
	[ "$ncmp" -gt 500 ] || fail "$opt: qsort made $ncmp comparisons"
	flat prog > got
	printf '%s\n' "a $((4 * M))" "b $((4 * M))" "c1 $((6 * M))" \
	    "c2 $((2 * M))" "cmp $ncmp" "leaf $((12 * M))" "main 1" \
	    "taken $((8 * M))" "worker 4" > want
	expect_file want got
	graph prog > got
	printf '%s\n' "<external> cmp $ncmp/$ncmp" "<external> main 1/1" \
	    "<external> worker 4/4" "a leaf $((4 * M))/$((12 * M))" \
	    "b leaf $((8 * M))/$((12 * M))" "worker a $((4 * M))/$((4 * M))" \
	    "worker b $((4 * M))/$((4 * M))" \
	    "worker c1 $((6 * M))/$((6 * M))" \
	    "worker c2 $((2 * M))/$((2 * M))" \
	    "worker taken $((8 * M))/$((8 * M))" | sort > want
	expect_file want got
done

# A shared object: counted, in prof's report of mon.out (gprof's
# gmon.out holds the executable only).
cat > main.c <<'X'
int	run409(int, char **);
int	main(int argc, char **argv) { return run409(argc, argv); }
X
"$CC" -O2 -fPIC -c "$E2E/409-announce.lib.c" -o libpic.o
mp_cc -pg -O2 -fPIC -shared -pthread -I"$SRCDIR/include" -Dmain=run409 \
    "$E2E/409-announce.c" libpic.o -o lib409.so || fail "shared: build"
mp_cc -pg -O2 -pthread main.c ./lib409.so -o prog.so.exe ||
    fail "shared: link"
rm -f mon.out
./prog.so.exe $M > out || fail "shared: run"
ncmp=$(cat out)
"$PROF" ./prog.so.exe > report || fail "shared: prof"
awk '$NF ~ /^(a|b|c1|c2|leaf|taken|worker|cmp|run409)$/ { print $NF, $4 }' \
    report | sort > got
printf '%s\n' "a $((4 * M))" "b $((4 * M))" "c1 $((6 * M))" \
    "c2 $((2 * M))" "cmp $ncmp" "leaf $((12 * M))" "run409 1" \
    "taken $((8 * M))" "worker 4" > want
expect_file want got

# dlopen(): static TLS for the 121 arc caches alone (an 8-byte word per
# announced call would exhaust glibc's surplus, about 1.6 KB).
awk 'BEGIN { n = 60
    for (i = 0; i < n; i++) printf "__attribute__((noinline)) int " \
	"f%d(int x) { __asm__ volatile(\"\"); return x + %d; }\n", i, i
    for (i = 0; i < n; i++) printf "__attribute__((noinline)) int " \
	"g%d(int x) { int s = f%d(x); s += f%d(x); s += f%d(x); " \
	"__asm__ volatile(\"\"); return s; }\n", i, i, (i + 1) % n, (i + 2) % n
    printf "int all(int x) { int s = 0;"
    for (i = 0; i < n; i++) printf " s += g%d(x);", i
    print " return s; }" }' > big.c
cat > dl.c <<'X'
#include <dlfcn.h>
#include <stdio.h>
int main(int argc, char **argv)
{
	void *h = dlopen(argv[1], RTLD_NOW);
	int (*all)(int);
	if (h == NULL) { fprintf(stderr, "%s\n", dlerror()); return 1; }
	all = (int (*)(int))dlsym(h, "all");
	return all(1) != 60 * 3 + 3 * (60 * 59 / 2);
}
X
mp_cc -pg -O2 -fPIC -shared big.c -o big.so || fail "dlopen: build"
mp_cc -pg -O2 dl.c -o dl -ldl || fail "dlopen: link"
rm -f mon.out
./dl ./big.so 2> err || fail "dlopen: $(cat err)"
"$PROF" ./dl > report || fail "dlopen: prof"
expect_eq "$(awk '$NF ~ /^[fg][0-9]+$/ { print $4 }' report | sort |
    uniq -c | awk '{ print $1, $2 }' | sort | tr '\n' ' ')" \
    "60 1 60 3 " "dlopen: calls of g0..g59 and f0..f59"

# -O0 code (no toplevel reorder: the records must still reach their
# section) linked with -O2 code, below a large .bss that a record
# outside the section would index past the blocks into.
cat > o2.c <<'X'
volatile long sink;
__attribute__((noinline)) void g(long x) { sink += x; }
__attribute__((noinline)) void f(long x) { g(x); g(x + 1); }
X
cat > o0.c <<'X'
void f(long); void g(long);
static char big[64 << 20];
int main(void)
{
	for (long i = 0; i < 1000; i++) { f(i); g(i); }
	return big[12345];
}
X
mp_cc -pg -O2 -c o2.c && mp_cc -pg -O0 -c o0.c && mp_cc -pg o0.o o2.o -o mix ||
    fail "-O0 and -O2: build"
objdump -h o0.o | grep -q " __mon_sites " || fail "-O0: no __mon_sites"
rm -f gmon.out
./mix || fail "-O0 and -O2: run"
expect_eq "$(calls_of g mix) $(calls_of f mix)" "3000 1000" "-O0 and -O2: calls"

# The hook's calls: warm-up only (sites x threads), not the 4 * 9 * M
# calls.  Before hook ABI 4, leaf's and c1's alone missed their cache
# on every call.
command -v valgrind > /dev/null 2>&1 || skip "valgrind not found"
# calls_to PATTERN: calls of functions whose name matches, in cg.out.
calls_to() {
	awk -v pat="$1" '
	    { if (match($0, /\([0-9]+\) [^ ]+/)) {
		split(substr($0, RSTART, RLENGTH), p, " "); name[p[1]] = p[2] } }
	    /^cfn=/ { split(substr($0, 5), p, " "); hit = name[p[1]] ~ pat }
	    /^calls=/ && hit { split(substr($0, 7), p, " "); n += p[1]; hit = 0 }
	    END { print n + 0 }' cg.out
}
for opt in -O2 "-O2 -fPIC" "-O2 -flto"; do
	mp_cc -pg $opt -pthread -I"$SRCDIR/include" "$E2E/409-announce.c" \
	    lib.o -o prog || fail "callgrind $opt: build"
	valgrind --tool=callgrind --callgrind-out-file=cg.out ./prog 2000 \
	    > /dev/null 2> vg || fail "callgrind $opt: $(tail -n 5 vg)"
	n=$(calls_to '^__mon_mcount_arc')
	[ "$n" -gt 0 ] || fail "callgrind $opt: no call of the hook seen"
	[ "$n" -le 200 ] || fail "$opt: the hook was called $n times" \
	    "for $((4 * 9 * 2000)) calls"
done
# A shared object's own call sites announce through its __mon_site_mod.
valgrind --tool=callgrind --callgrind-out-file=cg.out ./prog.so.exe 2000 \
    > /dev/null 2> vg || fail "callgrind shared: $(tail -n 5 vg)"
n=$(calls_to '^__mon_mcount_arc')
[ "$n" -le 200 ] || fail "shared: the hook was called $n times" \
    "for $((4 * 9 * 2000)) calls"
exit 0
