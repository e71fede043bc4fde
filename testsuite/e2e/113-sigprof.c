/*
 * 113-sigprof: the program installs its own SIGPROF handler after the
 * runtime started, then burns CPU in spin.
 */
#include <signal.h>
#include <time.h>

#include "../tools/hooks.h"

static volatile int mine;

static void
handler(int sig)
{
	(void)sig;
	mine++;
}

COUNTED static void
spin(void)
{
	MON_COUNT();
	spin_cpu(0.2);
}

int
main(void)
{
	signal(SIGPROF, handler);
	spin();
	return 0;
}
