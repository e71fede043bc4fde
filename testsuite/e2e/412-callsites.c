/*
 * 412-callsites: -pg arcs stay exact where a call site's announcement
 * does not reach its callee's entry: a signal handler that calls the
 * same functions comes in between the site and the entry (the
 * handler's own calls then read and clear it), a call through an alias
 * (another name), a function also called through a pointer and from a
 * function without instrumentation.  The main thread and a worker loop
 * over the calls while a third thread sends
 * both SIGUSR1 as fast as it can, argv[1] times.  Prints what each
 * function must count, from the program's own counters.
 */
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>

#define NOINLINE __attribute__((noinline, noclone))
#define NOTAIL	__asm__ volatile("")

volatile long sink;
void	f(long);
void	g(long);
void	alias_f(long) __attribute__((alias("f")));

NOINLINE void f(long i) { sink += i; NOTAIL; }
NOINLINE void g(long i) { sink ^= i; NOTAIL; }
NOINLINE void h(long i) { sink -= i; NOTAIL; }
void (*volatile via)(long) = h;
NOINLINE __attribute__((no_instrument_function)) void
bare(long i)
{
	h(i);
	NOTAIL;
}

static volatile int done;
static volatile long handled[2], rounds[2];
static pthread_t victims[2];

static void
handler(int sig)
{
	int k = pthread_equal(pthread_self(), victims[0]) ? 0 : 1;

	(void)sig;
	f(1);
	g(1);
	handled[k]++;
}

static void
loop(int k)
{
	long i;

	for (i = 0; !done; i++) {
		f(i);
		g(i);
		f(i);
		alias_f(i);
		h(i);
		via(i);
		bare(i);
		rounds[k]++;
	}
}

static void *
worker(void *arg)
{
	(void)arg;
	loop(1);
	return NULL;
}

static void *
sender(void *arg)
{
	long n = *(long *)arg, i;

	for (i = 0; i < n; i++) {
		pthread_kill(victims[i & 1], SIGUSR1);
		if (i % 64 == 0)
			sched_yield();
	}
	done = 1;
	return NULL;
}

int
main(int argc, char **argv)
{
	struct sigaction sa = { 0 };
	pthread_t w, s;
	long n = argc > 1 ? atol(argv[1]) : 20000, r, hd;

	sa.sa_handler = handler;
	sigemptyset(&sa.sa_mask);
	sa.sa_flags = SA_RESTART;
	if (sigaction(SIGUSR1, &sa, NULL) != 0)
		return 1;
	victims[0] = pthread_self();
	if (pthread_create(&w, NULL, worker, NULL) != 0)
		return 1;
	victims[1] = w;
	if (pthread_create(&s, NULL, sender, &n) != 0)
		return 1;
	loop(0);
	pthread_join(s, NULL);
	pthread_join(w, NULL);
	r = rounds[0] + rounds[1];
	hd = handled[0] + handled[1];
	printf("f %ld\ng %ld\nh %ld\n", 3 * r + hd, r + hd, 3 * r);
	return 0;
}
