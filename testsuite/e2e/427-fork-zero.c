/*
 * 427-fork-zero: a parent samples in work() and in the C library
 * (memchr, outside the histogram) with its stacks; then forks a child
 * that burns argv[1] seconds of CPU in work() and exits, and a second
 * child that exits at once; then ends main with pthread_exit(), after
 * which the process must end with status 0 and its profile.  Each
 * burn of work() runs with errno set, and says whether errno stayed
 * (the sampler's helper thread must not touch it), whether glibc
 * counts the process single-threaded (__libc_single_threaded) and how
 * many threads the kernel counts (the helper among them).
 */
#include <dirent.h>
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

extern char __libc_single_threaded;
static volatile unsigned long sink;

static double
tcpu(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

__attribute__((noinline, noclone)) static void
work(double secs)
{
	double end = tcpu() + secs;
	unsigned long i;

	while (tcpu() < end)
		for (i = 0; i < 100000; i++)
			sink += i;
}

/* CPU time in the C library: memchr over a buffer without the byte. */
__attribute__((noinline, noclone)) static void
in_libc(double secs)
{
	static char buf[1 << 16];
	double end = tcpu() + secs;

	while (tcpu() < end)
		sink += memchr(buf, 1, sizeof(buf)) == NULL;
}

static int
threads(void)
{
	DIR *d = opendir("/proc/self/task");
	struct dirent *e;
	int n = 0;

	while (d != NULL && (e = readdir(d)) != NULL)
		n += e->d_name[0] != '.';
	if (d != NULL)
		closedir(d);
	return n;
}

static void
report(const char *who, double secs)
{
	errno = EDOM;
	work(secs);
	printf("%s errno %s", who, errno == EDOM ? "kept" : "changed");
	printf(" single %d threads %d\n", __libc_single_threaded, threads());
	fflush(stdout);
}

int
main(int argc, char **argv)
{
	double secs = argc > 1 ? atof(argv[1]) : 0.2;
	int st;
	pid_t p;

	report("parent", secs);
	in_libc(secs * 2);
	if ((p = fork()) == 0) {
		report("child", secs);
		exit(0);
	}
	if (p < 0 || waitpid(p, &st, 0) != p || st != 0)
		return 3;
	if ((p = fork()) == 0)
		exit(0);
	if (p < 0 || waitpid(p, &st, 0) != p || st != 0)
		return 4;
	pthread_exit(NULL);
}
