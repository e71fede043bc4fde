/*
 * 111-signal: monitor_signal as a handler writes the profile while the
 * program runs on; with -sigdump each dump starts a new profile and is
 * numbered.
 * argv[1] "handler": install monitor_signal on SIGUSR1 ourselves.
 */
#include <signal.h>
#include <stdio.h>
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

int
main(int argc, char **argv)
{
	int i, sig = SIGUSR2;

	if (argc > 1 && strcmp(argv[1], "handler") == 0) {
		signal(SIGUSR1, monitor_signal);
		sig = SIGUSR1;
	}
	for (i = 0; i < 10; i++)
		f();
	kill(getpid(), sig);
	/* -sigdump numbers its dumps: mon.out.1, .2, ... */
	if (rename(sig == SIGUSR1 ? "mon.out" : "mon.out.1", "dump1.out") != 0)
		return 2;
	for (i = 0; i < 3; i++)
		f();
	return 0;
}
