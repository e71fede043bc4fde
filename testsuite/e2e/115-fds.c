/*
 * 115-fds: a program that manages its own file descriptors as daemons
 * do.  "closeall": close every fd from 3 up, then open a file and write
 * to it (the fd the runtime may have held).  "closed": started with
 * stdin, stdout and stderr closed, the first open() must give 0.
 * "limit": under a tiny RLIMIT_NOFILE every fd the limit allows is the
 * program's (but one, left for the writer).  Exits 0 when everything behaved as without profiling.
 */
#include <sys/resource.h>

#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "../tools/hooks.h"

static volatile int sink;

static COUNTED void
f(void)
{
	MON_COUNT();
	sink++;
}

int
main(int argc, char **argv)
{
	struct rlimit rl;
	int fd, i, n;

	f();
	spin_cpu(0.2);
	if (argc > 1 && strcmp(argv[1], "closeall") == 0) {
		for (fd = 3; fd < 1024; fd++)
			close(fd);
		if ((fd = open("data", O_WRONLY | O_CREAT | O_TRUNC, 0644)) < 0)
			return 2;
		spin_cpu(0.2);
		if (write(fd, "hello\n", 6) != 6)
			return 3;
		/* Left open at exit, like a log file. */
		return 0;
	}
	if (argc > 1 && strcmp(argv[1], "closed") == 0) {
		if ((fd = open("data", O_WRONLY | O_CREAT | O_TRUNC, 0644)) < 0)
			return 2;
		return fd == 0 ? 0 : 4;
	}
	if (getrlimit(RLIMIT_NOFILE, &rl) != 0)
		return 5;
	for (i = n = 0; i < (int)rl.rlim_cur - 4; i++)
		if (open("/dev/null", O_RDONLY) >= 0)
			n++;
	if (n != (int)rl.rlim_cur - 4) {
		fprintf(stderr, "opened %d of %d\n", n, (int)rl.rlim_cur - 4);
		return 6;
	}
	return 0;
}
