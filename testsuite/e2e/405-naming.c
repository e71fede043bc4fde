/*
 * 405-naming: f runs 15 times; then argv[1] "fork": a child runs g 20
 * times; "sigdump": SIGUSR1 (PROFFLAGS -sigdump USR1) and _exit, so
 * only the dump is written; "handler": the same with monitor_signal
 * installed by the program.
 */
#include <sys/wait.h>

#include <signal.h>
#include <string.h>
#include <unistd.h>

#include "mon.h"

static volatile int sink;

void __attribute__((noinline, noclone))
f(void)
{
	sink++;
}

void __attribute__((noinline, noclone))
g(void)
{
	sink--;
}

int
main(int argc, char **argv)
{
	const char *mode = argc > 1 ? argv[1] : "";
	pid_t pid;
	int i;

	if (strcmp(mode, "handler") == 0)
		signal(SIGUSR1, monitor_signal);
	for (i = 0; i < 15; i++)
		f();
	if (strcmp(mode, "fork") == 0) {
		if ((pid = fork()) == 0) {
			for (i = 0; i < 20; i++)
				g();
			return 0;
		}
		waitpid(pid, NULL, 0);
	} else if (strcmp(mode, "sigdump") == 0 ||
	    strcmp(mode, "handler") == 0) {
		kill(getpid(), SIGUSR1);
		_exit(0);
	}
	return 0;
}
