/*
 * 127-vfork: f is called 3 times, then a child that shares the parent's
 * memory, made by vfork() ("vfork") or clone(CLONE_VM) ("clonevm"),
 * calls g, prints a line (buffered: stdout is a file) and calls exit(4)
 * (not _exit: exit handlers run in it).  The parent prints the child's
 * status.
 */
#define _GNU_SOURCE
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
f(void)
{
	MON_COUNT();
	sink++;
}

COUNTED static void
g(void)
{
	MON_COUNT();
	sink++;
}

static int
child(void *arg)
{
	(void)arg;
	g();
	printf("child called g\n");
	exit(4);
}

int
main(int argc, char **argv)
{
	pid_t pid;
	int i, st;

	for (i = 0; i < 3; i++)
		f();
	if (argc > 1 && strcmp(argv[1], "clonevm") == 0)
		pid = clone(child, stack + sizeof(stack), CLONE_VM | SIGCHLD,
		    NULL);
	else if ((pid = vfork()) == 0)
		child(NULL);
	if (pid < 0 || waitpid(pid, &st, 0) != pid)
		return 2;
	printf("child %d\n", WIFEXITED(st) ? WEXITSTATUS(st) : -1);
	return 0;
}
