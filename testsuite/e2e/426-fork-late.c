/*
 * 426-fork-late: a fork child's perf sampler starts late.  The child
 * prints how many threads it has right after fork (1: no helper thread
 * yet), runs child_work for argv[2] ms of its CPU time, prints its
 * threads again and its CPU time in ms, and exits.  Modes (argv[1]):
 *
 * spin		as above
 * thread	the child first creates a thread that runs thread_work for
 *		argv[2] ms, and prints its threads after pthread_create
 * sigprof	the program handles SIGPROF itself before the fork
 * dfl		the child sets SIGPROF's action to SIG_DFL first (as code
 *		that resets every signal after fork does), then spins
 * unshare	the same after unshare(CLONE_NEWUSER), whose result it prints
 * dflfork	the same, then it forks a child that spins argv[2] ms and
 *		prints its threads then ("gran N")
 * vfork	the child first runs /bin/true by vfork and exec
 * select	the child, forked off a thread (so it never has a safe
 *		point, and the timer samples it all along), calls select()
 *		on 500 pipes, 200 us each, argv[2] times, and prints the
 *		calls that failed with EINTR
 * forks	argv[2] children that _exit at once (status 7 where they
 *		are their only thread, 8 if not), then "ok"
 * alarm	a 2 ms SIGALRM handler forks a child that _exits, argv[2]
 *		times, then "ok"
 *
 * Built with -p.
 */
#define _GNU_SOURCE
#include <sys/resource.h>
#include <sys/select.h>
#include <sys/time.h>
#include <sys/wait.h>

#include <errno.h>
#include <sched.h>
#include <stdint.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static volatile unsigned long sink;
static volatile sig_atomic_t profs;
static volatile sig_atomic_t alarms;

/* Spin until the calling thread has run ms milliseconds of CPU time. */
#define SPIN(ms) do {							\
	struct timespec t0_, t_;					\
									\
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t0_);			\
	do {								\
		for (int i_ = 0; i_ < 100000; i_++)			\
			sink += i_ ^ (ms);				\
		clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t_);		\
	} while ((t_.tv_sec - t0_.tv_sec) * 1000 +			\
	    (t_.tv_nsec - t0_.tv_nsec) / 1000000 < (ms));		\
} while (0)

static void __attribute__((__noinline__, __noclone__))
child_work(long ms)
{
	SPIN(ms);
}

static void * __attribute__((__noinline__, __noclone__))
thread_work(void *arg)
{
	SPIN((long)arg + 1);
	return NULL;
}

static void
on_prof(int sig)
{
	(void)sig;
	profs++;
}

/*
 * select() on 500 empty pipes n times: how many failed with EINTR.  Its
 * time is the kernel's, where no tick is a safe point: the timer stays.
 */
static long __attribute__((__noinline__, __noclone__))
selects(long n)
{
	int p[2], k, max = 0;
	long i, eintr = 0;
	struct timeval tv;
	fd_set all, set;

	FD_ZERO(&all);
	for (k = 0; k < 500 && pipe(p) == 0; k++) {
		FD_SET(p[0], &all);
		if (p[0] > max)
			max = p[0];
	}
	for (i = 0; i < n; i++) {
		set = all;
		tv.tv_sec = 0;
		tv.tv_usec = 200;
		if (select(max + 1, &set, NULL, NULL, &tv) < 0 &&
		    errno == EINTR)
			eintr++;
	}
	return eintr;
}

/* SIGALRM: a child that exits at once, reaped here. */
static void
on_alarm(int sig)
{
	int saved = errno, st;
	pid_t p;

	(void)sig;
	if ((p = fork()) == 0)
		_exit(7);
	if (p > 0 && waitpid(p, &st, 0) == p && WIFEXITED(st) &&
	    WEXITSTATUS(st) == 7)
		alarms++;
	errno = saved;
}

/* The threads of this process, from /proc. */
static int
threads(void)
{
	char line[256];
	FILE *f = fopen("/proc/self/status", "r");
	int n = -1;

	while (f != NULL && fgets(line, sizeof(line), f) != NULL)
		if (strncmp(line, "Threads:", 8) == 0)
			n = atoi(line + 8);
	if (f != NULL)
		fclose(f);
	return n;
}

static long
cpu_ms(void)
{
	struct rusage ru;

	getrusage(RUSAGE_SELF, &ru);
	return ru.ru_utime.tv_sec * 1000 + ru.ru_utime.tv_usec / 1000 +
	    ru.ru_stime.tv_sec * 1000 + ru.ru_stime.tv_usec / 1000;
}

/* Fork the child of mode argv[1]: 0 if it ended well, else 1. */
static void *
forker(void *arg)
{
	char **argv = arg;
	long ms = atol(argv[2]);
	pthread_t t;
	pid_t p;
	int st;

	if ((p = fork()) == 0) {
		printf("forked %d\n", threads());
		if (strcmp(argv[1], "unshare") == 0)
			printf("unshare %d\n", unshare(CLONE_NEWUSER));
		if (strcmp(argv[1], "dfl") == 0 ||
		    strcmp(argv[1], "unshare") == 0 ||
		    strcmp(argv[1], "dflfork") == 0)
			signal(SIGPROF, SIG_DFL);
		if (strcmp(argv[1], "vfork") == 0) {
			if ((p = vfork()) == 0) {
				execl("/bin/true", "true", (char *)NULL);
				_exit(127);
			}
			printf("vfork %d\n", p > 0 && waitpid(p, &st, 0) == p &&
			    WIFEXITED(st) ? WEXITSTATUS(st) : -1);
		}
		if (strcmp(argv[1], "dflfork") == 0) {
			fflush(stdout);
			if ((p = fork()) == 0) {
				child_work(ms);
				printf("gran %d\n", threads());
				exit(0);
			}
			waitpid(p, &st, 0);
			ms = 1;
		}
		if (strcmp(argv[1], "thread") == 0) {
			if (pthread_create(&t, NULL, thread_work,
			    (void *)ms) != 0)
				_exit(3);
			printf("created %d\n", threads());
			pthread_join(t, NULL);
		}
		if (strcmp(argv[1], "select") == 0) {
			printf("eintr %ld\n", selects(ms));
			ms = 1;
		}
		child_work(ms);
		printf("ran %d\n", threads());
		printf("cpu %ld\n", cpu_ms());
		printf("pid %ld\n", (long)getpid());
		printf("sigprof %d\n", (int)profs);
		exit(0);
	}
	return (void *)(intptr_t)(p > 0 && waitpid(p, &st, 0) == p &&
	    WIFEXITED(st) && WEXITSTATUS(st) == 0 ? 0 : 1);
}

int
main(int argc, char **argv)
{
	long ms = argc > 2 ? atol(argv[2]) : 0, i;
	pthread_t t;
	pid_t p;
	int st;

	if (argc < 3)
		return 2;
	if (strcmp(argv[1], "forks") == 0) {
		for (i = 0; i < ms; i++) {
			if ((p = fork()) == 0)
				_exit(threads() == 1 ? 7 : 8);
			if (p < 0 || waitpid(p, &st, 0) != p ||
			    !WIFEXITED(st) || WEXITSTATUS(st) != 7)
				return 1;
		}
		puts("ok");
		return 0;
	}
	if (strcmp(argv[1], "alarm") == 0) {
		struct itimerval it = { { 0, 2000 }, { 0, 2000 } };

		signal(SIGALRM, on_alarm);
		setitimer(ITIMER_REAL, &it, NULL);
		while (alarms < ms)
			pause();
		it.it_value.tv_usec = it.it_interval.tv_usec = 0;
		setitimer(ITIMER_REAL, &it, NULL);
		puts("ok");
		return 0;
	}
	if (strcmp(argv[1], "sigprof") == 0)
		signal(SIGPROF, on_prof);
	printf("parent %ld\n", (long)getpid());
	fflush(stdout);
	/* select: forked off a thread, the child never has a safe point. */
	if (strcmp(argv[1], "select") == 0) {
		void *r;

		if (pthread_create(&t, NULL, forker, argv) != 0 ||
		    pthread_join(t, &r) != 0)
			return 1;
		return (int)(intptr_t)r;
	}
	return (int)(intptr_t)forker(argv);
}
