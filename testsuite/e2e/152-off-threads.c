/*
 * 152-off-threads: NTHR short threads, NALIVE at a time; each calls
 * NFN functions through a table, then its pthread key's destructor,
 * which runs after the runtime's has released the thread's leases,
 * calls them again from another place (new -pg arcs).  Prints the sum
 * of what the functions returned, which does not depend on profiling.
 * argv[1], argv[2]: NTHR and NALIVE (default 2000 and 8).
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#define NFN	64

#define F(n)								\
	static __attribute__((__noinline__, __noclone__)) unsigned long	\
	f##n(unsigned long a)						\
	{								\
		return a * 31 + 0x##n;					\
	}
#define F4(n)	F(n##0) F(n##1) F(n##2) F(n##3)
#define F16(n)	F4(n##0) F4(n##1) F4(n##2) F4(n##3)
F16(0) F16(1) F16(2) F16(3)

#define P(n)	f##n,
#define P4(n)	P(n##0) P(n##1) P(n##2) P(n##3)
#define P16(n)	P4(n##0) P4(n##1) P4(n##2) P4(n##3)
static unsigned long (*const fn[NFN])(unsigned long) = {
	P16(0) P16(1) P16(2) P16(3)
};

static pthread_key_t key;
static unsigned long total;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

static __attribute__((__noinline__, __noclone__)) unsigned long
late_calls(unsigned long a)
{
	int i;

	for (i = 0; i < NFN; i++)
		a = fn[(i * 7) % NFN](a);
	return a;
}

static void
destructor(void *v)
{
	unsigned long a = late_calls((unsigned long)v);

	pthread_mutex_lock(&lock);
	total += a & 0xffff;
	pthread_mutex_unlock(&lock);
}

static void *
worker(void *v)
{
	unsigned long a = (unsigned long)v;
	int i;

	for (i = 0; i < NFN; i++)
		a = fn[i](a);
	/* Non-null: the destructor runs as the thread ends. */
	pthread_setspecific(key, (void *)(a | 1));
	return NULL;
}

int
main(int argc, char **argv)
{
	long nthr = argc > 1 ? atol(argv[1]) : 2000;
	long nalive = argc > 2 ? atol(argv[2]) : 8, i, k;
	pthread_t t[64];

	if (nalive < 1 || nalive > 64 || pthread_key_create(&key, destructor))
		return 2;
	for (i = 0; i < nthr; i += nalive) {
		for (k = 0; k < nalive && i + k < nthr; k++)
			if (pthread_create(&t[k], NULL, worker,
			    (void *)(i + k)) != 0)
				return 3;
		while (k-- > 0)
			pthread_join(t[k], NULL);
	}
	printf("threads %ld total %lu\n", nthr, total);
	return 0;
}
