/*
 * 117-moncontrol-race: two threads switch moncontrol off and on against
 * each other while main calls f; then, with counting on, main calls f
 * 1000 more times.  f's count lies between 1000 and all its calls: calls
 * made while off are excluded once, never twice.
 */
#include <pthread.h>
#include <stdio.h>

#include "../tools/hooks.h"

static volatile unsigned long sink;
static volatile int done;

COUNTED static void
f(void)
{
	MON_COUNT();
	sink++;
}

static void *
toggler(void *arg)
{
	int i;

	(void)arg;
	for (i = 0; i < 20000; i++) {
		moncontrol(0);
		moncontrol(1);
	}
	return NULL;
}

int
main(void)
{
	pthread_t t[2];
	unsigned long calls = 0;
	int i;

	for (i = 0; i < 2; i++)
		pthread_create(&t[i], NULL, toggler, NULL);
	while (calls < 2000000) {
		f();
		calls++;
	}
	for (i = 0; i < 2; i++)
		pthread_join(t[i], NULL);
	moncontrol(1);
	for (i = 0; i < 1000; i++)
		f();
	printf("%lu\n", calls + 1000);
	return 0;
}
