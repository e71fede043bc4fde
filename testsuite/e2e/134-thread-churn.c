/*
 * 134-thread-churn: NTHR short-lived threads, NALIVE at a time, each
 * calling NFN functions NCALL times; prints the peak RSS in KiB.
 * argv[1], argv[2]: NTHR and NALIVE (default 20000 and 4); argv[3]
 * "block": each thread blocks every signal first.
 */
#include <sys/resource.h>

#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NFN	256
#define NCALL	3

static volatile unsigned long sink;

#define F(n)								\
	static __attribute__((__noinline__, __noclone__, __used__)) void \
	f##n(void)							\
	{								\
		sink++;							\
	}
#define F4(n)	F(n##0) F(n##1) F(n##2) F(n##3)
#define F16(n)	F4(n##0) F4(n##1) F4(n##2) F4(n##3)
#define F64(n)	F16(n##0) F16(n##1) F16(n##2) F16(n##3)
F64(0) F64(1) F64(2) F64(3)

#define P(n)	f##n,
#define P4(n)	P(n##0) P(n##1) P(n##2) P(n##3)
#define P16(n)	P4(n##0) P4(n##1) P4(n##2) P4(n##3)
#define P64(n)	P16(n##0) P16(n##1) P16(n##2) P16(n##3)
static void (*const fn[NFN])(void) = { P64(0) P64(1) P64(2) P64(3) };

__attribute__((__noinline__, __noclone__)) void *
worker(void *arg)
{
	sigset_t all;
	int i, k;

	if (arg != NULL) {
		sigfillset(&all);
		pthread_sigmask(SIG_SETMASK, &all, NULL);
	}
	for (k = 0; k < NCALL; k++)
		for (i = 0; i < NFN; i++)
			fn[i]();
	return NULL;
}

int
main(int argc, char **argv)
{
	long nthr = argc > 1 ? atol(argv[1]) : 20000;
	long nalive = argc > 2 ? atol(argv[2]) : 4;
	void *block = argc > 3 && strcmp(argv[3], "block") == 0 ? argv : NULL;
	pthread_t t[64];
	struct rusage ru;
	long i, j, n;

	if (nalive < 1 || nalive > 64)
		return 2;
	for (i = 0; i < nthr; i += n) {
		n = nthr - i < nalive ? nthr - i : nalive;
		for (j = 0; j < n; j++)
			if (pthread_create(&t[j], NULL, worker, block) != 0)
				return 3;
		for (j = 0; j < n; j++)
			pthread_join(t[j], NULL);
	}
	getrusage(RUSAGE_SELF, &ru);
	printf("%ld\n", ru.ru_maxrss);
	return 0;
}
