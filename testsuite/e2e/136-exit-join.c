/*
 * 136-exit-join: main calls exit(0); its exit handler tells a worker to
 * stop and joins it; the worker, told to stop, takes an error path and
 * calls exit(3).  glibc before 2.41 runs the worker's exit: status 3.
 * f is called 5 times before, by main.  Built -DDESTRUCTOR, the join is
 * a destructor's (run by exit() after every exit handler, the runtime's
 * among them) and main returns.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

static volatile unsigned long sink;
static volatile int stop;
static pthread_t t;

__attribute__((noinline, noclone)) static void
f(void)
{
	sink++;
}

static void *
worker(void *arg)
{
	(void)arg;
	while (!stop)
		usleep(1000);
	printf("worker: stopping on an error\n");
	exit(3);
}

#ifdef DESTRUCTOR
__attribute__((destructor))
#endif
static void
bye(void)
{
	stop = 1;
	pthread_join(t, NULL);
	printf("joined\n");
}

int
main(void)
{
	int i;

	for (i = 0; i < 5; i++)
		f();
	if (pthread_create(&t, NULL, worker, NULL) != 0)
		return 2;
#ifdef DESTRUCTOR
	printf("main: return 0\n");
	return 0;
#else
	atexit(bye);
	printf("main: exit(0)\n");
	exit(0);
#endif
}
