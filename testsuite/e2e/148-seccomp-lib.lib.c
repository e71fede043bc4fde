/*
 * 148-seccomp-lib's shared object: system calls made through libc's
 * syscall() and prctl() from a shared library, whose calls the
 * runtime's, exported by the executable, now answer.  Each returns what
 * the call returned, and errno after it in *err (1234 before).
 */
#include <errno.h>
#include <sys/prctl.h>
#include <unistd.h>

long	 lib_syscall(long, long, int *);
long	 lib_prctl(int, unsigned long, int *);

long
lib_syscall(long nr, long a1, int *err)
{
	long r;

	errno = 1234;
	r = syscall(nr, a1, 0, 0);
	*err = errno;
	return r;
}

long
lib_prctl(int option, unsigned long a2, int *err)
{
	long r;

	errno = 1234;
	r = prctl(option, a2, 0, 0, 0);
	*err = errno;
	return r;
}
