/*
 * 173-switching: a server's pattern, many short blocking calls: main
 * sends a byte to an echo thread and reads it back, over and over, for
 * a second, while a thread that blocks every signal burns CPU.  With the
 * argument "spin" it is the other process of the test instead: a loop
 * in spin(), at the same addresses (no PIE), never run by the first;
 * with "short", the same for 50 ms.  Prints the round trips.
 */
#include <sys/socket.h>

#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "../tools/hooks.h"

static volatile int done;
static volatile unsigned long sink;
static int sv[2];

COUNTED static void
burn(void)
{
	MON_COUNT();
	while (!done)
		for (int i = 0; i < 10000; i++)
			sink += i;
}

COUNTED static void
spin(void)
{
	MON_COUNT();
	for (;;)
		sink++;
}

COUNTED static void
ping(void)
{
	char c = 'x';

	MON_COUNT();
	if (write(sv[0], &c, 1) != 1 || read(sv[0], &c, 1) != 1)
		_exit(3);
}

static void *
burner(void *arg)
{
	sigset_t all;

	(void)arg;
	sigfillset(&all);
	pthread_sigmask(SIG_BLOCK, &all, NULL);
	burn();
	return NULL;
}

static void *
echo(void *arg)
{
	char c;

	(void)arg;
	while (read(sv[1], &c, 1) == 1)
		if (write(sv[1], &c, 1) != 1)
			break;
	return NULL;
}

static double
now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

int
main(int argc, char **argv)
{
	pthread_t b, e;
	double end;
	long n = 0;

	MON_COUNT();
	if (argc > 1 && strcmp(argv[1], "spin") == 0)
		spin();
	if (socketpair(AF_UNIX, SOCK_STREAM, 0, sv) != 0)
		return 9;
	pthread_create(&b, NULL, burner, NULL);
	pthread_create(&e, NULL, echo, NULL);
	end = now() + (argc > 1 ? 0.05 : 1.2);
	while (now() < end)
		for (int i = 0; i < 100; i++, n++)
			ping();
	done = 1;
	shutdown(sv[0], SHUT_WR);
	pthread_join(e, NULL);
	pthread_join(b, NULL);
	printf("%ld\n", n);
	return 0;
}
