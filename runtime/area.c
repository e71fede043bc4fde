/* SPDX-License-Identifier: MIT */
/*
 * area.c - each thread's area of words (hook ABI 6, mon.h): the
 * thread-local words of -fPIC code, which has no thread-local storage of
 * its own, so that a host may dlopen() any number of instrumented
 * objects (glibc keeps a few hundred bytes of static TLS for all of
 * them).  Each unit of such code registers the number of words it uses
 * and gets an offset, the same in every area; a thread reaches its area
 * through one initial-exec pointer of the runtime's, whose 8 bytes are
 * the executable's own.
 *
 * Offsets are handed out once and never reused: a word of an object
 * that dlclose() unmapped may still hold the arc or slot it was given,
 * and a new unit must start from zeroed words.  An area is a lease
 * (arena.c), every one MON_AREA_LEN bytes mapped without reserve, so
 * that a unit registered while threads run lies inside every area;
 * untouched pages cost nothing.  It goes, zeroed, to a thread that
 * starts once its holder has gone from the system: words point at the
 * slots and arcs of the thread that set them, which another may not
 * adopt.
 *
 * Runs in the hooks' slow paths and in signal handlers: atomics, mmap
 * and madvise only, general registers only, errno kept.
 */
#include <sys/mman.h>

#include <errno.h>

#include "storage.h"

#ifdef __x86_64__
#pragma GCC target("general-regs-only")
#endif

/* This thread's area, or 0: the -fPIC code's one thread-local load. */
__thread char *__mon_area_mine MON_EXPORT
    __attribute__((__tls_model__("initial-exec")));

/* The next offset to hand out: the scratch part is no unit's. */
static long next = MON_AREA_SCRATCH;

static struct __mon_leases areas = MON_LEASES_INIT(MON_LEASE_AREAS);

/*
 * The lease's data starts MON_LEASE_HDR bytes into its mapping; the area
 * starts at the next page, so that it can be zeroed by pages, header
 * untouched.
 */
#define AREA_PAGE	4096L
#define AREA_SKIP	(AREA_PAGE - MON_LEASE_HDR)

_Static_assert(MON_AREA_LEN % AREA_PAGE == 0, "whole pages");
_Static_assert(MON_AREA_SCRATCH % AREA_PAGE == 0, "whole pages");

/*
 * A unit of -fPIC code registers n words (its constructor, mon.h): *base
 * becomes their offset in every area.  A unit registered already (a
 * second constructor of a unit built twice into one object) keeps its
 * words; one that finds no room keeps base 0, and its words stay the
 * scratch's: counted at every call, never cached.
 */
void
__mon_area_add(long *base, long n)
{
	long len, off;

	if (base == NULL || n <= 0 || n > MON_AREA_UNIT_MAX ||
	    MON_LOAD(base) != 0)
		return;
	len = n * (long)sizeof(long);
	off = MON_ADD(&next, len);
	if (off > MON_AREA_LEN - len)
		return;
	MON_STORE(base, off);
}

/* n more words, for the runtime's own use (sites.c's mods); 0: none. */
long
__mon_area_words(long n)
{
	long b = 0;

	__mon_area_add(&b, n);
	return b;
}

/*
 * Whether this thread's pointer is one that glibc set up: its TCB points
 * at itself (header.tcb at 0, header.self at 16).  A thread started by
 * a raw clone() with a TLS block of its own may have anything below its
 * pointer: no area is mapped for it (the slow path's other thread-local
 * state still lies there: README, Limitations).
 */
static int
glibc_thread(void)
{
#ifdef __x86_64__
	char *tcb, *self;

	__asm__("movq %%fs:0, %0\n\tmovq %%fs:16, %1" :
	    "=r"(tcb), "=r"(self));
	return tcb != NULL && tcb == self;
#else
	return 1;
#endif
}

/* This thread's area, mapped or adopted now if need be; NULL if none. */
char *
__mon_area_get(void)
{
	char *a = __mon_area_mine, *d;
	int saved;

	if (a != NULL)
		return a;
	if (!glibc_thread())
		return NULL;
	if ((d = __mon_arena_adopt(&areas)) != NULL) {
		a = d + AREA_SKIP;
		saved = errno;
		/* Another thread's words: zero pages again. */
		if (madvise(a, MON_AREA_LEN, MADV_DONTNEED) != 0) {
			errno = saved;
			return NULL;	/* kept: never handed on zeroed */
		}
		errno = saved;
	} else if ((d = __mon_arena_lease(&areas, AREA_SKIP + MON_AREA_LEN)) !=
	    NULL)
		a = d + AREA_SKIP;
	else
		return NULL;
	__mon_area_mine = a;
	return a;
}

/*
 * The address of the word at offset off in this thread's area, mapped
 * now if need be; NULL for the scratch, an offset no unit has, or no
 * area.
 */
long **
__mon_area_word(long off)
{
	char *a;

	if (off < MON_AREA_SCRATCH || off > MON_AREA_LEN - (long)sizeof(long) ||
	    off % (long)sizeof(long) != 0 || (a = __mon_area_get()) == NULL)
		return NULL;
	return (long **)(a + off);
}

/* Bytes mapped for areas (most never touched). */
size_t
__mon_area_mapped(void)
{
	return __mon_arena_leased(&areas);
}

/* fork child: the other threads' areas are released. */
void
__mon_area_reset(void)
{
	__mon_arena_orphan(&areas);
}
