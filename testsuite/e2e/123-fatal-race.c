/*
 * 123-fatal-race: f is called 5 times, then
 * "term":  a thread sends SIGTERM to the process again and again (the
 *          first one starts the crash-time write, the next ones come
 *          during it);
 * "mixed": the same with SIGTERM first, then SIGINT, SIGHUP, SIGQUIT,
 *          SIGTERM... in turn;
 * "segv":  main calls exit() while a thread, started by the program's
 *          own exit handler, crashes (a null store) after up to a
 *          millisecond;
 * "dumps": writes its profile with monitor_signal() again and again,
 *          until killed.
 */
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "../tools/hooks.h"

static volatile unsigned long sink;
static volatile int crash;

COUNTED static void
f(void)
{
	MON_COUNT();
	sink++;
}

static void *
terminator(void *arg)
{
	static const int sigs[] = { SIGTERM, SIGINT, SIGHUP, SIGQUIT };
	int i, n = arg != NULL ? 4 : 1;

	for (i = 0; i < 100000; i++) {
		kill(getpid(), sigs[i % n]);
		usleep(20);
	}
	return NULL;
}

static void *
crasher(void *arg)
{
	struct timespec ts = { 0, 0 };

	(void)arg;
	while (!crash)
		continue;
	ts.tv_nsec = (long)(getpid() % 1000) * 1000;
	nanosleep(&ts, NULL);
	*(volatile int *)(sink - 5) = 1;
	return NULL;
}

static void
at_exit(void)
{
	crash = 1;
}

int
main(int argc, char **argv)
{
	pthread_t t;
	int i;

	for (i = 0; i < 5; i++)
		f();
	if (argc > 1 && strcmp(argv[1], "dumps") == 0)
		for (;;)
			monitor_signal(0);
	if (argc > 1 && strcmp(argv[1], "segv") != 0) {
		pthread_create(&t, NULL, terminator,
		    strcmp(argv[1], "mixed") == 0 ? argv[1] : NULL);
		for (;;)
			pause();
	}
	pthread_create(&t, NULL, crasher, NULL);
	atexit(at_exit);
	exit(0);
}
