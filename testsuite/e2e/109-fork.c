/*
 * 109-fork: the parent calls f 10 times, forks; the child calls g 20
 * times and spins in cspin for 0.3 s of CPU; the parent calls f 5 more
 * times after the child is gone.
 */
#include <sys/wait.h>

#include <time.h>
#include <unistd.h>

#include "../tools/hooks.h"

static volatile unsigned long sink;

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

COUNTED static void
cspin(void)
{
	MON_COUNT();
	spin_cpu(0.3);
}

int
main(void)
{
	int i, st;
	pid_t pid;

	MON_COUNT();
	for (i = 0; i < 10; i++)
		f();
	if ((pid = fork()) == 0) {
		for (i = 0; i < 20; i++)
			g();
		cspin();
		return 0;
	}
	if (waitpid(pid, &st, 0) != pid || st != 0)
		return 2;
	for (i = 0; i < 5; i++)
		f();
	return 0;
}
