/*
 * 118-rawfork: a child made without fork(3), by syscall(SYS_fork)
 * ("sys") or by clone() without CLONE_VM ("clone"), so that no fork
 * handler runs in it, calls g and exit(3).  The parent prints how the
 * child ended, then spins in h: its sampler must still run.
 */
#define _GNU_SOURCE
#include <sys/syscall.h>
#include <sys/wait.h>

#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../tools/hooks.h"

static volatile unsigned long sink;
static char stack[256 * 1024] __attribute__((__aligned__(16)));

COUNTED static void
g(void)
{
	MON_COUNT();
	sink++;
}

COUNTED static void
h(void)
{
	MON_COUNT();
	spin_cpu(0.3);
}

static int
child(void *arg)
{
	(void)arg;
	g();
	exit(3);
}

int
main(int argc, char **argv)
{
	pid_t pid;
	int st;

	h();
	if (argc > 1 && strcmp(argv[1], "clone") == 0)
		pid = clone(child, stack + sizeof(stack), SIGCHLD, NULL);
	else if ((pid = (pid_t)syscall(SYS_fork)) == 0)
		child(NULL);
	if (pid < 0 || waitpid(pid, &st, 0) != pid)
		return 2;
	if (WIFEXITED(st))
		printf("child exit %d\n", WEXITSTATUS(st));
	else
		printf("child signal %d\n", WTERMSIG(st));
	h();
	return 0;
}
