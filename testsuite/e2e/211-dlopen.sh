# 211-dlopen: a -fPIC library of 600 instrumented functions loads with
# dlopen() (initial-exec TLS words would exhaust the static TLS block at
# about 200) and every call in it is counted, with -p and with -pg,
# thread-local words in 4 threads included.
awk 'BEGIN { for (i = 0; i < 600; i++)
	printf "__attribute__((noinline)) int f%d(int x) " \
	    "{ __asm__ volatile(\"\"); return x + %d; }\n", i, i
    printf "int all(int x) { int s = 0;"
    for (i = 0; i < 600; i++) printf " s += f%d(x);", i
    print " return s; }" }' > lib.c
cat > main.c <<'X'
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
static int (*all)(int);
static void *run(void *arg) { (void)arg; for (int i = 0; i < 25; i++) all(i); return NULL; }
int main(int argc, char **argv)
{
	void *h = dlopen(argv[1], RTLD_NOW);
	pthread_t t[4];
	if (h == NULL) { fprintf(stderr, "%s\n", dlerror()); return 1; }
	all = (int (*)(int))dlsym(h, "all");
	for (int i = 0; i < 4; i++) pthread_create(&t[i], NULL, run, NULL);
	for (int i = 0; i < 4; i++) pthread_join(t[i], NULL);
	return all(0) != 600 * 599 / 2;
}
X
for mode in -p -pg; do
	rm -f mon.out gmon.out
	mp_cc $mode -O2 -fPIC -shared lib.c -o lib.so
	mp_cc $mode -O2 -pthread main.c -o a.out -ldl
	./a.out ./lib.so 2> err || fail "$mode: run: $(cat err)"
	# Outside the executable's symbols: all and f0..f599, 101 calls each.
	counts ./a.out | awk '/^\?/ { print $2 }' | sort | uniq -c |
	    awk '{ print $1, $2 }' > got
	echo "601 101" > want
	expect_file want got
done
