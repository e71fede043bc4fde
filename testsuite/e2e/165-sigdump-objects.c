/*
 * 165-sigdump-objects: a daemon dumped with SIGUSR1 (PROFFLAGS -sigdump)
 * before and after it loads an instrumented object (argv[1]): f 10 times
 * before the first dump, then the object's g 20 times and its spin,
 * then the second dump, then f 5 times before exit.
 */
#include <dlfcn.h>
#include <signal.h>
#include <stdio.h>

long __attribute__((noinline, noclone))
f(long x)
{
	__asm__ volatile("");
	return x + 1;
}

int
main(int argc, char **argv)
{
	long (*g)(long), (*spin)(long), t = 0;
	void *h;

	if (argc != 2)
		return 2;
	for (int i = 0; i < 10; i++)
		t += f(i);
	raise(SIGUSR1);
	if ((h = dlopen(argv[1], RTLD_NOW)) == NULL) {
		fprintf(stderr, "%s\n", dlerror());
		return 1;
	}
	g = (long (*)(long))dlsym(h, "g");
	spin = (long (*)(long))dlsym(h, "spin");
	for (int i = 0; i < 20; i++)
		t += g(i);
	t += spin(100000000);
	raise(SIGUSR1);
	for (int i = 0; i < 5; i++)
		t += f(i);
	return t == 42;
}
