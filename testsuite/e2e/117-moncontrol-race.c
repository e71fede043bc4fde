/*
 * 117-moncontrol-race: two threads switch moncontrol off and on against
 * each other while main calls f; then, with counting on, main calls f
 * 1000 more times.  f's count lies between 1000 and all its calls: calls
 * made while off are excluded once, never twice.
 *
 * Then an exact phase, g: 2000 rounds in which both threads switch off
 * at once (released by a barrier), main calls g 1000 times, both switch
 * on at once, and main calls g once.  Only the one call of each round
 * is made while on, so g's count is exactly 2000.  Two switches to on
 * that both saw the mode off (no lock) each exclude the round's 1000
 * calls: g fell by 1000 a time, below zero.
 */
#include <pthread.h>
#include <stdio.h>

#include "../tools/hooks.h"

#define ROUNDS	2000
#define OFFCALLS 1000

static volatile unsigned long sink;
static pthread_barrier_t bar;

COUNTED static void
f(void)
{
	MON_COUNT();
	sink++;
}

COUNTED static void
g(void)
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

/* The exact phase: off together, main calls, on together, main calls. */
static void *
together(void *arg)
{
	int i;

	(void)arg;
	for (i = 0; i < ROUNDS; i++) {
		pthread_barrier_wait(&bar);
		moncontrol(0);
		pthread_barrier_wait(&bar);
		pthread_barrier_wait(&bar);
		moncontrol(1);
		pthread_barrier_wait(&bar);
	}
	return NULL;
}

int
main(void)
{
	pthread_t t[2];
	unsigned long calls = 0;
	int i, j;

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

	pthread_barrier_init(&bar, NULL, 3);
	for (i = 0; i < 2; i++)
		pthread_create(&t[i], NULL, together, NULL);
	for (i = 0; i < ROUNDS; i++) {
		pthread_barrier_wait(&bar);	/* both switch off */
		pthread_barrier_wait(&bar);
		for (j = 0; j < OFFCALLS; j++)
			g();
		pthread_barrier_wait(&bar);	/* both switch on */
		pthread_barrier_wait(&bar);
		g();
	}
	for (i = 0; i < 2; i++)
		pthread_join(t[i], NULL);
	printf("%lu\n", calls + 1000);
	return 0;
}
