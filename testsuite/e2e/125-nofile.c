/*
 * 125-nofile: f is called 3 times, then the program lowers its
 * RLIMIT_NOFILE soft limit to 3 ("soft", the hard one unchanged) or
 * both limits ("hard"), stdin, stdout and stderr open, and checks that
 * it can open nothing more, as any program under such a limit finds.
 */
#include <sys/resource.h>

#include <errno.h>
#include <fcntl.h>
#include <string.h>

#include "../tools/hooks.h"

static volatile int sink;

COUNTED static void
f(void)
{
	MON_COUNT();
	sink++;
}

int
main(int argc, char **argv)
{
	struct rlimit rl;
	int i;

	for (i = 0; i < 3; i++)
		f();
	if (argc < 2 || getrlimit(RLIMIT_NOFILE, &rl) != 0)
		return 2;
	rl.rlim_cur = 3;
	if (strcmp(argv[1], "hard") == 0)
		rl.rlim_max = 3;
	if (setrlimit(RLIMIT_NOFILE, &rl) != 0)
		return 3;
	if (open("/dev/null", O_RDONLY) != -1 || errno != EMFILE)
		return 4;
	return 0;
}
