/* SPDX-License-Identifier: MIT */
/*
 * objects.c - for mon.out, the executable mappings of shared objects
 * that hold counted functions or samples (MON_META_OBJECT records,
 * mon.h), so that prof can name their functions from the object files,
 * and the samples outside the histogram by object (pcs.c keeps them by
 * pc).  monout.c writes the records.
 *
 * Read from /proc/self/maps when the file is written: open, read and
 * process_vm_readv are async-signal-safe (the writer runs in signal
 * handlers), where dl_iterate_phdr takes the loader's lock.  Only the writer runs this,
 * under its guard, so the line buffer can be static.
 */
#include <sys/uio.h>

#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <link.h>
#include <string.h>
#include <unistd.h>

#include "writer.h"

#define LINE_MAX_LEN	(PATH_MAX + 128)

static char buf[2 * LINE_MAX_LEN];

/* The last readable mapping of a file from offset 0: its ELF header. */
static struct {
	uintptr_t	 lo, hi;
	char		 path[PATH_MAX];
} head;

/* Parse hex digits at *s; 0 if there were none. */
static int
hex(const char **s, uintptr_t *v)
{
	const char *p = *s;
	int d;

	for (*v = 0;; p++) {
		if (*p >= '0' && *p <= '9')
			d = *p - '0';
		else if (*p >= 'a' && *p <= 'f')
			d = *p - 'a' + 10;
		else
			break;
		*v = *v << 4 | (uintptr_t)d;
	}
	if (p == *s)
		return 0;
	*s = p;
	return 1;
}

static const char *
skip_field(const char *p)
{
	while (*p != ' ' && *p != '\0')
		p++;
	while (*p == ' ')
		p++;
	return p;
}

/*
 * The build-id of the object whose ELF header is mapped at [lo, hi), or
 * 0.  Its first page is copied with process_vm_readv, which fails where
 * a plain read would fault (another thread may dlclose() the object
 * meanwhile); the notes lie in it in every layout ld uses.
 */
static long
buildid_at(uintptr_t lo, uintptr_t hi)
{
	static unsigned char page[4096];
	const ElfW(Ehdr) *eh = (const ElfW(Ehdr) *)page;
	const ElfW(Phdr) *ph;
	struct iovec local, remote;
	uintptr_t base = 0, note;
	size_t i, len = hi - lo < sizeof(page) ? hi - lo : sizeof(page);
	int saved = errno;
	ssize_t got;

	local.iov_base = page;
	local.iov_len = len;
	remote.iov_base = (void *)lo;
	remote.iov_len = len;
	got = process_vm_readv(getpid(), &local, 1, &remote, 1, 0);
	errno = saved;
	if (got != (ssize_t)len || len < sizeof(*eh) ||
	    memcmp(eh->e_ident, ELFMAG, SELFMAG) != 0 ||
	    eh->e_ident[EI_CLASS] != ELFCLASS64 ||
	    eh->e_phentsize != sizeof(*ph) || eh->e_phoff > len ||
	    eh->e_phnum > (len - eh->e_phoff) / sizeof(*ph))
		return 0;
	ph = (const ElfW(Phdr) *)(page + eh->e_phoff);
	for (i = 0; i < eh->e_phnum; i++)
		if (ph[i].p_type == PT_LOAD && ph[i].p_offset == 0) {
			base = lo - ph[i].p_vaddr;
			break;
		}
	if (i == eh->e_phnum)
		return 0;
	for (i = 0; i < eh->e_phnum; i++) {
		note = base + ph[i].p_vaddr;
		if (ph[i].p_type == PT_NOTE && note >= lo && note < lo + len &&
		    ph[i].p_filesz <= lo + len - note)
			return __mon_note_buildid((const char *)page +
			    (note - lo), ph[i].p_filesz);
	}
	return 0;
}

/* What a record's samples go through: the sum, or each as a cell. */
struct samples {
	void		(*put)(long, long, void *);
	void		*arg;
	long		 key;		/* the SAMPLE key, 0: only sum */
	uintptr_t	 base;		/* subtracted from each pc */
	long		 sum;
};

static void
sample(uintptr_t pc, long n, void *arg)
{
	struct samples *s = arg;
	long k;

	s->sum += n;
	for (; s->key != 0 && n > 0; n -= k) {
		k = n < MON_SAMPLE_MAX ? n : MON_SAMPLE_MAX;
		s->put(s->key, (long)((pc - s->base) << 16) | k, s->arg);
	}
}

/* The samples in [lo, hi): their sum, and under key each bucket. */
static long
samples(struct __mon_objects_out *o, uintptr_t lo, uintptr_t hi, long key,
    uintptr_t base)
{
	struct samples s = { o->put, o->arg, 0, base, 0 };

	__mon_pcs_each(lo, hi, sample, &s);
	__mon_hist_ranges_each(lo, hi, sample, &s);
	if (key != 0 && o->detail && s.sum > 0) {
		s.key = key;
		s.sum = 0;
		__mon_pcs_each(lo, hi, sample, &s);
		__mon_hist_ranges_each(lo, hi, sample, &s);
	}
	return s.sum;
}

/*
 * One line of /proc/self/maps ("lo-hi perms offset dev inode path"): an
 * executable file mapping.  The executable's samples are put as its own
 * (link-time pcs); another object's mapping that has cells or samples
 * gets a record, with the build-id read from the file's first mapping,
 * which comes before it, and its samples: by bucket if PROFFLAGS
 * selects it, else their sum only.
 */
static void
line(struct __mon_objects_out *o, char *l)
{
	uintptr_t lo, hi, off;
	const char *p = l, *perms, *path;
	size_t len, i;
	long v, sum;
	int cells;

	if (!hex(&p, &lo) || *p++ != '-' || !hex(&p, &hi) || *p++ != ' ')
		return;
	perms = p;
	p = skip_field(p);
	if (strlen(perms) < 4 || !hex(&p, &off))
		return;
	path = skip_field(skip_field(skip_field(p)));
	len = strlen(path);
	if (off == 0 && perms[0] == 'r' && len < sizeof(head.path)) {
		head.lo = lo;
		head.hi = hi;
		memcpy(head.path, path, len + 1);
	}
	/* prof reads paths up to PATH_MAX bytes with the NUL. */
	if (perms[2] != 'x' || *path != '/' || len >= PATH_MAX)
		return;
	if (__mon_exe_overlaps(lo, hi)) {
		o->exe += samples(o, lo, hi, MON_META_EXE_SAMPLE,
		    lo - __mon_exe_linktime(lo));
		return;
	}
	cells = __mon_cells_within(lo, hi);
	sum = samples(o, lo, hi, 0, 0);
	if (!cells && sum == 0)
		return;
	o->put(MON_META_OBJECT, (long)lo, o->arg);
	o->put(MON_META_OBJECT_END, (long)hi, o->arg);
	o->put(MON_META_OBJECT_OFFSET, (long)off, o->arg);
	if (strcmp(path, head.path) == 0 &&
	    (v = buildid_at(head.lo, head.hi)) != 0)
		o->put(MON_META_OBJECT_BUILDID, v, o->arg);
	for (i = 0; i <= len; i += sizeof(v)) {
		v = 0;
		memcpy(&v, path + i, len + 1 - i < sizeof(v) ?
		    len + 1 - i : sizeof(v));
		o->put(MON_META_OBJECT_PATH, v, o->arg);
	}
	o->put(MON_META_OBJECT_SAMPLES, sum, o->arg);
	o->objects += sum;
	if (__mon_env_selects(path, cells))
		samples(o, lo, hi, MON_META_OBJECT_SAMPLE, lo);
}

/*
 * Each record's cells, and the executable's samples outside the
 * histogram, as o->put(key, value, o->arg); o->exe and o->objects say
 * how many samples they held.
 */
void
__mon_objects_records(struct __mon_objects_out *o)
{
	size_t have = 0;
	char *nl, *start;
	ssize_t got;
	int fd;

	if ((fd = open("/proc/self/maps", O_RDONLY | O_CLOEXEC)) == -1)
		return;
	head.path[0] = '\0';
	for (;;) {
		got = read(fd, buf + have, sizeof(buf) - 1 - have);
		if (got <= 0)
			break;
		have += (size_t)got;
		buf[have] = '\0';
		for (start = buf; (nl = strchr(start, '\n')) != NULL;
		    start = nl + 1) {
			*nl = '\0';
			line(o, start);
		}
		have -= (size_t)(start - buf);
		memmove(buf, start, have);
		if (have == sizeof(buf) - 1)	/* no line is that long */
			have = 0;
	}
	close(fd);
}
