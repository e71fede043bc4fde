/*
 * 431-fork-storm: a process that forks often samples by the CPU timer
 * until it forks no more (runtime/sampler.c).  It forks argv[2]
 * children that _exit at once, one after another, by fork_one(); prints
 * its threads then ("storm N"); runs parent_work for argv[3] ms of CPU
 * time; prints its threads again ("after N") and its CPU time in ms
 * since the forks ("cpu N").  After the forks and after the work it
 * prints glibc's single-threaded flag, the program's copy and libc's
 * own byte ("flags PL", 1 set, 0 clear: "single PL" and "single2 PL");
 * each child ends with status 9, not 7, where its flags are not what
 * they are plain (runtime/single.c).  Modes (argv[1]):
 *
 * main		the forks are main's
 * signal	the forks are a SIGALRM handler's, every 200 us of real
 *		time while main spins (the interval timer stopped after)
 * thread	a second thread, asleep, lives through the forks and work
 * block	main blocks every signal but the faults first (as a server
 *		that reads them from a signalfd does)
 * sigign	main ignores SIGPROF after the forks, before the work
 * around	every signal but the faults is blocked around each fork,
 *		and the mask restored after it (as dash and Python's
 *		subprocess do)
 * blocklate	as around; after the forks, main blocks SIGPROF for good,
 *		then forks as many times again, each after 1 ms of CPU
 * blockafter	after the forks, main blocks SIGPROF for good
 * execfail	after the forks, main execs a file that is not there
 * joined	main starts a thread and joins it before the forks
 * cancel	main cancels itself, cancellation disabled, before the forks
 *
 * Built with -p.
 */
#define _GNU_SOURCE
#include <sys/resource.h>
#include <sys/single_threaded.h>
#include <sys/time.h>
#include <sys/wait.h>

#include <dlfcn.h>
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static volatile unsigned long sink;
static volatile sig_atomic_t forked, failed, wrong;
static long forks;

static int around;
static int plain_flags = 11;	/* the flags plain (flags()) */
static char *own;		/* libc's own byte of the flag */

/* glibc's flag: the program's copy (a copy relocation) and libc's own. */
static int
flags(void)
{
	return (__libc_single_threaded != 0) * 10 + (own != NULL && *own != 0);
}

/* Every signal but the faults. */
static void
nonfaults(sigset_t *set)
{
	sigfillset(set);
	sigdelset(set, SIGSEGV);
	sigdelset(set, SIGBUS);
	sigdelset(set, SIGILL);
	sigdelset(set, SIGFPE);
	sigdelset(set, SIGTRAP);
	sigdelset(set, SIGSYS);
}

static void __attribute__((__noinline__, __noclone__))
fork_one(void)
{
	int saved = errno, st;
	sigset_t all, old;
	pid_t p;

	if (around) {
		nonfaults(&all);
		sigprocmask(SIG_SETMASK, &all, &old);
	}
	if ((p = fork()) == 0)
		_exit(flags() == plain_flags ? 7 : 9);
	if (around)
		sigprocmask(SIG_SETMASK, &old, NULL);
	if (p > 0 && waitpid(p, &st, 0) == p && WIFEXITED(st) &&
	    (WEXITSTATUS(st) == 7 || WEXITSTATUS(st) == 9)) {
		forked++;
		wrong += WEXITSTATUS(st) == 9;
	} else
		failed++;
	errno = saved;
}

static void
on_alarm(int sig)
{
	(void)sig;
	if (forked + failed < forks)
		fork_one();
}

static long
cpu_ms(void)
{
	struct timespec t;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
	return t.tv_sec * 1000 + t.tv_nsec / 1000000;
}

static void __attribute__((__noinline__, __noclone__))
parent_work(long ms)
{
	long t0 = cpu_ms();

	do
		for (int i = 0; i < 100000; i++)
			sink += i ^ ms;
	while (cpu_ms() - t0 < ms);
}

static void *
pass(void *arg)
{
	return arg;
}

static void *
sleeper(void *arg)
{
	(void)arg;
	for (;;)
		pause();
	return NULL;
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

int
main(int argc, char **argv)
{
	struct itimerval it = { { 0, 200 }, { 0, 200 } }, off = { 0 };
	pthread_t t;
	long ms, t0;

	if (argc != 4)
		return 2;
	forks = atol(argv[2]);
	/* With no copy relocation, the same byte twice. */
	own = dlvsym(RTLD_NEXT, "__libc_single_threaded", "GLIBC_2.32");
	ms = atol(argv[3]);
	if (strcmp(argv[1], "thread") == 0 &&
	    pthread_create(&t, NULL, sleeper, NULL) != 0)
		return 3;
	if (strcmp(argv[1], "thread") == 0)
		plain_flags = 0;
	if (strcmp(argv[1], "joined") == 0) {
		if (pthread_create(&t, NULL, pass, NULL) != 0 ||
		    pthread_join(t, NULL) != 0)
			return 3;
		plain_flags = 0;
	}
	if (strcmp(argv[1], "cancel") == 0) {
		/* glibc clears its own byte, for cancellation points. */
		pthread_setcancelstate(PTHREAD_CANCEL_DISABLE, NULL);
		if (pthread_cancel(pthread_self()) != 0)
			return 3;
		plain_flags = 10;
	}
	around = strcmp(argv[1], "around") == 0 ||
	    strcmp(argv[1], "blocklate") == 0;
	if (strcmp(argv[1], "block") == 0) {
		sigset_t all;

		nonfaults(&all);
		sigprocmask(SIG_BLOCK, &all, NULL);
	}
	if (strcmp(argv[1], "signal") == 0) {
		signal(SIGALRM, on_alarm);
		setitimer(ITIMER_REAL, &it, NULL);
		while (forked + failed < forks)
			sink++;
		setitimer(ITIMER_REAL, &off, NULL);
	} else
		while (forked + failed < forks)
			fork_one();
	if (failed != 0)
		return 4;
	if (wrong != 0) {
		fprintf(stderr, "%d children of %ld: glibc's flags not %02d\n",
		    (int)wrong, forks, plain_flags);
		return 6;
	}
	printf("storm %d\n", threads());
	printf("single %02d\n", flags());
	if (strcmp(argv[1], "sigign") == 0)
		signal(SIGPROF, SIG_IGN);
	if (strcmp(argv[1], "blockafter") == 0) {
		sigset_t prof;

		sigemptyset(&prof);
		sigaddset(&prof, SIGPROF);
		sigprocmask(SIG_BLOCK, &prof, NULL);
	}
	if (strcmp(argv[1], "execfail") == 0) {
		char *args[] = { "x", NULL };

		if (execv("/nonexistent/x", args) == 0 || errno != ENOENT)
			return 5;
	}
	if (strcmp(argv[1], "blocklate") == 0) {
		sigset_t prof;

		sigemptyset(&prof);
		sigaddset(&prof, SIGPROF);
		sigprocmask(SIG_BLOCK, &prof, NULL);
		for (long i = 0; i < forks; i++) {
			t0 = cpu_ms();
			while (cpu_ms() - t0 < 1)
				sink++;
			fork_one();
		}
		printf("blocked %d\n", threads());
	}
	t0 = cpu_ms();
	parent_work(ms);
	printf("after %d\n", threads());
	printf("single2 %02d\n", flags());
	printf("cpu %ld\n", cpu_ms() - t0);
	return 0;
}
