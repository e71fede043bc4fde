/* SPDX-License-Identifier: MIT */
/*
 * init.c - automatic start and finish: the global state, a constructor
 * that finds the main executable and starts profiling like cc -p's
 * default monitor() call, a late destructor that writes the profile, and
 * the fork handler that gives a child its own profile.
 *
 * mcount.c refers to __mon_state, so linking any instrumented object
 * with libmonprof.a pulls this file, hence the whole runtime, in.
 */
#include <sys/auxv.h>

#include <elf.h>
#include <errno.h>
#include <limits.h>
#include <link.h>
#include <pthread.h>
#include <string.h>
#include <unistd.h>

#include "internal.h"

struct __mon_state __mon_state = {
	.on = 1,	/* count from the first instrumented call */
	.cells = {
		.tail = &__mon_state.cells.head,
		.elsize = sizeof(struct cnt),
		.chunklen = 64 * 1024,
	},
	.slots = {
		.tail = &__mon_state.slots.head,
		.elsize = sizeof(struct __mon_slot),
		.chunklen = 64 * 1024,
	},
	.arcs = {
		.tail = &__mon_state.arcs.head,
		.elsize = sizeof(struct cnt),
		.chunklen = 64 * 1024,
	},
};

void
__mon_err(const char *s, size_t len)
{
	int saved = errno;

	if (write(STDERR_FILENO, s, len) < 0)
		errno = saved;
	errno = saved;
}

/* Decimal digits of v into buf (no NUL); returns how many. */
size_t
__mon_fmt_ulong(char *buf, unsigned long v)
{
	char t[24];
	size_t n = 0, i;

	do {
		t[n++] = (char)('0' + v % 10);
		v /= 10;
	} while (v != 0);
	for (i = 0; i < n; i++)
		buf[i] = t[n - 1 - i];
	return n;
}

/* The first 8 bytes of the GNU build-id in the notes at p, or 0. */
long
__mon_note_buildid(const char *p, size_t len)
{
	const ElfW(Nhdr) *n;
	size_t off = 0, step;
	long id = 0;

	while (off + sizeof(*n) <= len) {
		n = (const ElfW(Nhdr) *)(p + off);
		step = sizeof(*n) + ((n->n_namesz + 3) & ~3U) +
		    ((n->n_descsz + 3) & ~3U);
		if (n->n_type == NT_GNU_BUILD_ID && n->n_namesz == 4 &&
		    memcmp(n + 1, "GNU", 4) == 0) {
			memcpy(&id, (const char *)(n + 1) + 4,
			    n->n_descsz < sizeof(id) ? n->n_descsz : sizeof(id));
			return id;
		}
		off += step;
	}
	return 0;
}

/* The first object dl_iterate_phdr reports is the main program. */
static int
first_bias(struct dl_phdr_info *info, size_t size, void *arg)
{
	(void)size;
	*(uintptr_t *)arg = (uintptr_t)info->dlpi_addr;
	return 1;
}

/*
 * The main executable from the aux vector: load bias (from PT_PHDR, or
 * dl_iterate_phdr when there is none, as in static-pie), text range
 * (PF_X PT_LOADs), whole image, build-id.  Works for PIE, non-PIE and static.
 */
void
__mon_init_exe(void)
{
	struct __mon_state *st = &__mon_state;
	const ElfW(Phdr) *ph;
	uintptr_t bias = 0, lo = UINTPTR_MAX, hi = 0, tlo = UINTPTR_MAX, thi = 0;
	unsigned long i, n;
	const char *s;
	size_t len;

	if (st->text_hi != 0)
		return;
	ph = (const ElfW(Phdr) *)getauxval(AT_PHDR);
	n = getauxval(AT_PHNUM);
	if (ph == NULL)
		return;
	for (i = 0; i < n; i++)
		if (ph[i].p_type == PT_PHDR)
			break;
	if (i < n)
		bias = (uintptr_t)ph - ph[i].p_vaddr;
	else
		dl_iterate_phdr(first_bias, &bias);
	for (i = 0; i < n; i++) {
		if (ph[i].p_type == PT_LOAD) {
			if (ph[i].p_vaddr < lo)
				lo = ph[i].p_vaddr;
			if (ph[i].p_vaddr + ph[i].p_memsz > hi)
				hi = ph[i].p_vaddr + ph[i].p_memsz;
			if ((ph[i].p_flags & PF_X) != 0) {
				if (ph[i].p_vaddr < tlo)
					tlo = ph[i].p_vaddr;
				if (ph[i].p_vaddr + ph[i].p_memsz > thi)
					thi = ph[i].p_vaddr + ph[i].p_memsz;
			}
		} else if (ph[i].p_type == PT_NOTE && st->buildid == 0)
			st->buildid = __mon_note_buildid((const char *)(bias +
			    ph[i].p_vaddr), ph[i].p_memsz);
	}
	if (thi == 0)
		return;
	st->bias = bias;
	st->image_lo = lo + bias;
	st->image_hi = hi + bias;
	st->text_lo = tlo + bias;
	st->text_hi = thi + bias;
	s = program_invocation_name;
	if (s != NULL && strrchr(s, '/') != NULL)
		s = strrchr(s, '/') + 1;
	if (s == NULL || *s == '\0') {
		len = 0;
		if ((ssize_t)(len = (size_t)readlink("/proc/self/exe",
		    st->progname, sizeof(st->progname) - 1)) < 0)
			len = 0;
		st->progname[len] = '\0';
		if ((s = strrchr(st->progname, '/')) != NULL)
			memmove(st->progname, s + 1, strlen(s + 1) + 1);
		return;
	}
	len = strlen(s);
	if (len >= sizeof(st->progname))
		len = sizeof(st->progname) - 1;
	memcpy(st->progname, s, len);
	st->progname[len] = '\0';
}

/* The child of fork profiles itself from zero, with its own sampler. */
static void
atfork_child(void)
{
	struct __mon_state *st = &__mon_state;

	MON_STORE(&st->writing, 0);
	MON_STORE(&st->switching, 0);
	MON_STORE(&st->stopping, 0);
	if (!MON_LOAD(&st->active))
		return;
	__mon_cells_reset();
	st->threads = 1;
	if (st->out_bins != NULL)
		memset(st->out_bins, 0, st->out_nbins * sizeof(WORD));
	st->samples = st->saturated = st->outside = st->lost = 0;
	__mon_sampler_child();
}

void __attribute__((__constructor__(101)))
__mon_init(void)
{
	struct __mon_state *st = &__mon_state;
	static int done;

	if (done++)
		return;
	__mon_env_load(&st->env);
	__mon_init_exe();
	pthread_atfork(NULL, NULL, atfork_child);
	if (st->env.disabled) {
		MON_STORE(&st->disabled, 1);
		return;
	}
	__mon_signal_setup();
	__mon_signal_fatal_setup();
	if (st->env.disable_default)
		return;
	if (__monstartup(NULL, NULL) != 0)
		MON_ERR("monprof: cannot find the program's text: "
		    "not profiling\n");
}

static void __attribute__((__destructor__(101)))
fini(void)
{
	__mon_monitor_stop(1);
}
