/* SPDX-License-Identifier: MIT */
/*
 * sframe.c - where a pc's caller is: the CFA rule and the saved frame
 * pointer from the SFrame section (PT_GNU_SFRAME) of each loaded
 * object, which binutils 2.40 and later write from the assembler's CFI
 * (the specs file passes -Wa,--gsframe where the Makefile's probe
 * allows), else from its .eh_frame (ehframe.c).  It lets unwind.c walk
 * code built without frame pointers, so that stacks cost the program
 * no instruction.
 *
 * The lookup runs in the SIGPROF handler (itimer.c) and in the perf
 * helper, so it is written here rather than taken from libsframe: that
 * library decodes into memory it mallocs, locks nothing but ships no
 * static archive, and neither may be used in a signal handler.  The
 * format is small (binutils' include/sframe.h): a header, function
 * descriptors sorted by address, and per function a list of rows, each
 * giving from some offset on the CFA as SP or FP plus a constant and
 * where FP was saved; the return address is at CFA - 8 on x86-64.
 * Versions 1 and 2 on x86-64 are read; others are ignored (their code is
 * walked by frame pointers).
 *
 * Every loaded object has an entry, its code's bounds, which also tell
 * a frame-pointer walk where return addresses may point.  Each object's
 * sections are copied, when dl_iterate_phdr first shows it (at the
 * sampler's start, after each of the executable's dlopen() calls, dl.c,
 * and at each drain of the perf helper, which finds what a shared
 * library loads), into memory of the runtime's own that is never unmapped: a lookup
 * never faults, however late it runs after a dlclose, and a stale entry
 * only answers for addresses where nothing is mapped any more.  Entries
 * are published once, whole, by the count (release); the scan, outside
 * any handler and any fork handler, is the only writer (one at a time).
 *
 * The perf helper, where it is a thread glibc does not count
 * (rawthread.c), may not call dl_iterate_phdr: glibc, believing the
 * process single-threaded, then takes the loader's lock with plain
 * stores, and the helper's walk and a dlopen() of the program's would
 * hold it at once.  It learns an object when an unwinding first meets
 * its code, from _dl_find_object (glibc 2.35 and later, which takes no
 * lock), and copies the object's headers and sections with
 * process_vm_readv, which fails where a dlclose() unmapped them rather
 * than faulting; the same lookup tells it which objects are gone.
 */
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/uio.h>

#include <dlfcn.h>
#include <errno.h>
#include <link.h>
#include <sched.h>
#include <string.h>
#include <unistd.h>

#include "process.h"
#include "sampler.h"

/* glibc 2.35's lock-free lookup of the object at an address. */
#if defined(DLFO_STRUCT_HAS_EH_DBASE)
#define SF_LOCKFREE	1
#else
#define SF_LOCKFREE	0
#endif

#ifndef PT_GNU_SFRAME
#define PT_GNU_SFRAME	0x6474e554
#endif

#define SF_MAGIC	0xdee2
#define SF_HDR		28		/* the header, without its aux part */
#define SF_SORTED	0x1
#define SF_PCREL	0x4		/* v2: start relative to its field */
#define SF_AMD64	3
#define SF_OBJECTS	512
#define SF_SIG		32	/* bytes of an object's signature */
#define SF_NOTES	4	/* PT_NOTE segments looked at for it */
#define SF_NOTE		512	/* bytes of one read */

struct sfobj {
	uintptr_t	 code_lo, code_hi;	/* its executable segments */
	uintptr_t	 lo, hi;	/* the code its rows describe (or 0, 0) */
	uintptr_t	 at;		/* the section's address when copied */
	const unsigned char *fde;	/* in the copy */
	const unsigned char *fre;
	size_t		 frelen;
	uint32_t	 nfde;
	uint32_t	 fdesz;		/* 17 (v1) or 20 (v2) */
	int		 pcrel;
	int		 fixed_fp;	/* FP at CFA + this, if not 0 */
	int		 gone;		/* the object was unloaded */
	size_t		 len;
	const unsigned char *copy;
	uintptr_t	 eh_hdr;	/* its .eh_frame_hdr, if any */
	const struct __mon_ehframe *eh;	/* its .eh_frame's copy, or NULL */
	uintptr_t	 sig_at;	/* where its signature was read */
	size_t		 sig_len;	/* 0: none */
	long		 id;		/* its build-id, from notes there */
	unsigned char	 sig[SF_SIG];	/* else the bytes there */
};

static struct sfobj objs[SF_OBJECTS];
static unsigned nobjs;		/* published entries */
static int withrows;		/* one of them has rows */
static unsigned long last_adds = ~0UL, last_subs = ~0UL;
static int scanning;		/* one scan at a time */
static int forking;		/* fork's handlers: no helper scan */
/* This thread learns objects without the loader's lock (the helper's). */
static __thread int learner __attribute__((__tls_model__("initial-exec")));

static int known(uintptr_t);

/* Program headers read of an object learnt without the loader's lock. */
#define SF_PHDRS	64

static uint32_t
u32(const unsigned char *p)
{
	uint32_t v;

	memcpy(&v, p, sizeof(v));
	return v;
}

static int32_t
s32(const unsigned char *p)
{
	int32_t v;

	memcpy(&v, p, sizeof(v));
	return v;
}

/* Function i's first address. */
static uintptr_t
fde_start(const struct sfobj *o, uint32_t i)
{
	const unsigned char *f = o->fde + (size_t)i * o->fdesz;

	if (o->pcrel)
		return o->at + (uintptr_t)(f - o->copy) +
		    (uintptr_t)(intptr_t)s32(f);
	return o->at + (uintptr_t)(intptr_t)s32(f);
}

/*
 * Check a section and fill o from its copy: 0, or -1 for a version,
 * ABI or shape this file does not read, or bounds that do not hold.
 */
static int
parse(struct sfobj *o, const unsigned char *p, size_t len)
{
	size_t hdr, fdeoff, freoff;
	uint32_t nfde, frelen, i;
	int version;

	if (len < SF_HDR || p[0] != (SF_MAGIC & 0xff) ||
	    p[1] != (SF_MAGIC >> 8) || p[4] != SF_AMD64 ||
	    (signed char)p[6] != -8 || !(p[3] & SF_SORTED))
		return -1;
	version = p[2];
	if (version != 1 && version != 2)
		return -1;
	hdr = SF_HDR + p[7];
	nfde = u32(p + 8);
	frelen = u32(p + 16);
	fdeoff = u32(p + 20);
	freoff = u32(p + 24);
	o->fdesz = version == 1 ? 17 : 20;
	if (nfde == 0 || hdr > len || fdeoff > len - hdr ||
	    (len - hdr - fdeoff) / o->fdesz < nfde || freoff > len - hdr ||
	    frelen > len - hdr - freoff)
		return -1;
	o->copy = p;
	o->len = len;
	o->fde = p + hdr + fdeoff;
	o->fre = p + hdr + freoff;
	o->frelen = frelen;
	o->nfde = nfde;
	o->pcrel = version == 2 && (p[3] & SF_PCREL);
	o->fixed_fp = (signed char)p[5];
	o->lo = fde_start(o, 0);
	o->hi = fde_start(o, nfde - 1);
	for (i = 0; i < nfde; i++) {
		uintptr_t s = fde_start(o, i), e = s + u32(o->fde +
		    (size_t)i * o->fdesz + 4);

		if (s < o->lo)
			o->lo = s;
		if (e > o->hi)
			o->hi = e;
	}
	return 0;
}

/* What a scan finds of an object: its code, its sections. */
struct found {
	uintptr_t	 lo, hi;	/* its executable segments */
	uintptr_t	 a;		/* PT_GNU_SFRAME, or 0 */
	size_t		 len;
	uintptr_t	 eh;		/* PT_GNU_EH_FRAME, or 0 */
	size_t		 ehlen;
	uintptr_t	 ehstart, ehend;	/* the segment holding it */
	uintptr_t	 note[SF_NOTES];	/* its PT_NOTE segments */
	size_t		 notelen[SF_NOTES];
};

/*
 * Whether entry o is the live object of code [lo, hi) and section at a
 * of len bytes (0, 0: none) and .eh_frame_hdr at eh.
 */
static int
same(const struct sfobj *o, const struct found *f)
{
	return !o->gone && o->code_lo == f->lo && o->code_hi == f->hi &&
	    o->at == f->a && o->len == f->len && o->eh_hdr == f->eh &&
	    (f->len == 0 || memcmp(o->copy, (const void *)f->a, f->len) ==
	    0) && (o->eh == NULL || __mon_ehframe_same(o->eh));
}

/*
 * Copy len bytes of this process's memory at src to dst without
 * faulting: 0, -1 where any of it is not mapped (a dlclose()), or -2
 * where the call itself failed (a seccomp filter's error, a kernel
 * without it): nothing is then known of the memory.
 */
static int
peek(void *dst, uintptr_t src, size_t len)
{
	struct iovec to = { dst, len }, from = { (void *)src, len };
	int saved = errno, rc;
	long n;

	errno = 0;
	n = syscall(SYS_process_vm_readv, (long)__mon_self_pid(), &to, 1UL,
	    &from, 1UL, 0UL);
	rc = n == (long)len ? 0 : n >= 0 || errno == EFAULT ? -1 : -2;
	errno = saved;
	return rc;
}

/* peek() as ehframe.c's reader. */
static int
peek_read(void *ctx, void *dst, uintptr_t src, size_t len)
{
	(void)ctx;
	return peek(dst, src, len);
}

/* Copy len bytes at src to dst, in place or loose (peek()). */
static int
fetch(void *dst, uintptr_t src, size_t len, int loose)
{
	if (loose)
		return peek(dst, src, len);
	memcpy(dst, (const void *)src, len);
	return 0;
}

/*
 * Read a signature into o, at at (len bytes): the build-id of the notes
 * there (note), or the bytes themselves.  0, or as fetch() (-1 also
 * where the notes hold no build-id).
 */
static int
sig_read(struct sfobj *o, uintptr_t at, size_t len, int note, int loose)
{
	/* __mon_note_buildid may read a build-id's 8 bytes past len. */
	char buf[SF_NOTE + 32];
	int rc;

	o->sig_at = at;
	o->sig_len = len;
	o->id = 0;
	if (!note)
		return fetch(o->sig, at, len, loose);
	memset(buf, 0, sizeof(buf));
	if ((rc = fetch(buf, at, len, loose)) == 0 &&
	    (o->id = __mon_note_buildid(buf, len)) == 0)
		rc = -1;
	return rc;
}

/* Whether a and b have the same signature, read at the same place. */
static int
same_sig(const struct sfobj *a, const struct sfobj *b)
{
	return a->sig_at == b->sig_at && a->sig_len == b->sig_len &&
	    a->id == b->id && (a->id != 0 ||
	    memcmp(a->sig, b->sig, a->sig_len) == 0);
}

/*
 * What tells o's object from another loaded later at its address: the
 * build-id in its notes, else the first bytes of its .eh_frame_hdr or
 * of its code.  Read from f, in place or loose.
 */
static void
signature(struct sfobj *o, const struct found *f, int loose)
{
	int k;

	for (k = 0; k < SF_NOTES && f->note[k] != 0; k++)
		if (sig_read(o, f->note[k], f->notelen[k] < SF_NOTE ?
		    f->notelen[k] : SF_NOTE, 1, loose) == 0)
			return;
	if (sig_read(o, f->eh != 0 ? f->eh : f->lo, f->eh != 0 &&
	    f->ehlen < SF_SIG ? f->ehlen : SF_SIG, 0, loose) != 0)
		o->sig_at = o->sig_len = 0;
}

/*
 * A new entry: code [lo, hi), its SFrame section, if any, and its
 * .eh_frame (ehframe.c), copied: in place while the loader holds the
 * object, or loose (peek(), without the loader's lock).
 */
static void
add(const struct found *f, int loose)
{
	uintptr_t lo = f->lo, hi = f->hi, a = f->a;
	size_t len = f->len;
	unsigned n = MON_LOAD(&nobjs);
	struct sfobj *o;
	unsigned char *copy = NULL;

	if (n == SF_OBJECTS)
		return;
	o = &objs[n];
	memset(o, 0, sizeof(*o));
	o->code_lo = lo;
	o->code_hi = hi;
	if (len != 0) {
		/* Shared, as ehframe.c's copies: no fork copies it. */
		copy = mmap(NULL, len, PROT_READ | PROT_WRITE,
		    MAP_SHARED | MAP_ANONYMOUS, -1, 0);
		if (copy == MAP_FAILED)
			return;
		if (fetch(copy, a, len, loose) != 0) {
			munmap(copy, len);
			return;
		}
		o->at = a;
		if (parse(o, copy, len) != 0) {
			/* No rows, but the section kept, as same() and
			 * revive_or_add() compare it. */
			memset(o, 0, sizeof(*o));
			o->code_lo = lo;
			o->code_hi = hi;
			o->at = a;
			o->copy = copy;
			o->len = len;
		} else
			MON_STORE(&withrows, 1);
	}
	signature(o, f, loose);
	if (f->eh != 0) {
		o->eh_hdr = f->eh;
		o->eh = __mon_ehframe_copy(f->eh, f->ehlen, f->ehstart,
		    f->ehend, loose ? peek_read : NULL, NULL);
		if (o->eh != NULL)
			MON_STORE(&withrows, 1);
	}
	MON_STORE(&nobjs, n + 1);
}

/*
 * What an object's program headers (n of them at ph, its load bias
 * bias) say of its code and sections: 0, or -1 where it has no code.
 */
static int
headers(struct found *f, uintptr_t bias, const ElfW(Phdr) *ph, int n)
{
	int k, notes = 0;

	memset(f, 0, sizeof(*f));
	f->lo = UINTPTR_MAX;
	for (k = 0; k < n; k++) {
		uintptr_t at = bias + ph[k].p_vaddr;

		if (ph[k].p_type == PT_LOAD && (ph[k].p_flags & PF_X)) {
			if (at < f->lo)
				f->lo = at;
			if (at + ph[k].p_memsz > f->hi)
				f->hi = at + ph[k].p_memsz;
		} else if (ph[k].p_type == PT_GNU_SFRAME) {
			f->a = at;
			f->len = ph[k].p_memsz;
		} else if (ph[k].p_type == PT_GNU_EH_FRAME) {
			f->eh = at;
			f->ehlen = ph[k].p_memsz;
		} else if (ph[k].p_type == PT_NOTE && notes < SF_NOTES) {
			f->note[notes] = at;
			f->notelen[notes++] = ph[k].p_filesz;
		}
	}
	if (f->hi == 0)
		return -1;
	/* .eh_frame lies after its header, in the same segment. */
	for (k = 0; f->eh != 0 && k < n; k++) {
		uintptr_t at = bias + ph[k].p_vaddr;

		if (ph[k].p_type == PT_LOAD && f->eh >= at &&
		    f->eh - at < ph[k].p_memsz) {
			f->ehstart = at;
			f->ehend = at + ph[k].p_filesz;
		}
	}
	if (f->ehend <= f->eh)
		f->eh = 0;
	return 0;
}

struct pass {
	unsigned	 seen[SF_OBJECTS / 32];
	int		 first;
};

static int
object(struct dl_phdr_info *info, size_t size, void *arg)
{
	struct pass *ps = arg;
	struct found f;
	unsigned i, n;

	if (ps->first) {
		ps->first = 0;
		/* Nothing loaded or unloaded since the last scan. */
		if (size >= offsetof(struct dl_phdr_info, dlpi_subs) +
		    sizeof(info->dlpi_subs) && info->dlpi_adds == last_adds &&
		    info->dlpi_subs == last_subs)
			return 1;
		if (size >= offsetof(struct dl_phdr_info, dlpi_subs) +
		    sizeof(info->dlpi_subs)) {
			last_adds = info->dlpi_adds;
			last_subs = info->dlpi_subs;
		}
	}
	if (headers(&f, info->dlpi_addr, info->dlpi_phdr,
	    info->dlpi_phnum) != 0)
		return 0;
	n = MON_LOAD(&nobjs);
	for (i = 0; i < n && !same(&objs[i], &f); i++)
		continue;
	if (i == n)
		add(&f, 0);
	if (i < SF_OBJECTS)
		ps->seen[i / 32] |= 1U << (i % 32);
	return 0;
}

/*
 * Learn the sections of objects loaded since the last call, and retire
 * those of objects gone.  Not in a signal handler: dl_iterate_phdr
 * takes the loader's lock.  Never while a fork is being made: a fork
 * while a scan holds the loader's write lock, which glibc's fork does
 * not reset in the child, would leave every dl_iterate_phdr of the
 * child (a C++ throw's) hung.  The fork's prepare handler waits for a
 * scan going on to end and keeps new ones out until the fork is made;
 * the perf helper's (helper set) is then left out, a thread of the
 * program's waits.
 */
static void
scan(int helper)
{
	struct pass ps;
	unsigned i, n;
	int zero = 0;

	/*
	 * Two dlopen()s at once: the second scans after the first.  The
	 * load of forking is sequentially consistent with the prepare
	 * handler's store (Dekker's: one of the two sees the other).
	 */
	for (;;) {
		zero = 0;
		if (MON_CAS(&scanning, &zero, 1)) {
			if (!__atomic_load_n(&forking, __ATOMIC_SEQ_CST))
				break;
			MON_STORE(&scanning, 0);
		}
		if (helper)
			return;
		sched_yield();
	}
	memset(&ps, 0, sizeof(ps));
	ps.first = 1;
	n = MON_LOAD(&nobjs);
	if (dl_iterate_phdr(object, &ps) == 0)
		for (i = 0; i < n; i++)
			if (!(ps.seen[i / 32] & (1U << (i % 32))))
				MON_STORE(&objs[i].gone, 1);
	MON_STORE(&scanning, 0);
}

void
__mon_sframe_scan(void)
{
	scan(0);
}

/* The perf helper's scan: none while a fork is being made. */
void
__mon_sframe_scan_helper(void)
{
	scan(1);
}

#if SF_LOCKFREE
static int live(const struct sfobj *);

/*
 * Add f's entry, loose, or where a gone entry is of the same object
 * (its bounds, sections and signature: a library that a loop dlopen()s
 * and dlclose()s comes back where it was), take that one back: the
 * entries and their copies are never freed.
 */
static void
revive_or_add(const struct found *f)
{
	struct sfobj t;
	unsigned i, k, n = MON_LOAD(&nobjs);

	memset(&t, 0, sizeof(t));
	signature(&t, f, 1);
	for (i = n; i-- > 0;) {
		struct sfobj *o = &objs[i];

		if (MON_LOAD(&o->gone) && o->code_lo == f->lo &&
		    o->code_hi == f->hi && o->at == f->a && o->len == f->len &&
		    o->eh_hdr == f->eh && t.sig_len != 0 && same_sig(o, &t))
			break;
	}
	/* Newer entries over the same code are of objects gone: the
	 * lookups take the newest first. */
	for (k = i + 1; i != (unsigned)-1 && k < n; k++)
		if (objs[k].code_lo < f->hi && f->lo < objs[k].code_hi)
			MON_STORE(&objs[k].gone, 1);
	if (i != (unsigned)-1) {
		MON_STORE(&objs[i].gone, 0);
		return;
	}
	add(f, 1);
	/* Unloaded, or another object loaded there, while it was copied:
	 * the copies may mix the two (its signature, read again by add(),
	 * must be the one read before them). */
	if (MON_LOAD(&nobjs) == n + 1 && (!live(&objs[n]) ||
	    !same_sig(&objs[n], &t)))
		MON_STORE(&objs[n].gone, 1);
}

/*
 * Learn the object whose code holds pc, without the loader's lock
 * (above): 0, or -1 where there is none or it cannot be read whole.
 * Its ELF header and program headers are at the start of its first
 * mapping (the loader maps the first segment from the file's start);
 * they must agree with what _dl_find_object says of it.
 */
static int
learn(uintptr_t pc)
{
	struct dl_find_object r;
	ElfW(Ehdr) eh;
	ElfW(Phdr) ph[SF_PHDRS];
	struct found f;
	uintptr_t base, bias = 0, page = (uintptr_t)sysconf(_SC_PAGESIZE);
	int k, zero = 0, rc = -1, load = 0;

	if (_dl_find_object((void *)pc, &r) != 0)
		return -1;
	base = (uintptr_t)r.dlfo_map_start;
	if (peek(&eh, base, sizeof(eh)) != 0 ||
	    memcmp(eh.e_ident, ELFMAG, SELFMAG) != 0 ||
	    eh.e_phentsize != sizeof(ph[0]) || eh.e_phnum == 0 ||
	    eh.e_phnum > SF_PHDRS || peek(ph, base + eh.e_phoff,
	    eh.e_phnum * sizeof(ph[0])) != 0)
		return -1;
	/* The bias: the first segment (they are sorted) maps at base. */
	for (k = 0; k < eh.e_phnum && !load; k++)
		if (ph[k].p_type == PT_LOAD) {
			bias = base - (ph[k].p_vaddr & ~(page - 1));
			load = 1;
		}
	if (!load || headers(&f, bias, ph, eh.e_phnum) != 0 ||
	    f.eh != (uintptr_t)r.dlfo_eh_frame || pc < f.lo || pc >= f.hi)
		return -1;
	if (!MON_CAS(&scanning, &zero, 1))
		return -1;
	if (known(pc) < 0) {
		revive_or_add(&f);
		rc = 0;
	}
	MON_STORE(&scanning, 0);
	return rc;
}

/*
 * Whether entry o's object is still loaded where it was learnt: the
 * object there has its bounds, its .eh_frame_hdr and its signature (a
 * module loaded where a gone one was would have the same addresses).
 */
static int
live(const struct sfobj *o)
{
	struct dl_find_object r;
	struct sfobj t;
	int rc;

	if (_dl_find_object((void *)o->code_lo, &r) != 0 ||
	    (uintptr_t)r.dlfo_map_start > o->code_lo ||
	    o->code_hi > (uintptr_t)r.dlfo_map_end ||
	    (uintptr_t)r.dlfo_eh_frame != o->eh_hdr)
		return 0;
	if (o->sig_len == 0 || (rc = sig_read(&t, o->sig_at, o->sig_len,
	    o->id != 0, 1)) == -2)
		return 1;
	return rc == 0 && same_sig(&t, o);
}
#endif

/*
 * Whether this process can learn objects without the loader's lock:
 * what a helper that is no thread of glibc's needs (rawthread.c).
 * process_vm_readv must work (a kernel without it, a seccomp filter's
 * error): where it fails, every object would look unloaded.
 */
int
__mon_sframe_lockfree(void)
{
	long here = 1, copy = 0;
#if SF_LOCKFREE
	struct dl_find_object r;

	/* Bound now, not by the helper (perf.c's prebind()). */
	(void)_dl_find_object((void *)&here, &r);
#endif
	return SF_LOCKFREE && peek(&copy, (uintptr_t)&here, sizeof(here)) ==
	    0 && copy == here;
}

/*
 * The calling thread learns objects without the loader's lock from now
 * on: when a lookup meets code of none it knows, and at each
 * __mon_sframe_scan_lockfree().  The perf helper's, where it is no
 * thread of glibc's.
 */
void
__mon_sframe_learner(void)
{
	learner = 1;
}

/*
 * The helper's scan without the loader's lock: retire the entries of
 * objects gone.  New ones are learnt as unwindings meet them.
 */
void
__mon_sframe_scan_lockfree(void)
{
#if SF_LOCKFREE
	unsigned i, n;
	int zero = 0;

	if (!MON_CAS(&scanning, &zero, 1))
		return;
	n = MON_LOAD(&nobjs);
	for (i = 0; i < n; i++)
		if (!MON_LOAD(&objs[i].gone) && !live(&objs[i]))
			MON_STORE(&objs[i].gone, 1);
	MON_STORE(&scanning, 0);
#endif
}

/*
 * fork()'s prepare handler: no helper scan from now until the fork is
 * made, and the one going on ended (it waits for the loader's write
 * lock, held only while a list is changed or walked).  Bounded all the
 * same, at some 10 ms of pauses: a fork never hangs on it.
 */
void
__mon_sframe_fork_prepare(void)
{
	long i;

	__atomic_store_n(&forking, 1, __ATOMIC_SEQ_CST);
	for (i = 0; i < 100000 && __atomic_load_n(&scanning,
	    __ATOMIC_SEQ_CST); i++)
		MON_RELAX();
}

/* fork()'s parent handler: the helper may scan again. */
void
__mon_sframe_fork_parent(void)
{
	MON_STORE(&forking, 0);
}

/*
 * A fork child: a scan another thread of the parent was making is not
 * going on here.
 */
void
__mon_sframe_forked(void)
{
	MON_STORE(&scanning, 0);
	MON_STORE(&forking, 0);
}

/* Whether a scan has been made (in this process or before its fork). */
int
__mon_sframe_known(void)
{
	return MON_LOAD(&nobjs) != 0;
}

/* Whether any loaded object has rows: stacks need no frame pointers. */
int
__mon_sframe_any(void)
{
	return MON_LOAD(&withrows);
}

/* Which known object's code a is in (an entry, from 0), or -1. */
static int
known(uintptr_t a)
{
	unsigned j = MON_LOAD(&nobjs);

	while (j-- > 0)
		if (a >= objs[j].code_lo && a < objs[j].code_hi &&
		    !MON_LOAD(&objs[j].gone))
			return (int)j;
	return -1;
}

/*
 * Which object's code a is in (an entry, from 0), or -1.  The newest
 * first: an object mapped where a gone one was.  A learner (above)
 * learns the object of an address that none known holds.
 */
int
__mon_sframe_object(uintptr_t a)
{
	int j = known(a);

#if SF_LOCKFREE
	if (j < 0 && learner && learn(a) == 0)
		j = known(a);
#endif
	return j;
}

/*
 * Whether a is in the code of an object loaded at the last scan: a
 * return address that a frame-pointer walk reads is one only there.
 * Before any scan, anything is.
 */
int
__mon_sframe_code(uintptr_t a)
{
	return MON_LOAD(&nobjs) == 0 || __mon_sframe_object(a) >= 0;
}

/* A row's field of size sz (1, 2 or 4 bytes) at p, sign-extended. */
static long
field(const unsigned char *p, int sz)
{
	int16_t h;

	if (sz == 1)
		return (signed char)p[0];
	if (sz == 2) {
		memcpy(&h, p, sizeof(h));
		return h;
	}
	return s32(p);
}

/* The row of function i that covers offset off in it: 0, or -1. */
static int
row(const struct sfobj *o, uint32_t i, uintptr_t off,
    struct __mon_sframe_rule *r)
{
	const unsigned char *f = o->fde + (size_t)i * o->fdesz;
	uint32_t nfre = u32(f + 12), k;
	unsigned info = f[16];
	int asz = (info & 0xf) == 0 ? 1 : (info & 0xf) == 1 ? 2 : 4;
	size_t at = u32(f + 8), next;
	int found = 0, noff, osz;
	unsigned rep = o->fdesz == 20 && f[17] != 0 ? f[17] : 16;

	if ((info & 0xf) > 2)
		return -1;
	/* A PLT's rows repeat every rep bytes (FDE type "mask"). */
	if ((info >> 4) & 1)
		off %= rep;
	for (k = 0; k < nfre; k++) {
		const unsigned char *e;
		unsigned char fi;
		uintptr_t start;

		if (at > o->frelen || o->frelen - at < (size_t)asz + 1)
			return -1;
		e = o->fre + at;
		start = asz == 1 ? e[0] : (uintptr_t)field(e, asz) &
		    (asz == 2 ? 0xffffUL : 0xffffffffUL);
		fi = e[asz];
		noff = (fi >> 1) & 0xf;
		osz = ((fi >> 5) & 3) == 0 ? 1 : ((fi >> 5) & 3) == 1 ? 2 : 4;
		next = at + (size_t)asz + 1 + (size_t)noff * (size_t)osz;
		if (((fi >> 5) & 3) > 2 || noff < 1 || next > o->frelen)
			return -1;
		if (start > off)
			break;
		r->sp_based = fi & 1;
		r->cfa = field(e + asz + 1, osz);
		r->fp_saved = o->fixed_fp != 0 || noff >= 2;
		r->fp = o->fixed_fp != 0 ? o->fixed_fp :
		    noff >= 2 ? field(e + asz + 1 + osz, osz) : 0;
		found = 1;
		at = next;
	}
	return found ? 0 : -1;
}

/*
 * The rule for pc: how to find its frame's CFA, and whether and where
 * the caller's FP is saved.  0, or -1 where no section describes pc.
 * Async-signal-safe: reads the runtime's copies only.
 */
int
__mon_sframe_find(uintptr_t pc, struct __mon_sframe_rule *r)
{
	int j = __mon_sframe_object(pc);
	const struct sfobj *o;
	uint32_t lo, hi, mid;
	uintptr_t s;

	if (j < 0)
		return -1;
	o = &objs[j];
	if (pc >= o->lo && pc < o->hi) {
		lo = 0;
		hi = o->nfde;
		while (hi - lo > 1) {
			mid = lo + (hi - lo) / 2;
			if (fde_start(o, mid) <= pc)
				lo = mid;
			else
				hi = mid;
		}
		s = fde_start(o, lo);
		if (pc >= s && pc - s < u32(o->fde + (size_t)lo * o->fdesz +
		    4) && row(o, lo, pc - s, r) == 0)
			return 0;
	}
	/* No SFrame row: the object's .eh_frame, if it has one. */
	return o->eh != NULL ? __mon_ehframe_find(o->eh, pc, r) : -1;
}
