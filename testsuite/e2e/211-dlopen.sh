# 211-dlopen: a -fPIC library of 600 instrumented functions loads with
# dlopen(), every call in it is counted, with -p and with -pg, in 4
# threads, and the first call in a thread keeps its floating-point
# arguments: by default (hook ABI 6, words of the runtime's area, no
# thread-local storage of the library's; version 5's initial-exec words
# exhausted the static TLS block at about 200 functions) and with
# tls=global-dynamic (words of its own, through __tls_get_addr).
awk 'BEGIN { for (i = 0; i < 600; i++)
	printf "__attribute__((noinline)) int f%d(int x) " \
	    "{ __asm__ volatile(\"\"); return x + %d; }\n", i, i
    printf "int all(int x) { int s = 0;"
    for (i = 0; i < 600; i++) printf " s += f%d(x);", i
    print " return s; }"
    print "double fp(double a, double b, double c, double d) " \
	"{ return a + b + c + d; }" }' > lib.c
cat > main.c <<'X'
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
static int (*all)(int);
static double (*fp)(double, double, double, double);
static volatile int bad;
static void *run(void *arg)
{
	(void)arg;
	if (fp(1, 2, 4, 8) != 15)	/* first call in this thread */
		bad = 1;
	for (int i = 0; i < 25; i++)
		all(i);
	return NULL;
}
int main(int argc, char **argv)
{
	void *h = dlopen(argv[1], RTLD_NOW);
	pthread_t t[4];
	if (h == NULL) { fprintf(stderr, "%s\n", dlerror()); return 1; }
	all = (int (*)(int))dlsym(h, "all");
	fp = (double (*)(double, double, double, double))dlsym(h, "fp");
	for (int i = 0; i < 4; i++) pthread_create(&t[i], NULL, run, NULL);
	for (int i = 0; i < 4; i++) pthread_join(t[i], NULL);
	if (bad)
		fprintf(stderr, "fp() lost its arguments\n");
	return bad || all(0) != 600 * 599 / 2;
}
X
for mode in -p -pg "-p -fplugin-arg-monprof-tls=global-dynamic" \
    "-pg -fplugin-arg-monprof-tls=global-dynamic"; do
	rm -f mon.out gmon.out
	mp_cc $mode -O2 -fPIC -shared lib.c -o lib.so
	mp_cc $mode -O2 -pthread main.c -o a.out -ldl
	./a.out ./lib.so 2> err || fail "$mode: run: $(cat err)"
	# all and f0..f599 101 calls each, fp 4: prof names them.
	"$PROF" ./a.out > report || fail "$mode: prof"
	awk '$NF ~ /^(all|f[0-9]+|fp)$/ { print $4 }' report | sort |
	    uniq -c | awk '{ print $1, $2 }' | sort > got
	printf '%s\n' "601 101" "1 4" | sort > want
	expect_file want got
done
