/*
 * 174-itimer-exec: with the CPU-time sampler (PROFFLAGS=-itimer), a
 * program that runs another one: a fork child that execs a shell which
 * burns CPU, then the process itself execs one.  Neither shell may die
 * of the sampler's SIGPROF (its action is back at the default there).
 * Exit status: the shell's.
 */
#include <sys/wait.h>

#include <stdio.h>
#include <unistd.h>

#include "../tools/hooks.h"

static volatile unsigned long sink;

static const char burn[] =
    "i=0; while [ $i -lt 100000 ]; do i=$((i+1)); done; echo $1";

COUNTED static void
work(void)
{
	MON_COUNT();
	for (unsigned long i = 0; i < 100000000; i++)
		sink += i;
}

int
main(void)
{
	pid_t pid;
	int st;

	MON_COUNT();
	work();
	if ((pid = fork()) == 0) {
		execl("/bin/sh", "sh", "-c", burn, "sh", "child", (char *)0);
		_exit(127);
	}
	if (waitpid(pid, &st, 0) != pid)
		return 120;
	printf("child status %d\n", st);
	fflush(stdout);
	execl("/bin/sh", "sh", "-c", burn, "sh", "self", (char *)0);
	return 121;
}
