/*
 * 170-pcells-threads: an executable's -p counters are thread-local
 * (hook ABI 3); every thread's are counted, whoever starts it:
 *	- 4 threads of pthread_create, alive together: work() 4 x 50000
 *	- 200 threads one after another (each ends, joined, before the
 *	  next starts on its cached stack, whose TLS glibc clears): seq()
 *	  200 x 1000
 *	- threads started by a library's pthread_create (spawn(), not
 *	  instrumented): lib() 3 x 7000
 *	- a thread whose key destructor, run after the runtime's first
 *	  round, calls late() 5 times
 *	- a detached thread that ends before the write: detached() 1234
 */
#include <pthread.h>
#include <semaphore.h>

#define NOINLINE __attribute__((__noinline__, __noclone__))

void spawn(void *(*)(void *), void *, int);

static volatile unsigned long sink;
static pthread_key_t key, dkey;
static sem_t done;

NOINLINE void work(void) { sink++; }
NOINLINE void seq(void) { sink++; }
NOINLINE void lib(void) { sink++; }
NOINLINE void late(void) { sink++; }
NOINLINE void detached(void) { sink++; }

/* A thread's work: fn() n times. */
struct job {
	void	(*fn)(void);
	int	 n;
};

static void *
run(void *arg)
{
	const struct job *j = arg;
	int i;

	for (i = 0; i < j->n; i++)
		j->fn();
	return NULL;
}

static struct job work_job = { work, 50000 }, seq_job = { seq, 1000 },
    lib_job = { lib, 7000 }, detached_job = { detached, 1234 };

static void
late_dtor(void *arg)
{
	int i;

	(void)arg;
	for (i = 0; i < 5; i++)
		late();
}

static void *
run_late(void *arg)
{
	pthread_setspecific(key, &key);
	return arg;
}

static void
detached_dtor(void *arg)
{
	(void)arg;
	sem_post(&done);
}

static void *
run_detached(void *arg)
{
	run(arg);
	pthread_setspecific(dkey, &dkey);
	return NULL;
}

int
main(void)
{
	pthread_t t[4];
	pthread_attr_t a;
	int i;

	/* Made after the runtime's key: their destructors run after it. */
	pthread_key_create(&key, late_dtor);
	pthread_key_create(&dkey, detached_dtor);
	sem_init(&done, 0, 0);
	for (i = 0; i < 4; i++)
		pthread_create(&t[i], NULL, run, &work_job);
	for (i = 0; i < 4; i++)
		pthread_join(t[i], NULL);
	for (i = 0; i < 200; i++) {
		pthread_create(&t[0], NULL, run, &seq_job);
		pthread_join(t[0], NULL);
	}
	spawn(run, &lib_job, 3);
	pthread_create(&t[0], NULL, run_late, NULL);
	pthread_join(t[0], NULL);
	pthread_attr_init(&a);
	pthread_attr_setdetachstate(&a, PTHREAD_CREATE_DETACHED);
	pthread_create(&t[0], &a, run_detached, &detached_job);
	sem_wait(&done);
	return 0;
}
