/*
 * 114-fatal: f is called 3 times, then the program dies of the signal
 * named in argv[1] (segv: a null store, abrt: abort(), term: kill from
 * itself, own: SIGTERM with the program's own handler, which exits 7).
 */
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "hook.h"

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
	pause();
	return 1;
}
