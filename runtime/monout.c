/* SPDX-License-Identifier: MIT */
/*
 * monout.c - writes mon.out: struct hdr, the metadata cells, the function
 * cells (slots folded in), the histogram (mon.h has the layout).
 *
 * Whole or not at all: a temporary file beside the target, every write
 * checked, then rename.  Async-signal-safe (monitor_signal uses it):
 * system calls only, no stdio, no malloc.
 */
#include <sys/stat.h>

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "internal.h"

struct wbuf {
	int	 fd;
	int	 err;
	size_t	 n;
	char	 b[4096];
};

static void
flush(struct wbuf *w)
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

static void
put(struct wbuf *w, const void *p, size_t len)
{
	size_t k;

	while (len > 0) {
		if (w->n == sizeof(w->b))
			flush(w);
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
putcell(struct wbuf *w, uintptr_t pc, long count)
{
	struct cnt c;

	c.fnpc = (char *)pc;
	c.mcnt = count;
	put(w, &c, sizeof(c));
}

/* pcs inside the main executable become link-time addresses. */
uintptr_t
__mon_out_linktime(uintptr_t pc)
{
	struct __mon_state *st = &__mon_state;

	if (pc >= st->image_lo && pc < st->image_hi)
		return pc - st->bias;
	return pc;
}

int
__mon_out_path(char *buf, size_t len)
{
	return __mon_env_path(&__mon_state.env, __mon_state.progname,
	    (long)getpid(), buf, len);
}

static size_t
body(struct wbuf *w)
{
	struct __mon_state *st = &__mon_state;
	struct __mon_chunk *c;
	struct cnt *p;
	char *pc;
	size_t i, n = 0;
	const long meta[][2] = {
		{ MON_META_MAGIC, MON_META_MAGIC_VALUE },
		{ MON_META_VERSION, MON_FORMAT_VERSION },
		{ MON_META_RATE, __mon_sampler_rate() },
		{ MON_META_SAMPLER, st->sampled },
		{ MON_META_SATURATED, MON_LOAD(&st->saturated) },
		{ MON_META_OUTSIDE, MON_LOAD(&st->outside) },
		{ MON_META_BIAS, (long)st->bias },
		{ MON_META_BUILDID, st->buildid },
		{ MON_META_PID, (long)getpid() },
		{ MON_META_SAMPLES, MON_LOAD(&st->samples) },
		{ MON_META_LOST, MON_LOAD(&st->lost) },
		{ MON_META_THREADS, MON_LOAD(&st->threads) },
	};

	for (i = 0; i < sizeof(meta) / sizeof(meta[0]); i++, n++)
		putcell(w, (uintptr_t)meta[i][0], meta[i][1]);
	MON_FOREACH(&st->cells, c, i, p) {
		if ((pc = MON_LOAD(&p->fnpc)) == NULL)
			continue;
		putcell(w, __mon_out_linktime((uintptr_t)pc), p->mcnt);
		n++;
	}
	MON_FOREACH(&st->arcs, c, i, p) {
		if ((pc = MON_LOAD(&p->fnpc)) == NULL)
			continue;
		putcell(w, __mon_out_linktime((uintptr_t)pc),
		    MON_LOAD(&p->mcnt));
		n++;
	}
	if (st->out_bins != NULL)
		put(w, st->out_bins, st->out_nbins * sizeof(WORD));
	flush(w);
	return n;
}

static void
complain(const char *path)
{
	MON_ERR("monprof: cannot write ");
	__mon_err(path, strlen(path));
	MON_ERR("\n");
}

/*
 * Write the profile to path.  0, or -1 (reported once on stderr) if the
 * file could not be written whole, or another write is in progress.
 */
int
__mon_out_write(const char *path)
{
	struct __mon_state *st = &__mon_state;
	struct wbuf w;
	struct hdr h;
	char tmp[PATH_MAX + 32], num[24];
	size_t len, k;
	uintptr_t lo;
	int zero = 0, rc = -1, saved = errno;

	if (!MON_CAS(&st->writing, &zero, 1))
		return -1;
	__mon_sampler_drain();
	len = strlen(path);
	k = __mon_fmt_ulong(num, (unsigned long)getpid());
	if (len + k + 6 >= sizeof(tmp))
		goto out;
	memcpy(tmp, path, len);
	tmp[len] = '.';
	memcpy(tmp + len + 1, num, k);
	memcpy(tmp + len + 1 + k, ".tmp", 5);
	w.fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC,
	    0666);
	if (w.fd < 0 && errno == EEXIST && unlink(tmp) == 0)
		w.fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW |
		    O_CLOEXEC, 0666);
	if (w.fd < 0)
		goto out;
	w.err = 0;
	w.n = 0;
	memset(&h, 0, sizeof(h));
	put(&w, &h, sizeof(h));
	__mon_cells_fold();
	h.nfns = body(&w);
	lo = (uintptr_t)st->out.lpc;
	h.lpc = (char *)__mon_out_linktime(lo);
	h.hpc = st->out.hpc - (lo - (uintptr_t)h.lpc);
	if (w.err || pwrite(w.fd, &h, sizeof(h), 0) != (ssize_t)sizeof(h)) {
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
	if (rc != 0)
		complain(path);
	MON_STORE(&st->writing, 0);
	errno = saved;
	return rc;
}
