/*
 * 171-pcells-control: moncontrol(0) and fork with thread-local counters.
 * Thread A calls g() 100 times on, 50 off, 7 on again; thread B runs
 * and ends while off (h() 30 times); thread C, on, calls h() 4 times.
 * Then the process forks: the child starts from zero, and calls f()
 * twice and k() 3 times, and its thread k() 5 times; the parent k()
 * once after.  Parent: f 10, g 107, h 4, k 1 (run_h 1: B's call was
 * off); child: f 2, k 8.
 */
#include <sys/wait.h>

#include <mon.h>
#include <pthread.h>
#include <semaphore.h>
#include <unistd.h>

#define NOINLINE __attribute__((__noinline__, __noclone__))

static volatile unsigned long sink;
static sem_t go, back;

NOINLINE void f(void) { sink++; }
NOINLINE void g(void) { sink++; }
NOINLINE void h(void) { sink++; }
NOINLINE void k(void) { sink++; }

static void
calls(void (*fn)(void), int n)
{
	while (n-- > 0)
		fn();
}

static void *
run_a(void *arg)
{
	calls(g, 100);
	sem_post(&back);
	sem_wait(&go);
	calls(g, 50);
	sem_post(&back);
	sem_wait(&go);
	calls(g, 7);
	return arg;
}

static void *
run_h(void *arg)
{
	calls(h, (int)(long)arg);
	return arg;
}

static void *
run_k(void *arg)
{
	calls(k, 5);
	return arg;
}

int
main(void)
{
	pthread_t a, t;
	pid_t pid;
	int st;

	sem_init(&go, 0, 0);
	sem_init(&back, 0, 0);
	calls(f, 10);
	pthread_create(&a, NULL, run_a, NULL);
	sem_wait(&back);
	moncontrol(0);
	sem_post(&go);
	sem_wait(&back);
	pthread_create(&t, NULL, run_h, (void *)30L);
	pthread_join(t, NULL);
	moncontrol(1);
	sem_post(&go);
	pthread_join(a, NULL);
	pthread_create(&t, NULL, run_h, (void *)4L);
	pthread_join(t, NULL);
	if ((pid = fork()) == 0) {
		calls(f, 2);
		calls(k, 3);
		pthread_create(&t, NULL, run_k, NULL);
		pthread_join(t, NULL);
		return 0;
	}
	waitpid(pid, &st, 0);
	calls(k, 1);
	return WIFEXITED(st) && WEXITSTATUS(st) == 0 ? 0 : 1;
}
