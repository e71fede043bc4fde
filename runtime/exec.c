/* SPDX-License-Identifier: MIT */
/*
 * exec.c - the profile before an exec*() replaces the program: execve()
 * ends the image without exit(), so nothing else of the runtime runs.
 * The specs file links executables with ld's --wrap for each of the
 * exec functions below: the program's calls (its own objects' and its
 * static libraries', not those inside libc or shared libraries) come
 * here, which writes the profile as it stands (monitor_signal's dump)
 * and calls the real one.  If the exec fails, profiling goes on (a
 * sampler that yielded to the exec starts again) and the exit writes
 * the profile again.  A vfork child that execs writes
 * nothing (the profile is its parent's).  Async-signal-safe, as
 * execve() is.
 *
 * Without --wrap (a link without the specs file, libmonprof.so) this
 * file is not linked in, or not called.
 */
#include <sys/syscall.h>

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <unistd.h>

#include "control.h"

/*
 * execve, execv, execveat and fexecve are system calls, made here; the
 * path searches of execvp and execvpe are libc's: ld --wrap names them
 * __real_* (the specs file also names them with -u, so that a static
 * link has them).
 */
extern int __real_execvp(const char *, char *const[]) __attribute__((__weak__));
extern int __real_execvpe(const char *, char *const[], char *const[])
    __attribute__((__weak__));

int	 __wrap_execve(const char *, char *const[], char *const[]) MON_HIDDEN;
int	 __wrap_execv(const char *, char *const[]) MON_HIDDEN;
int	 __wrap_execvp(const char *, char *const[]) MON_HIDDEN;
int	 __wrap_execvpe(const char *, char *const[], char *const[]) MON_HIDDEN;
int	 __wrap_fexecve(int, char *const[], char *const[]) MON_HIDDEN;
int	 __wrap_execveat(int, const char *, char *const[], char *const[], int)
	    MON_HIDDEN;
int	 __wrap_execl(const char *, const char *, ...) MON_HIDDEN;
int	 __wrap_execlp(const char *, const char *, ...) MON_HIDDEN;
int	 __wrap_execle(const char *, const char *, ...) MON_HIDDEN;

/*
 * The image is about to go: its profile now, errno as it was.  A program
 * confined by a seccomp filter that could kill the runtime, or one that
 * blocked or ignored a fault (forced.c), has its profile written by the
 * writer process started then (confine.c, forced.c), as its last: the
 * writer ends then, so that it cannot outlive the image it belongs to
 * and write its profile over the next image's when the process ends (if
 * the exec fails, what follows is not written).
 */
static int
before(void)
{
	int saved = errno, yielded;

	/* A fork child's timer: no signal of its left for the new image. */
	yielded = __mon_sampler_yield();
	if (__mon_seccomp_kills() || __mon_final_ready())
		__mon_monitor_stop(MON_STOP_FINAL);
	else
		__mon_monitor_dump(0);
	errno = saved;
	return yielded;
}

/*
 * The exec failed (rc, errno): the image goes on, and its sampler, where
 * before() (what it returned: y) had it yield.
 */
static int
after(int rc, int y)
{
	int saved = errno;

	if (y)
		__mon_sampler_unyield();
	errno = saved;
	return rc;
}

int
__wrap_execve(const char *path, char *const argv[], char *const envp[])
{
	int y = before();

	return after((int)syscall(SYS_execve, path, argv, envp), y);
}

int
__wrap_execv(const char *path, char *const argv[])
{
	int y = before();

	return after((int)syscall(SYS_execve, path, argv, environ), y);
}

int
__wrap_execveat(int dirfd, const char *path, char *const argv[],
    char *const envp[], int flags)
{
	int y = before();

	return after((int)syscall(SYS_execveat, dirfd, path, argv, envp,
	    flags), y);
}

/* As glibc's: execveat, or the descriptor's /proc name before Linux 3.19. */
int
__wrap_fexecve(int fd, char *const argv[], char *const envp[])
{
	char proc[32] = "/proc/self/fd/";
	int y;

	if (fd < 0 || argv == NULL || envp == NULL) {
		errno = EINVAL;
		return -1;
	}
	y = before();
	syscall(SYS_execveat, fd, "", argv, envp, AT_EMPTY_PATH);
	if (errno != ENOSYS)
		return after(-1, y);
	proc[14 + __mon_fmt_ulong(proc + 14, (unsigned long)fd)] = '\0';
	syscall(SYS_execve, proc, argv, envp);
	if (errno == ENOENT)
		errno = EBADF;
	return after(-1, y);
}

int
__wrap_execvp(const char *file, char *const argv[])
{
	int y = before();

	if (__real_execvp == NULL) {
		errno = ENOSYS;
		return after(-1, y);
	}
	return after(__real_execvp(file, argv), y);
}

int
__wrap_execvpe(const char *file, char *const argv[], char *const envp[])
{
	int y = before();

	if (__real_execvpe == NULL) {
		errno = ENOSYS;
		return after(-1, y);
	}
	return after(__real_execvpe(file, argv, envp), y);
}

/*
 * The list forms, as glibc builds them: the arguments into an array on
 * the stack, then the vector form (whose wrapper writes the profile).
 * how: 'l' execl, 'p' execlp, 'e' execle (the environment follows).
 */
static int
list(int how, const char *path, const char *arg0, va_list ap)
{
	va_list count;
	size_t n = 1, i;
	char **envp;

	va_copy(count, ap);
	while (va_arg(count, const char *) != NULL)
		n++;
	va_end(count);
	{
		char *argv[n + 1];

		argv[0] = (char *)arg0;
		for (i = 1; i <= n; i++)
			argv[i] = va_arg(ap, char *);
		envp = how == 'e' ? va_arg(ap, char **) : environ;
		if (how == 'p')
			return __wrap_execvp(path, argv);
		return __wrap_execve(path, argv, envp);
	}
}

int
__wrap_execl(const char *path, const char *arg0, ...)
{
	va_list ap;
	int rc;

	va_start(ap, arg0);
	rc = list('l', path, arg0, ap);
	va_end(ap);
	return rc;
}

int
__wrap_execlp(const char *file, const char *arg0, ...)
{
	va_list ap;
	int rc;

	va_start(ap, arg0);
	rc = list('p', file, arg0, ap);
	va_end(ap);
	return rc;
}

int
__wrap_execle(const char *path, const char *arg0, ...)
{
	va_list ap;
	int rc;

	va_start(ap, arg0);
	rc = list('e', path, arg0, ap);
	va_end(ap);
	return rc;
}
