/*
 * 110-blocking: while a second thread burns CPU (and is sampled), the
 * main thread blocks in read() on a pipe fed late by a child process,
 * in nanosleep() and in sleep(): none of them may fail or return early.
 * Exit status: 0, or the number of the call that was disturbed; on
 * stderr the milliseconds of CPU time the process got.
 */
#include <sys/resource.h>
#include <sys/wait.h>

#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <time.h>
#include <unistd.h>

#include "../tools/hooks.h"

static volatile int done;
static volatile unsigned long sink;

COUNTED static void
burn(void)
{
	MON_COUNT();
	while (!done)
		for (int i = 0; i < 10000; i++)
			sink += i;
}

static void *
burner(void *arg)
{
	(void)arg;
	burn();
	return NULL;
}

int
main(void)
{
	struct timespec ts = { 0, 300000000 }, rem;
	pthread_t t;
	struct rusage ru;
	struct sigaction cur;
	int p[2], st, rc = 0;
	char c;

	MON_COUNT();
	if (pipe(p) != 0)
		return 9;
	pthread_create(&t, NULL, burner, NULL);
	if (fork() == 0) {
		close(p[0]);
		nanosleep(&ts, NULL);
		_exit(write(p[1], "x", 1) == 1 ? 0 : 1);
	}
	close(p[1]);
	/* Burn some CPU here too, so itimer signals come to this thread. */
	for (int i = 0; i < 2000000; i++)
		sink += i;
	if (read(p[0], &c, 1) != 1)
		rc = 1;
	else if (nanosleep(&ts, &rem) != 0)
		rc = 2;
	else if (sleep(1) != 0)
		rc = 3;
	else if (usleep(200000) != 0)
		rc = 4;
	if (rc == 0 && sigaction(SIGPROF, NULL, &cur) == 0 &&
	    (cur.sa_flags & SA_SIGINFO) &&
	    (!(cur.sa_flags & SA_NODEFER) || sigismember(&cur.sa_mask, SIGPROF)))
		rc = 5;
	done = 1;
	pthread_join(t, NULL);
	wait(&st);
	/* The CPU time the process got, which its samples are held to. */
	if (getrusage(RUSAGE_SELF, &ru) == 0)
		fprintf(stderr, "%ld\n", ru.ru_utime.tv_sec * 1000L +
		    ru.ru_utime.tv_usec / 1000 + ru.ru_stime.tv_sec * 1000L +
		    ru.ru_stime.tv_usec / 1000);
	return rc;
}
