/* SPDX-License-Identifier: MIT */
/*
 * outfile.c - one profile file, whole or not at all: a temporary file
 * beside the target, every write checked, then rename.  Shared by the
 * mon.out and gmon.out writers.
 *
 * Async-signal-safe (monitor_signal uses it): system calls only, no
 * stdio, no malloc.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "writer.h"

static int writing;	/* one file at a time */

void
__mon_outfile_flush(struct __mon_wbuf *w)
{
	size_t off = 0;
	ssize_t r;

	while (off < w->n && !w->err) {
		r = write(w->fd, w->b + off, w->n - off);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			w->err = 1;
		else
			off += (size_t)r;
	}
	w->n = 0;
}

void
__mon_outfile_put(struct __mon_wbuf *w, const void *p, size_t len)
{
	size_t k;

	while (len > 0) {
		if (w->n == sizeof(w->b))
			__mon_outfile_flush(w);
		k = sizeof(w->b) - w->n;
		if (k > len)
			k = len;
		memcpy(w->b + w->n, p, k);
		w->n += k;
		p = (const char *)p + k;
		len -= k;
	}
}

static void
complain(const char *path)
{
	MON_ERR("monprof: cannot write ");
	__mon_err_write(path, strlen(path));
	MON_ERR("\n");
}

static int
open_tmp(const char *tmp)
{
	int fd, flags = O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC;

	fd = open(tmp, flags, 0666);
	if (fd < 0 && errno == EEXIST && unlink(tmp) == 0)
		fd = open(tmp, flags, 0666);
	return fd;
}

/*
 * Past RLIMIT_FSIZE a write raises SIGXFSZ, whose default action kills
 * the program: while writing, keep it blocked (the write then fails with
 * EFBIG), and take back the one our write raised.
 */
static int
xfsz_block(sigset_t *old)
{
	sigset_t set, pend;

	sigemptyset(&set);
	sigaddset(&set, SIGXFSZ);
	pthread_sigmask(SIG_BLOCK, &set, old);
	/* 1 if the program already had one pending: that one is its own. */
	return sigpending(&pend) == 0 && sigismember(&pend, SIGXFSZ) == 1;
}

static void
xfsz_restore(const sigset_t *old, int had)
{
	static const struct timespec now;
	sigset_t set, pend;

	sigemptyset(&set);
	sigaddset(&set, SIGXFSZ);
	if (!had && sigpending(&pend) == 0 && sigismember(&pend, SIGXFSZ) == 1)
		sigtimedwait(&set, NULL, &now);
	pthread_sigmask(SIG_SETMASK, old, NULL);
}

/*
 * Write path with fill(w, arg), which puts the contents into w (and may
 * pwrite w->fd) and returns 0 or -1.  Only one file is written at a time:
 * the sampler is drained first and a second writer (a signal handler)
 * gets -1.  0, or -1 reported once on stderr: then path is untouched.
 */
int
__mon_outfile_write(const char *path, int (*fill)(struct __mon_wbuf *, void *),
    void *arg)
{
	struct __mon_wbuf w;
	char tmp[PATH_MAX + 32];
	sigset_t mask;
	int zero = 0, rc = -1, saved = errno, had;

	if (!MON_CAS(&writing, &zero, 1))
		return -1;
	had = xfsz_block(&mask);
	__mon_sampler_drain();
	if (__mon_name_tmp(path, (long)getpid(), tmp, sizeof(tmp)) != 0)
		goto out;
	if ((w.fd = open_tmp(tmp)) < 0)
		goto out;
	w.err = 0;
	w.n = 0;
	if (fill(&w, arg) != 0)
		w.err = 1;
	__mon_outfile_flush(&w);
	if (w.err) {
		close(w.fd);
		unlink(tmp);
		goto out;
	}
	if (close(w.fd) != 0 || rename(tmp, path) != 0) {
		unlink(tmp);
		goto out;
	}
	rc = 0;
out:
	xfsz_restore(&mask, had);
	if (rc != 0)
		complain(path);
	MON_STORE(&writing, 0);
	errno = saved;
	return rc;
}

/* fork child: a write in progress was another thread's, in the parent. */
void
__mon_outfile_reset(void)
{
	MON_STORE(&writing, 0);
}
