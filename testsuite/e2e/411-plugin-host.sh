# 411-plugin-host: a host that dlopen()s 100 instrumented modules of 500
# functions each, as an interpreter imports its extension modules,
# loads every one (hook ABI 6: -fPIC code has no thread-local storage of
# its own, so no module takes any of the static TLS that glibc keeps
# for dlopen()ed objects), with -p and -pg, profiling on and off, and
# counts every call exactly, in two threads and main.  A host linked
# without the runtime loads them all too and runs (they count nothing,
# through libmonprof-null.so), and with libmonprof.so preloaded counts
# them exactly.
N=100
F=500
K=20
awk -v f=$F 'BEGIN {
	for (i = 0; i < f; i++)
		printf "__attribute__((noinline)) long f%d(long x) " \
		    "{ __asm__ volatile(\"\"); return x + %d; }\n", i, i
	print "long run(long m) { long s = 0;"
	print "\tfor (long i = 0; i < m; i++) {"
	for (i = 0; i < f; i++) printf "\t\ts += f%d(i);\n", i
	print "\t}\n\treturn s; }" }' > mod.c
cat > host.c <<'X'
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
static long (*run[1000])(long);
static int n;
static long k;
static void *all(void *arg)
{
	long s = 0;
	for (int i = 0; i < n; i++)
		s += run[i](k);
	*(long *)arg = s;
	return NULL;
}
int main(int argc, char **argv)
{
	pthread_t t[2];
	long s[3];
	k = atol(argv[1]);
	for (n = 0; n + 2 < argc; n++) {
		void *h = dlopen(argv[n + 2], RTLD_NOW | RTLD_LOCAL);
		if (h == NULL) {
			fprintf(stderr, "%s\n", dlerror());
			return 1;
		}
		run[n] = (long (*)(long))dlsym(h, "run");
	}
	for (int i = 0; i < 2; i++)
		pthread_create(&t[i], NULL, all, &s[i]);
	all(&s[2]);
	for (int i = 0; i < 2; i++)
		pthread_join(t[i], NULL);
	printf("%d modules: %ld %ld %ld\n", n, s[0], s[1], s[2]);
	return 0;
}
X
gcc -O2 -pthread host.c -o plainhost -ldl || fail "plain host"
# One module's sum, times the modules.
per=$(awk -v f=$F -v k=$K 'BEGIN { print k * (k - 1) / 2 * f + k * f * (f - 1) / 2 }')
sum=$((per * N))
echo "$N modules: $sum $sum $sum" > want
for mode in -p -pg; do
	mp_cc $mode -O2 -fPIC -shared mod.c -o m0.so || fail "$mode: module"
	readelf -lW m0.so > phdrs
	grep -q ' TLS ' phdrs && fail "$mode: the module has thread-local storage"
	mods=""
	for i in $(seq 0 $((N - 1))); do
		[ $i = 0 ] || cp m0.so m$i.so
		mods="$mods $PWD/m$i.so"
	done
	mp_cc $mode -O2 -pthread host.c -o host -ldl || fail "$mode: host"
	rm -f mon.out gmon.out
	./host $K $mods > out 2> err || fail "$mode: run: $(cat err)"
	expect_file want out
	# Every function of every module: K calls in each of the 3 threads.
	"$MONDUMP" mon.out | awk '$1 == "cell" { print $3 }' | sort -n |
	    uniq -c | awk '{ print $1, $2 }' > got
	# The host's own: all 3 times, main once.
	printf '%s\n' "$((N * F)) $((3 * K))" "$((N + 1)) 3" "1 1" |
	    sort -k2n > wantc
	sort -k2n got > gotc
	expect_file wantc gotc
	# Off: the same run, no profile.
	rm -f mon.out gmon.out
	PROFDIR= ./host $K $mods > out 2> err || fail "$mode: off: $(cat err)"
	expect_file want out
	[ ! -e mon.out ] || fail "$mode: off wrote mon.out"
	# A plain host: every module loads and runs, nothing counted.
	./plainhost $K $mods > out 2> err || fail "$mode: plain host: $(cat err)"
	expect_file want out
	[ ! -e mon.out ] || fail "$mode: the plain host wrote mon.out"
	# The plain host with the runtime preloaded counts the modules.
	LD_PRELOAD=$O/libmonprof.so ./plainhost $K $mods > out 2> err ||
	    fail "$mode: preloaded: $(cat err)"
	expect_file want out
	"$MONDUMP" mon.out | awk '$1 == "cell" && $3 > 0 { print $3 }' |
	    sort -n | uniq -c | awk '{ print $1, $2 }' | sort -k2n > gotc
	printf '%s\n' "$N 3" "$((N * F)) $((3 * K))" | sort -k2n > wantc
	expect_file wantc gotc
done
