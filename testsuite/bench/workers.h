/* SPDX-License-Identifier: MIT */
/*
 * workers.h - the threads of bench's threaded workloads (threads.c,
 * globals.c): argv[1] is the percentage of the work (default 100),
 * argv[2] the number of threads (default 4, at most 64), each running
 * worker((void *)i) for iters iterations of its loop.
 */
#ifndef BENCH_WORKERS_H
#define BENCH_WORKERS_H

#include <pthread.h>
#include <stdlib.h>

static unsigned long iters;

/*
 * Run the threads, total iterations at 100% shared among them; the xor
 * of what their workers return, their number in *np.  0 on a bad
 * argument, with *np 0.  Not cloned: gprof knows no symbol with a dot
 * (workers_run.constprop.0) and gives its call to the function before
 * it, which the bench's exactness check would count.
 */
static unsigned long __attribute__((__noclone__))
workers_run(int argc, char **argv, unsigned long total,
    void *(*worker)(void *), unsigned long *np)
{
	unsigned long pct = argc > 1 ? strtoul(argv[1], NULL, 10) : 100;
	unsigned long n = argc > 2 ? strtoul(argv[2], NULL, 10) : 4, i;
	unsigned long acc = 0;
	pthread_t tid[64];
	void *r;

	*np = 0;
	if (n < 1 || n > 64)
		return 0;
	iters = total * pct / 100 / n;
	for (i = 0; i < n; i++)
		pthread_create(&tid[i], NULL, worker, (void *)i);
	for (i = 0; i < n; i++) {
		pthread_join(tid[i], &r);
		acc ^= (unsigned long)r;
	}
	*np = n;
	return acc;
}

#endif
