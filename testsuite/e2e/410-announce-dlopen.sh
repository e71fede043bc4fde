# 410-announce-dlopen: the call sites of -pg shared objects announce
# themselves (hook ABI 5, through each object's __mon_site_mod) in
# threads that were running before the object was loaded and go on
# after it is closed: two objects of different sizes, loaded and closed
# in turn (8 times, 5 threads), count exactly, and under callgrind the
# runtime's hook is called a few times per site, thread and load, not
# at each change of caller.  An object's constructor registers it and
# its destructor unregisters it, and the object's code that runs later
# (its own late destructors) still counts; a thread drops the blocks of
# one gone once another takes its place; under -threads a thread's
# blocks go with it.
. "$E2E/400-gprof.subr"
# lib.c N EXTRA: leafN called from aN and bN in turn; EXTRA more
# functions, so that the two objects' records differ in number.
lib() {
	awk -v n="$1" -v extra="$2" 'BEGIN {
	print "static volatile long sink;"
	printf "__attribute__((noinline)) long leaf%d(long x) " \
	    "{ sink += x; return x; }\n", n
	printf "__attribute__((noinline)) long a%d(long i) " \
	    "{ return leaf%d(i); }\n", n, n
	printf "__attribute__((noinline)) long b%d(long i) " \
	    "{ return leaf%d(i + 1); }\n", n, n
	for (i = 0; i < extra; i++)
		printf "__attribute__((noinline)) long x%d_%d(long i) " \
		    "{ return leaf%d(i) + a%d(i); }\n", n, i, n, n
	printf "long run%d(long m) { long r = 0;\n", n
	printf "\tfor (long i = 0; i < m; i++) r += a%d(i) + b%d(i);\n", n, n
	print "\treturn r; }" }'
}
lib 0 0 > l0.c
lib 1 40 > l1.c
mp_cc -pg -O2 -fPIC -shared l0.c -o lib0.so || fail "build lib0"
mp_cc -pg -O2 -fPIC -shared l1.c -o lib1.so || fail "build lib1"
mp_cc -pg -O2 -pthread "$E2E/410-announce-dlopen.c" -o prog -ldl ||
    fail "build prog"
M=20000
rm -f mon.out
./prog 8 $M "$PWD/lib0.so" "$PWD/lib1.so" || fail "run: exit $?"
"$PROF" prog > report 2> err || fail "prof: $(cat err)"
# Each object 4 loads x 5 threads x M.
n=$((4 * 5 * M))
awk '$NF ~ /^(a|b|leaf|run)[01]$/ { print $NF, $4 }' report | sort > got
printf '%s\n' "a0 $n" "a1 $n" "b0 $n" "b1 $n" "leaf0 $((2 * n))" \
    "leaf1 $((2 * n))" "run0 20" "run1 20" > want
expect_file want got

# The object's own code after its unregistration: a destructor that
# runs after the plugin's (priority 101 too) makes new arcs, and so
# looks, at each of 200 dlclose()s; its announcements still find their
# block (before: the block was unmapped, SIGSEGV at the first).
cat > late.c <<'X'
__attribute__((noinline)) int leaf1(int x) { return x + 1; }
__attribute__((noinline)) int leaf2(int x) { return x * 2; }
__attribute__((noinline)) int leaf3(int x) { return x - 3; }
int work(int n) { int s = 0; for (int i = 0; i < n; i++) s += leaf1(i) + leaf2(i); return s; }
__attribute__((destructor(101))) static void late(void)
{ volatile int s = 0; s += leaf1(1); s += leaf2(2); s += leaf3(3); s += leaf1(4); s += leaf3(5); }
X
cat > latemain.c <<'X'
#include <dlfcn.h>
#include <stdio.h>
int main(int argc, char **argv)
{
	for (int i = 0; i < 200; i++) {
		void *h = dlopen(argv[1], RTLD_NOW);
		if (h == NULL) { fprintf(stderr, "%s\n", dlerror()); return 1; }
		((int (*)(int))dlsym(h, "work"))(100);
		dlclose(h);
	}
	return 0;
}
X
mp_cc -pg -O1 -fPIC -shared late.c -o late.so || fail "late: build"
mp_cc -pg -O1 latemain.c -o latemain -ldl || fail "late: link"
rm -f mon.out
./latemain "$PWD/late.so" || fail "late: exit $?"
"$PROF" latemain > report 2> err || fail "late: prof: $(cat err)"
awk '$NF ~ /^(leaf[123]|work|late)$/ { print $NF, $4 }' report | sort > got
printf '%s\n' "late 200" "leaf1 20400" "leaf2 20200" "leaf3 400" \
    "work 200" > want
expect_file want got

# -threads: each thread's blocks go when it ends, its mods first.
mkdir th
PROFDIR=$PWD/th PROFFLAGS=-threads ./prog 8 2000 "$PWD/lib0.so" \
    "$PWD/lib1.so" || fail "-threads: exit $?"
expect_eq "$(ls th | wc -l)" 6 "-threads: files (main, 4 workers, gmon.out)"

command -v valgrind > /dev/null 2>&1 || skip "valgrind not found"
valgrind --tool=callgrind --callgrind-out-file=cg.out \
    ./prog 4 2000 "$PWD/lib0.so" "$PWD/lib1.so" > /dev/null 2> vg ||
    fail "callgrind: $(tail -n 5 vg)"
n=$(awk '
    { if (match($0, /\([0-9]+\) [^ ]+/)) {
	split(substr($0, RSTART, RLENGTH), p, " "); name[p[1]] = p[2] } }
    /^cfn=/ { split(substr($0, 5), p, " "); hit = name[p[1]] ~ /^__mon_mcount_arc/ }
    /^calls=/ && hit { split(substr($0, 7), p, " "); n += p[1]; hit = 0 }
    END { print n + 0 }' cg.out)
[ "$n" -gt 0 ] || fail "callgrind: no call of the hook seen"
# 4 loads x 5 threads x 3 arcs, with room; per call it would be 80,000.
[ "$n" -le 400 ] || fail "the hook was called $n times for 80000 calls"
exit 0
