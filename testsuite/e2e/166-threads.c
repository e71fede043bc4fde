/*
 * 166-threads: the main thread and two workers, A then B (B starts once
 * A has run instrumented code, so A is thread 2 and B thread 3), each
 * calling its own function and a shared one a known number of times and
 * spinning in a function of its own for a known CPU time.  With an
 * argument, B starts once A has ended: B counts on in A's slots (it
 * adopts them), and its file must still hold only B's calls.  With
 * "exit", the main thread ends by pthread_exit before A and B.
 */
#include <pthread.h>
#include <string.h>
#include <time.h>

static volatile unsigned long sink;
static volatile int a_started;

static double
tcpu(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

__attribute__((noinline)) void
common(void)
{
	sink++;
}

__attribute__((noinline)) void
work_main(void)
{
	sink++;
}

__attribute__((noinline)) void
work_a(void)
{
	sink++;
}

__attribute__((noinline)) void
work_b(void)
{
	sink++;
}

#define SPIN(name, secs)						\
__attribute__((noinline)) void						\
name(void)								\
{									\
	double end = tcpu() + (secs);					\
	unsigned long i;						\
									\
	while (tcpu() < end)						\
		for (i = 0; i < 100000; i++)				\
			sink += i;					\
}

SPIN(spin_main, 0.2)
SPIN(spin_a, 0.4)
SPIN(spin_b, 0.4)

static void
calls(void (*f)(void), int n)
{
	int i;

	for (i = 0; i < n; i++)
		f();
}

static void *
thread_a(void *arg)
{
	(void)arg;
	calls(work_a, 2000);
	__atomic_store_n(&a_started, 1, __ATOMIC_RELEASE);
	calls(common, 20);
	spin_a();
	return NULL;
}

static void *
thread_b(void *arg)
{
	(void)arg;
	calls(work_b, 3000);
	calls(common, 30);
	spin_b();
	return NULL;
}

int
main(int argc, char **argv)
{
	pthread_t a, b;

	calls(work_main, 1000);
	calls(common, 10);
	pthread_create(&a, NULL, thread_a, NULL);
	while (!__atomic_load_n(&a_started, __ATOMIC_ACQUIRE))
		;
	if (argc > 1 && strcmp(argv[1], "exit") == 0) {
		pthread_create(&b, NULL, thread_b, NULL);
		spin_main();
		pthread_exit(NULL);
	} else if (argc > 1) {
		pthread_join(a, NULL);
		pthread_create(&b, NULL, thread_b, NULL);
		spin_main();
	} else {
		pthread_create(&b, NULL, thread_b, NULL);
		spin_main();
		pthread_join(a, NULL);
	}
	pthread_join(b, NULL);
	return 0;
}
