/*
 * 129-endings: f is called 3 times, then the process ends as argv[1]
 * says: "return" 3 from main, "exit" exit(4), "thread" exit(5) in a
 * thread, "last" main calls pthread_exit and the last thread returns
 * (an exit handler then needs 600 KB of stack, as the thread has),
 * "quick" quick_exit(6), "_exit" _exit(7), or a signal number: raised
 * with its default action.
 */
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../tools/hooks.h"

static volatile unsigned long sink;

COUNTED static void
f(void)
{
	MON_COUNT();
	sink++;
}

static void *
thread_exit(void *arg)
{
	(void)arg;
	exit(5);
}

static void
deep_handler(void)
{
	volatile char buf[600 << 10];

	memset((char *)buf, 1, sizeof(buf));
	sink += buf[1000];
}

static void *
last(void *arg)
{
	(void)arg;
	usleep(10000);
	return NULL;
}

int
main(int argc, char **argv)
{
	pthread_t t;
	int i;

	for (i = 0; i < 3; i++)
		f();
	if (argc < 2)
		return 2;
	if (strcmp(argv[1], "return") == 0)
		return 3;
	if (strcmp(argv[1], "exit") == 0)
		exit(4);
	if (strcmp(argv[1], "thread") == 0) {
		pthread_create(&t, NULL, thread_exit, NULL);
		pause();
	}
	if (strcmp(argv[1], "last") == 0) {
		atexit(deep_handler);
		pthread_create(&t, NULL, last, NULL);
		pthread_exit(NULL);
	}
	if (strcmp(argv[1], "quick") == 0)
		quick_exit(6);
	if (strcmp(argv[1], "_exit") == 0)
		_exit(7);
	raise(atoi(argv[1]));
	return 1;
}
