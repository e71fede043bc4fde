/* SPDX-License-Identifier: MIT */
/*
 * maps.c - the process's executable file mappings, from /proc/self/maps,
 * each with its object's build-id: what the writer records for prof
 * (objects.c) and what a dlclose() takes away.
 *
 * open, read and process_vm_readv are async-signal-safe (the writer runs
 * in signal handlers), where dl_iterate_phdr takes the loader's lock.
 * The caller owns the buffers (struct __mon_maps): one per context that
 * may run at once.
 */
#include <sys/uio.h>

#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <link.h>
#include <string.h>
#include <unistd.h>

#include "process.h"

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
buildid_at(unsigned char *page, uintptr_t lo, uintptr_t hi)
{
	const ElfW(Ehdr) *eh = (const ElfW(Ehdr) *)page;
	const ElfW(Phdr) *ph;
	struct iovec local, remote;
	uintptr_t base = 0, note;
	size_t i, len = hi - lo < MON_MAPS_PAGE ? hi - lo : MON_MAPS_PAGE;
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

/*
 * One line ("lo-hi perms offset dev inode path"): the last readable
 * mapping of a file from offset 0 is its ELF header, which comes before
 * its executable mappings; those are told to f.
 */
static void
line(struct __mon_maps *m, char *l,
    void (*f)(const struct __mon_mapping *, void *), void *arg)
{
	struct __mon_mapping mp;
	const char *p = l, *perms;
	size_t len;

	if (!hex(&p, &mp.lo) || *p++ != '-' || !hex(&p, &mp.hi) ||
	    *p++ != ' ')
		return;
	perms = p;
	p = skip_field(p);
	if (strlen(perms) < 4 || !hex(&p, &mp.off))
		return;
	mp.path = skip_field(skip_field(skip_field(p)));
	len = strlen(mp.path);
	if (mp.off == 0 && perms[0] == 'r' && len < sizeof(m->head)) {
		m->headlo = mp.lo;
		m->headhi = mp.hi;
		memcpy(m->head, mp.path, len + 1);
	}
	/* prof reads paths up to PATH_MAX bytes with the NUL. */
	if (perms[2] != 'x' || *mp.path != '/' || len >= PATH_MAX)
		return;
	mp.buildid = strcmp(mp.path, m->head) == 0 ?
	    buildid_at(m->page, m->headlo, m->headhi) : 0;
	f(&mp, arg);
}

/* Call f(mapping, arg) for each executable file mapping, in address order. */
void
__mon_maps_each(struct __mon_maps *m,
    void (*f)(const struct __mon_mapping *, void *), void *arg)
{
	size_t have = 0;
	char *nl, *start;
	ssize_t got;
	int fd, saved = errno;

	/*
	 * This thread's view: /proc/self/maps is empty once the main thread
	 * has ended (pthread_exit), and a thread's profile may be written
	 * then (-threads).  /proc/self before Linux 3.17.
	 */
	if ((fd = open("/proc/thread-self/maps", O_RDONLY | O_CLOEXEC)) == -1 &&
	    (fd = open("/proc/self/maps", O_RDONLY | O_CLOEXEC)) == -1) {
		errno = saved;
		return;
	}
	m->head[0] = '\0';
	for (;;) {
		got = read(fd, m->buf + have, sizeof(m->buf) - 1 - have);
		if (got <= 0)
			break;
		have += (size_t)got;
		m->buf[have] = '\0';
		for (start = m->buf; (nl = strchr(start, '\n')) != NULL;
		    start = nl + 1) {
			*nl = '\0';
			line(m, start, f, arg);
		}
		have -= (size_t)(start - m->buf);
		memmove(m->buf, start, have);
		if (have == sizeof(m->buf) - 1)	/* no line is that long */
			have = 0;
	}
	close(fd);
	errno = saved;
}
