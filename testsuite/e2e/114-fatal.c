/*
 * 114-fatal: f is called 3 times, then the program dies of the signal
 * named in argv[1] (segv: a null store, abrt: abort(), term: kill from
 * itself, own: SIGTERM with the program's own handler, which exits 7;
 * pipe: a write to a pipe no one reads, alrm: alarm(), usr1: kill).
 */
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../tools/hooks.h"

static volatile unsigned long sink;

COUNTED static void
f(void)
{
	MON_COUNT();
	sink++;
}

static void
own(int sig)
{
	(void)sig;
	_exit(7);
}

int
main(int argc, char **argv)
{
	int i;

	for (i = 0; i < 3; i++)
		f();
	if (argc < 2)
		return 0;
	if (strcmp(argv[1], "segv") == 0)
		*(volatile int *)(sink - 3) = 1;
	else if (strcmp(argv[1], "abrt") == 0)
		abort();
	else if (strcmp(argv[1], "own") == 0) {
		signal(SIGTERM, own);
		kill(getpid(), SIGTERM);
	} else if (strcmp(argv[1], "term") == 0)
		kill(getpid(), SIGTERM);
	else if (strcmp(argv[1], "pipe") == 0) {
		int p[2];

		if (pipe(p) == 0 && close(p[0]) == 0)
			(void)!write(p[1], "x", 1);
	} else if (strcmp(argv[1], "alrm") == 0)
		alarm(1);
	else if (strcmp(argv[1], "usr1") == 0)
		kill(getpid(), SIGUSR1);
	pause();
	return 1;
}
