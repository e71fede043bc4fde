/*
 * 141-windows: the executable's counters in each thread's window (hook
 * ABI 7) across threads that end, leases adopted, and fork children
 * that start threads of their own: the parent runs 3 rounds of 4
 * threads (work 1000 times each), forking a child after each round;
 * each child runs 4 threads (work 100 times, child_only once each) and
 * calls exit.  A child's counts start from zero although its windows
 * hold the parent's, and the parent's do not include any child's.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

__attribute__((noinline, noclone)) int
work(int x)
{
	__asm__ volatile("");
	return x + 1;
}

__attribute__((noinline, noclone)) int
child_only(int x)
{
	__asm__ volatile("");
	return x - 1;
}

static void *
thread(void *arg)
{
	long i, n = (long)arg, s = 0;

	for (i = 0; i < n; i++)
		s += work((int)i);
	if (n == 100)
		s += child_only(1);
	return (void *)s;
}

static void
round4(long n)
{
	pthread_t t[4];
	int i;

	for (i = 0; i < 4; i++)
		if (pthread_create(&t[i], NULL, thread, (void *)n) != 0)
			exit(3);
	for (i = 0; i < 4; i++)
		pthread_join(t[i], NULL);
}

int
main(void)
{
	int r, st;
	pid_t p;

	for (r = 0; r < 3; r++) {
		round4(1000);
		if ((p = fork()) == 0) {
			round4(100);
			exit(0);
		}
		if (p < 0 || waitpid(p, &st, 0) != p || st != 0)
			return 2;
	}
	return 0;
}
