/*
 * 146-kernel-time: reader() reads /dev/zero 64 KB at a time (the time
 * is the kernel's, copying), user_work() spins in user mode; then the
 * program prints its own user and system CPU time (getrusage), in
 * milliseconds.  argv[1]: the reads (default 40000).
 */
#include <sys/resource.h>

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

static char buf[1 << 16];
static volatile unsigned long sink;

__attribute__((noinline, noclone)) void
reader(int fd, int n)
{
	int i;

	for (i = 0; i < n; i++)
		if (read(fd, buf, sizeof(buf)) != (ssize_t)sizeof(buf))
			exit(1);
}

__attribute__((noinline, noclone)) void
user_work(long n)
{
	long i;

	for (i = 0; i < n; i++)
		sink += (unsigned long)i;
}

int
main(int argc, char **argv)
{
	struct rusage ru;
	int fd = open("/dev/zero", O_RDONLY);

	if (fd < 0)
		return 1;
	reader(fd, argc > 1 ? atoi(argv[1]) : 40000);
	user_work(200000000L);
	getrusage(RUSAGE_SELF, &ru);
	printf("%ld %ld\n",
	    ru.ru_utime.tv_sec * 1000L + ru.ru_utime.tv_usec / 1000,
	    ru.ru_stime.tv_sec * 1000L + ru.ru_stime.tv_usec / 1000);
	return 0;
}
