/* SPDX-License-Identifier: MIT */
/*
 * outfile.c - one profile file, whole or not at all: written nameless
 * (O_TMPFILE) in its target's directory, every write checked, then
 * linked as the target (an earlier file removed first; when another
 * writer gets there first, given a temporary name and renamed onto it),
 * so a writer that is killed half way leaves nothing behind.  Where the file system has no
 * O_TMPFILE (or it cannot be named: no /proc), a named temporary file,
 * removed on every failure.  Shared by the mon.out and gmon.out writers.
 * A file block (MON_WBLOCK bytes at a multiple of it) that is all zeros
 * is stepped over, not written: a hole, read back as the zeros it
 * stands for, so the file costs on disk what ran, not the text's size.
 *
 * While a file is written, the signals that end a program from outside
 * (a second ^C or kill, SIGXFSZ past RLIMIT_FSIZE) are blocked: only the
 * program's own faults can interrupt it.  Async-signal-safe (the profile
 * is written from signal handlers): system calls only, no stdio, no
 * malloc.
 */
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "writer.h"

#ifndef O_TMPFILE
#define O_TMPFILE	(020000000 | O_DIRECTORY)
#endif

#define TRIES	4	/* temporary names tried: ours, then salted ones */

/* The file being written (static: the stack may be a small one). */
static int writing;	/* one file at a time: it owns cur */
static struct {
	int		 replace;	/* an earlier file goes by a rename only */
	char		 dir[PATH_MAX];
	char		 tmp[PATH_MAX];
	char		 alt[PATH_MAX];	/* when path is another user's */
	struct __mon_wbuf w;
} cur;

typedef unsigned long __attribute__((__may_alias__)) word_t;

/* Whether the n bytes at p (long-aligned) are all zeros. */
static int
zeros(const char *p, size_t n)
{
	const word_t *q = (const word_t *)(const void *)p;
	unsigned long any = 0;
	size_t i;

	for (i = 0; i < n / sizeof(*q); i++)
		any |= q[i];
	for (i = n - n % sizeof(*q); i < n; i++)
		any |= (unsigned char)p[i];
	return any == 0;
}

/* All N bytes at P into w's file at its offset, or w->err set. */
static void
put_fd(struct __mon_wbuf *w, const char *p, size_t n)
{
	ssize_t r;

	while (n > 0 && !w->err) {
		r = write(w->fd, p, n);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			w->err = r < 0 ? errno : ENOSPC;
		else {
			p += r;
			n -= (size_t)r;
		}
	}
}

/* LEN bytes at P to w's file at OFF: 0, or -1 with errno. */
static int
put_at(struct __mon_wbuf *w, const void *p, size_t len, off_t off)
{
	ssize_t r;

	while ((r = pwrite(w->fd, p, len, off)) < 0 && errno == EINTR)
		;
	if (r >= 0 && r != (ssize_t)len)
		errno = ENOSPC;
	return r == (ssize_t)len ? 0 : -1;
}

/*
 * Of the LEN bytes at *P, as many as fit before byte ROOM of BUF, which
 * holds *N, into it; *P and *N past them.  How many.
 */
static size_t
take(char *buf, size_t *n, size_t room, const void **p, size_t len)
{
	size_t k = room - *n < len ? room - *n : len;

	memcpy(buf + *n, *p, k);
	*n += k;
	*p = (const char *)*p + k;
	return k;
}

/* Compact: LEN bytes at P into out, written once it is full. */
static void
out_put(struct __mon_wbuf *w, const void *p, size_t len)
{
	while (len > 0 && !w->err) {
		if (w->nout == sizeof(w->out)) {
			put_fd(w, w->out, w->nout);
			w->nout = 0;
		}
		len -= take(w->out, &w->nout, sizeof(w->out), &p, len);
	}
}

/* Compact: where the word at b[i] ends (the last may be short). */
static size_t
word_end(const struct __mon_wbuf *w, size_t i)
{
	return w->n - i < sizeof(word_t) ? w->n : i + sizeof(word_t);
}

/* Compact: the word at b[i] is zeros, and not a byte the file keeps. */
static int
zero_word(const struct __mon_wbuf *w, size_t i)
{
	return w->pos + (off_t)i >= MON_COMPACT_KEEP &&
	    zeros(w->b + i, word_end(w, i) - i);
}

/*
 * Compact: b's runs of words that are not zeros into out, each as its
 * offset, length and bytes (mon.h), the magic first.  Two runs with at
 * most two words of zeros between them are one: those zeros take no
 * more than a run's offset and length.  b begins at a multiple of a
 * word, as every block does.
 */
static void
drain_compact(struct __mon_wbuf *w)
{
	uint64_t head[2] = { MON_COMPACT_MAGIC, 0 }, run[2];
	size_t i = 0, a, b, j, gap;

	if (!w->begun) {
		out_put(w, head, sizeof(head));
		w->begun = 1;
	}
	while (i < w->n) {
		if (zero_word(w, i)) {
			i = word_end(w, i);
			continue;
		}
		a = i;
		b = word_end(w, i);
		for (;;) {
			for (j = b, gap = 0; j < w->n && gap <= 2 &&
			    zero_word(w, j); j = word_end(w, j))
				gap++;
			if (j >= w->n || gap > 2)
				break;
			b = word_end(w, j);
		}
		run[0] = (uint64_t)w->pos + a;
		run[1] = b - a;
		out_put(w, run, sizeof(run));
		out_put(w, w->b + a, b - a);
		i = b;
	}
	w->pos += (off_t)w->n;
	w->n = 0;
}

/*
 * Write b out, or if it is all zeros step over it: a hole (b lies in one
 * file block, so a block all of zeros is never written).  The zeros are
 * stepped over at once before the next write (a run of them in one
 * lseek), or by __mon_outfile_flush, which also sets the file's size.
 */
static void
drain(struct __mon_wbuf *w)
{
	if (w->compact) {
		drain_compact(w);
		return;
	}
	if (w->n > 0 && !w->err && zeros(w->b, w->n)) {
		w->skip += (off_t)w->n;
		w->pos += (off_t)w->n;
		w->n = 0;
		return;
	}
	if (w->n > 0 && w->skip > 0 && !w->err) {
		if (lseek(w->fd, w->skip, SEEK_CUR) < 0)
			w->err = errno;
		w->skip = 0;
	}
	put_fd(w, w->b, w->n);
	w->pos += (off_t)w->n;
	w->n = 0;
}

/*
 * Everything put so far into the file, whose size is then pos: where it
 * ends in a hole, the size is set (or, if the file system cannot, its
 * last byte written).  Reads back as if every zero had been written.
 */
void
__mon_outfile_flush(struct __mon_wbuf *w)
{
	static const char zero;
	uint64_t size;
	ssize_t r;

	drain(w);
	if (w->compact) {
		put_fd(w, w->out, w->nout);
		w->nout = 0;
		/* The classic file's length, after the magic. */
		size = (uint64_t)w->pos;
		if (!w->err && put_at(w, &size, sizeof(size), sizeof(size)) != 0)
			w->err = errno;
		return;
	}
	if (w->skip == 0 || w->err)
		return;
	if (lseek(w->fd, w->skip, SEEK_CUR) < 0) {
		w->err = errno;
		return;
	}
	w->skip = 0;
	while ((r = ftruncate(w->fd, w->pos)) < 0 && errno == EINTR)
		;
	if (r == 0 || (w->err = errno) == EFBIG)
		return;
	while ((r = pwrite(w->fd, &zero, 1, w->pos - 1)) < 0 && errno == EINTR)
		;
	w->err = r == 1 ? 0 : r < 0 ? errno : ENOSPC;
}

/*
 * Bytes at OFF of the (classic) file, already put and flushed, written
 * anew: in a compact file, of its first MON_COMPACT_KEEP bytes only,
 * which its first run holds.  0, or -1 with errno.
 */
int
__mon_outfile_patch(struct __mon_wbuf *w, off_t off, const void *p,
    size_t len)
{
	if (!w->compact)
		return put_at(w, p, len, off);
	if (off < 0 || off + (off_t)len > MON_COMPACT_KEEP) {
		errno = EINVAL;
		return -1;
	}
	return put_at(w, p, len, MON_COMPACT_HDR + MON_COMPACT_RUN + off);
}

/* Into the buffer, which fills up to the end of a file block at most. */
void
__mon_outfile_put(struct __mon_wbuf *w, const void *p, size_t len)
{
	size_t k;

	while (len > 0) {
		k = sizeof(w->b) - (size_t)(w->pos % (off_t)sizeof(w->b));
		if (w->n == k) {
			drain(w);
			continue;
		}
		len -= take(w->b, &w->n, k, &p, len);
	}
}

/*
 * path could not be written.  Refused for want of permission, the reason
 * is nearly always the directory, one another user made (a server that
 * drops privileges writes as its workers' user into the PROFDIR its
 * root made): the line names the directory and this process's user and
 * says how to open it to them.  cur.dir is the directory when set.
 */
static void
complain(const char *path, int errnum)
{
	char uid[24];
	const char *more[] = { "; make ", cur.dir, " writable by uid ", uid,
	    " (chmod 1777 ", cur.dir, ", say)" };

	if ((errnum != EACCES && errnum != EPERM) || cur.dir[0] == '\0') {
		__mon_err_errno("cannot write ", path, errnum);
		return;
	}
	uid[__mon_fmt_ulong(uid, (unsigned long)geteuid())] = '\0';
	__mon_err_errno_more("cannot write ", path, errnum, more,
	    sizeof(more) / sizeof(more[0]));
}

/*
 * Block every signal but the faults (SIGSEGV and the like, which must
 * reach their handlers): nothing from outside ends or interrupts the
 * write.  Past RLIMIT_FSIZE a write raises SIGXFSZ, whose default action
 * kills the program: blocked, the write fails with EFBIG instead, and the
 * one our write raised is taken back.  1 if the program already had one
 * pending: that one is its own.
 */
static __attribute__((__noinline__)) int
signals_block(sigset_t *old)
{
	sigset_t set, pend;
	size_t i;

	sigfillset(&set);
	for (i = 0; i < MON_NFAULTS; i++)
		sigdelset(&set, __mon_sigmask_faults[i]);
	__mon_sigmask_set(SIG_BLOCK, &set, old);
	return sigpending(&pend) == 0 && sigismember(&pend, SIGXFSZ) == 1;
}

static __attribute__((__noinline__)) void
signals_restore(const sigset_t *old, int had)
{
	static const struct timespec now;
	sigset_t set, pend;

	sigemptyset(&set);
	sigaddset(&set, SIGXFSZ);
	if (!had && sigpending(&pend) == 0 && sigismember(&pend, SIGXFSZ) == 1)
		sigtimedwait(&set, NULL, &now);
	__mon_sigmask_set(SIG_SETMASK, old, NULL);
}

/* A salt for a temporary name that another user cannot foresee. */
static unsigned long
salt(void)
{
	unsigned long v = 0;
	struct timespec ts;

	if (syscall(SYS_getrandom, &v, sizeof(v), 1 /* GRND_NONBLOCK */) !=
	    (long)sizeof(v)) {
		clock_gettime(CLOCK_MONOTONIC, &ts);
		v = (unsigned long)ts.tv_nsec * 2654435761UL ^
		    (unsigned long)ts.tv_sec;
	}
	return v != 0 ? v : 1;
}

/* Give the nameless file fd the name tmp: 0, or -1 with errno. */
static int
link_fd(int fd, const char *tmp)
{
	char proc[32] = "/proc/self/fd/";

	proc[14 + __mon_fmt_ulong(proc + 14, (unsigned long)fd)] = '\0';
	if (linkat(AT_FDCWD, proc, AT_FDCWD, tmp, AT_SYMLINK_FOLLOW) == 0)
		return 0;
	if (errno == EEXIST)
		return -1;
	/* No /proc: this needs CAP_DAC_READ_SEARCH. */
	return linkat(fd, "", AT_FDCWD, tmp, AT_EMPTY_PATH);
}

/*
 * open(), also under an RLIMIT_NOFILE that the program's descriptors
 * fill: then with the soft limit one higher (up to the hard one) for
 * this one open, as the writer needs one descriptor.  In the writer
 * process (final.c) the limit is its own.
 */
static int
open_fd(const char *p, int flags)
{
	struct rlimit rl, more;
	int fd, e;
	/*
	 * setuid and setgid programs: not for the invoking user to read.
	 * Others: 0644 before the umask, not 0666, so that a program run
	 * under umask 0 (a daemon that clears it) leaves no profile that
	 * another user could rewrite; prof only reads it, and a stricter
	 * umask still applies (077 gives 0600).
	 */
	mode_t mode = __mon_env_get()->secure ? 0600 : 0644;

	if ((fd = open(p, flags, mode)) >= 0 || errno != EMFILE ||
	    getrlimit(RLIMIT_NOFILE, &rl) != 0 || rl.rlim_cur >= rl.rlim_max)
		return fd;
	more = rl;
	more.rlim_cur++;
	if (setrlimit(RLIMIT_NOFILE, &more) != 0) {
		errno = EMFILE;
		return -1;
	}
	fd = open(p, flags, mode);
	e = errno;
	setrlimit(RLIMIT_NOFILE, &rl);
	errno = e;
	return fd;
}

/* Create the named temporary file tmp: its fd, or -1 with errno. */
static int
create(int fd, const char *tmp)
{
	(void)fd;
	return open_fd(tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW |
	    O_CLOEXEC);
}

/*
 * name(fd, tmp) under a temporary name for path, into tmp: ours first
 * (one left by an earlier process of our pid, killed while writing, is
 * removed), then salted ones, in case another user took ours.  What name
 * returned: 0 or an fd; or -1.
 */
static int
tmp_name(int (*name)(int, const char *), int fd, const char *path, char *tmp,
    size_t len)
{
	int i, r;

	/*
	 * A merged profile's, under merge.c's lock: one name, which a
	 * writer killed before its rename may have left, for the next.
	 */
	if (cur.replace) {
		if (__mon_name_merged_tmp(path, tmp, len) != 0)
			return -1;
		unlink(tmp);
		return name(fd, tmp);
	}
	for (i = 0; i < TRIES; i++) {
		if (__mon_name_tmp(path, __mon_self_pid(), i == 0 ? 0 : salt(),
		    tmp, len) != 0)
			return -1;
		if ((r = name(fd, tmp)) >= 0)
			return r;
		if (errno != EEXIST)
			return -1;
		if (i == 0 && unlink(tmp) == 0 && (r = name(fd, tmp)) >= 0)
			return r;
	}
	return -1;
}

/*
 * path could not be replaced: if it is another user's file (planted in a
 * shared PROFDIR, whose sticky bit keeps it), the profile goes beside it
 * under path.<salt>, a name no one can foresee, named from the nameless
 * fd or the temporary tmp, and one line says where.  0, or -1 with
 * errno as it was.
 */
static int
elsewhere(const char *path, int fd, const char *tmp)
{
	struct stat sb;
	int e = errno, i, r;

	if ((e != EPERM && e != EACCES) || lstat(path, &sb) != 0 ||
	    sb.st_uid == geteuid())
		goto fail;
	for (i = 0; i < TRIES; i++) {
		if (__mon_name_salted(path, salt(), cur.alt,
		    sizeof(cur.alt)) != 0)
			goto fail;
		r = fd >= 0 ? link_fd(fd, cur.alt) : link(tmp, cur.alt);
		if (r == 0) {
			if (tmp != NULL)
				unlink(tmp);
			MON_ERR("monprof: ");
			__mon_err_write(path, strlen(path));
			MON_ERR(" is another user's: the profile is ");
			__mon_err_write(cur.alt, strlen(cur.alt));
			MON_ERR("\n");
			return 0;
		}
		if (errno != EEXIST)
			break;
	}
fail:
	errno = e;
	return -1;
}

/* Remove the temporary file tmp; errno stays the failure's. */
static void
gone(const char *tmp)
{
	int e = errno;

	unlink(tmp);
	errno = e;
}

/* Write the contents with fill into fd: 0, or -1 with errno. */
static int
put_all(int fd, int (*fill)(struct __mon_wbuf *, void *), void *arg)
{
	cur.w.fd = fd;
	cur.w.err = 0;
	cur.w.n = 0;
	cur.w.pos = 0;
	cur.w.skip = 0;
	cur.w.compact = 0;
	cur.w.begun = 0;
	cur.w.nout = 0;
	if (fill(&cur.w, arg) != 0 && cur.w.err == 0)
		cur.w.err = errno != 0 ? errno : EIO;
	__mon_outfile_flush(&cur.w);
	errno = cur.w.err;
	return cur.w.err ? -1 : 0;
}

/*
 * The file, nameless first: 0 once it is path, 1 if the nameless file
 * cannot be had or named here (then nothing is left), -1 on failure.
 */
static int
write_nameless(const char *path, int (*fill)(struct __mon_wbuf *, void *),
    void *arg)
{
	int fd, rc = -1, e;

	if (__mon_name_dir(path, cur.dir, sizeof(cur.dir)) != 0)
		return -1;
	fd = open_fd(cur.dir, O_TMPFILE | O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return errno == EISDIR || errno == EOPNOTSUPP ||
		    errno == EINVAL ? 1 : -1;
	if (put_all(fd, fill, arg) != 0)
		goto out;
	/*
	 * Named path at once, an earlier file there removed first: no
	 * moment with a temporary name that a SIGKILL could leave behind
	 * (one in 5 kills of a program dumping again and again did).  A
	 * writer that links first makes this one fall back to a rename,
	 * as does a merged profile (replace), which must never be gone.
	 */
	if (link_fd(fd, path) == 0 || (!cur.replace && errno == EEXIST &&
	    unlink(path) == 0 && link_fd(fd, path) == 0)) {
		/* One left by an earlier process of our pid, killed while
		 * it wrote a named temporary file, goes too. */
		if (__mon_name_tmp(path, __mon_self_pid(), 0, cur.tmp,
		    sizeof(cur.tmp)) == 0)
			unlink(cur.tmp);
		rc = 0;
		goto out;
	}
	if (tmp_name(link_fd, fd, path, cur.tmp, sizeof(cur.tmp)) != 0) {
		rc = errno == EEXIST ? -1 : 1;
		goto out;
	}
	if (rename(cur.tmp, path) == 0 || elsewhere(path, -1, cur.tmp) == 0)
		rc = 0;
	else
		gone(cur.tmp);
out:
	e = errno;
	close(fd);
	errno = e;
	return rc;
}

static int
write_named(const char *path, int (*fill)(struct __mon_wbuf *, void *),
    void *arg)
{
	int fd;

	if ((fd = tmp_name(create, -1, path, cur.tmp, sizeof(cur.tmp))) < 0)
		return -1;
	if (put_all(fd, fill, arg) != 0) {
		gone(cur.tmp);
		close(fd);
		return -1;
	}
	if (close(fd) != 0 || (rename(cur.tmp, path) != 0 &&
	    elsewhere(path, -1, cur.tmp) != 0)) {
		gone(cur.tmp);
		return -1;
	}
	return 0;
}

/*
 * Write path with fill(w, arg), which puts the contents into w (and may
 * pwrite w->fd) and returns 0 or -1.  Only one file is written at a time:
 * the sampler is drained first and a second writer (a signal handler)
 * gets -1.  0, or -1 reported once on stderr: then path is untouched.
 * With replace, an earlier file at path is replaced by a rename only.
 */
static int
write_file(const char *path, int (*fill)(struct __mon_wbuf *, void *),
    void *arg, int replace)
{
	sigset_t mask;
	int zero = 0, rc, saved = errno, had, e;

	if (!MON_CAS(&writing, &zero, 1))
		return -1;
	cur.dir[0] = '\0';
	cur.replace = replace;
	had = signals_block(&mask);
	__mon_sampler_drain();
	if ((rc = write_nameless(path, fill, arg)) == 1)
		rc = write_named(path, fill, arg);
	e = errno;
	signals_restore(&mask, had);
	if (rc != 0)
		complain(path, e);
	MON_STORE(&writing, 0);
	errno = saved;
	return rc;
}

int
__mon_outfile_write(const char *path, int (*fill)(struct __mon_wbuf *, void *),
    void *arg)
{
	return write_file(path, fill, arg, 0);
}

/*
 * __mon_outfile_write, for a file that holds more than this process's
 * (merge.c's merged profile): an earlier one is only ever replaced by a
 * rename, so that a writer killed at any moment leaves it whole.
 */
int
__mon_outfile_replace(const char *path,
    int (*fill)(struct __mon_wbuf *, void *), void *arg)
{
	return write_file(path, fill, arg, 1);
}

/*
 * The contents fill puts, into fd, which nothing names (merge.c's memfd),
 * as __mon_outfile_write writes a file.  0, or -1 with nothing reported.
 */
int
__mon_outfile_fd(int fd, int (*fill)(struct __mon_wbuf *, void *), void *arg)
{
	sigset_t mask;
	int zero = 0, rc, saved = errno, had;

	if (!MON_CAS(&writing, &zero, 1))
		return -1;
	had = signals_block(&mask);
	__mon_sampler_drain();
	rc = put_all(fd, fill, arg);
	signals_restore(&mask, had);
	MON_STORE(&writing, 0);
	errno = saved;
	return rc;
}

/* fork child: a write in progress was another thread's, in the parent. */
void
__mon_outfile_reset(void)
{
	MON_RESET(&writing, 0);
}
