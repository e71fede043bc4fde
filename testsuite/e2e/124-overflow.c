/*
 * 124-overflow: f is called 3 times, then a recursion overflows the
 * stack of main ("main"), of main with an alternate signal stack of the
 * program's own of 8 KiB ("own"), or of a thread ("thread").
 */
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>

#include "../tools/hooks.h"

static volatile unsigned long sink;

COUNTED static void
f(void)
{
	MON_COUNT();
	sink++;
}

COUNTED static unsigned long
deep(unsigned long n)
{
	volatile char pad[256];

	MON_COUNT();
	pad[0] = (char)n;
	return deep(n + 1) + pad[0];
}

static void *
run(void *arg)
{
	(void)arg;
	sink = deep(0);
	return NULL;
}

int
main(int argc, char **argv)
{
	static char altstack[8192];
	pthread_t t;
	stack_t ss;
	int i;

	for (i = 0; i < 3; i++)
		f();
	if (argc > 1 && strcmp(argv[1], "own") == 0) {
		memset(&ss, 0, sizeof(ss));
		ss.ss_sp = altstack;
		ss.ss_size = sizeof(altstack);
		if (sigaltstack(&ss, NULL) != 0)
			return 2;
	}
	if (argc > 1 && strcmp(argv[1], "thread") == 0) {
		pthread_create(&t, NULL, run, NULL);
		pthread_join(t, NULL);
	} else
		run(NULL);
	return 1;
}
