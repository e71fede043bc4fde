/* SPDX-License-Identifier: MIT */
/*
 * psites.c - the executable's -pg call sites (hook ABI 8, mon_abi.h):
 * which function each site calls, and whether a call that reached a
 * function's slow path was counted at its site.
 *
 * Each site's record names its return address; the call that ends
 * there is a direct one, e8 and a 32-bit displacement, which gives the
 * callee's entry (a tail call's record names its jmp, e9 or eb).  An
 * entry that a -pg function's record names is a function of the
 * executable's, and the record gives its cell; any other (a library's
 * function, through the PLT) has none, and the site's count is
 * nobody's: that function counts its calls itself.
 *
 * The index (functions by entry, sites by return address) is made at
 * the first question, in memory of its own, and published with a
 * compare-and-swap: the hooks may ask first, in any thread or signal
 * handler.  Async-signal-safe: mmap and loads, __mon_sort_heap (qsort
 * may call malloc), errno kept.
 */
#include <sys/mman.h>

#include <errno.h>
#include <stdint.h>
#include <string.h>

#include "storage.h"

#ifdef __x86_64__
#pragma GCC target("general-regs-only")	/* reached from the stubs */
#endif

extern const struct mon_psite __start___mon_psites[]
    __attribute__((__weak__, __visibility__("hidden")));
extern const struct mon_psite __stop___mon_psites[]
    __attribute__((__weak__, __visibility__("hidden")));
extern const struct mon_pfn __start___mon_pfns[]
    __attribute__((__weak__, __visibility__("hidden")));
extern const struct mon_pfn __stop___mon_pfns[]
    __attribute__((__weak__, __visibility__("hidden")));

#define NONE	((uint32_t)-1)

/* Sorted by key: a function's entry, or a site's return address. */
struct key {
	uintptr_t	 key;
	uint32_t	 i;	/* the function's or the site's index */
	uint32_t	 fn;	/* a site's callee: index in fn[], or NONE */
};

struct index {
	size_t		 len;		/* bytes mapped */
	size_t		 nfn;
	struct key	*fn;		/* entry -> record; unique */
	size_t		 nret;
	struct key	*ret;		/* tagged sites' returns -> callee */
	uint32_t	*callee;	/* per site: index in fn[], or NONE */
};

static struct index *idx;

size_t
__mon_psites_n(void)
{
	if (__start___mon_psites == NULL || __stop___mon_psites == NULL)
		return 0;
	return (size_t)(__stop___mon_psites - __start___mon_psites);
}

static size_t
nfns(void)
{
	if (__start___mon_pfns == NULL || __stop___mon_pfns == NULL)
		return 0;
	return (size_t)(__stop___mon_pfns - __start___mon_pfns);
}

/* Whether the executable has -pg code of hook ABI 8. */
int
__mon_psites_any(void)
{
	return nfns() != 0 || __mon_psites_n() != 0;
}

/* Site i's return address (or its tail call's jmp). */
static unsigned char *
ret_of(size_t i)
{
	const struct mon_psite *r = &__start___mon_psites[i];

	return (unsigned char *)&r->pc + r->pc;
}

/* Site i's counter, in the span (pcells.c reads each thread's copy). */
long *
__mon_psites_ctr(size_t i)
{
	const struct mon_psite *r = &__start___mon_psites[i];

	return (long *)((char *)&r->ctr + r->ctr);
}

/* Where site i's call is made from: its return address, or the jmp. */
uintptr_t
__mon_psites_from(size_t i)
{
	return (uintptr_t)ret_of(i);
}

/*
 * The entry site i's call goes to, or 0: a call e8 rel32 (maybe after
 * an addr32 prefix) or ff 15 disp32 (through the GOT) that ends at its
 * return address, or a tail call's jmp, e9 rel32 or eb rel8, at the
 * site's address.  A site whose callee's entry takes its tag must be
 * found here: the call would be counted nowhere.
 */
static uintptr_t
target(size_t i)
{
	const unsigned char *r = ret_of(i);
	int32_t d;

	if (__start___mon_psites[i].tag == MON_TAG_JMP) {
		if (r[0] == 0xeb)
			return (uintptr_t)r + 2 + (intptr_t)(signed char)r[1];
		if (r[0] != 0xe9)
			return 0;
		memcpy(&d, r + 1, sizeof(d));
		return (uintptr_t)r + 5 + (intptr_t)d;
	}
	memcpy(&d, r - 4, sizeof(d));
	if (r[-5] == 0xe8)
		return (uintptr_t)r + (intptr_t)d;
	/* call *f@GOTPCREL(%rip) that ld did not relax (-fno-plt). */
	if (r[-6] == 0xff && r[-5] == 0x15)
		return *(const uintptr_t *)(const void *)(r + d);
	return 0;
}

static int
by_key(const void *a, const void *b, void *unused)
{
	uintptr_t x = ((const struct key *)a)->key, y = ((const struct key *)b)->key;

	(void)unused;
	return (x > y) - (x < y);
}

/* The index in k[0 .. n) of key, or NONE. */
static uint32_t
find(const struct key *k, size_t n, uintptr_t key)
{
	size_t lo = 0, hi = n, m;

	while (lo < hi) {
		m = lo + (hi - lo) / 2;
		if (k[m].key == key)
			return (uint32_t)m;
		if (k[m].key < key)
			lo = m + 1;
		else
			hi = m;
	}
	return NONE;
}

/* Sorted, duplicates dropped (a record an optimizer copied): the count. */
static size_t
unique(struct key *k, size_t n)
{
	size_t i, j = 0;

	__mon_sort_heap(k, n, sizeof(*k), by_key, NULL);
	for (i = 0; i < n; i++)
		if (j == 0 || k[i].key != k[j - 1].key)
			k[j++] = k[i];
	return j;
}

static struct index *
build(void)
{
	const struct mon_pfn *f;
	struct index *x, *seen = NULL;
	size_t i, nf = nfns(), ns = __mon_psites_n(), len;
	uintptr_t e;

	len = sizeof(*x) + (nf + ns) * sizeof(struct key) +
	    ns * sizeof(uint32_t);
	if ((x = __mon_arena_map(len)) == NULL)
		return NULL;
	x->len = len;
	x->fn = (struct key *)(x + 1);
	x->ret = x->fn + nf;
	x->callee = (uint32_t *)(x->ret + ns);
	for (i = 0; i < nf; i++) {
		f = &__start___mon_pfns[i];
		x->fn[i].key = (uintptr_t)((const char *)&f->pc + f->pc);
		x->fn[i].i = (uint32_t)i;
	}
	x->nfn = unique(x->fn, nf);
	for (i = 0; i < ns; i++) {
		e = target(i);
		x->callee[i] = e != 0 ? find(x->fn, x->nfn, e) : NONE;
		if (x->callee[i] == NONE || __start___mon_psites[i].tag == 0 ||
		    __start___mon_psites[i].tag == MON_TAG_JMP)
			continue;
		x->ret[x->nret].key = (uintptr_t)ret_of(i);
		x->ret[x->nret].i = (uint32_t)i;
		x->ret[x->nret].fn = x->callee[i];
		x->nret++;
	}
	x->nret = unique(x->ret, x->nret);
	if (!MON_CAS(&idx, &seen, x)) {
		i = errno;
		munmap(x, len);
		errno = (int)i;
		return seen;
	}
	return x;
}

static struct index *
get(void)
{
	struct index *x = MON_LOAD(&idx);

	return x != NULL ? x : build();
}

/* Function k of the index's cell pointer, and its entry in *entry. */
static struct cnt **
cell_of(const struct index *x, uint32_t k, char **entry)
{
	const struct mon_pfn *f = &__start___mon_pfns[x->fn[k].i];

	if (entry != NULL)
		*entry = (char *)x->fn[k].key;
	return (struct cnt **)((char *)&f->cell + f->cell);
}

/*
 * The cell pointer of the function site i calls, and in *pc a pc
 * inside it, past its entry (a cell's fnpc, which prof takes for a
 * return address: sym < fnpc <= sym + size); NULL if the executable
 * has no record of it.
 */
struct cnt **
__mon_psites_callee(size_t i, char **pc)
{
	struct index *x = get();
	struct cnt **c;

	if (x == NULL || x->callee[i] == NONE)
		return NULL;
	c = cell_of(x, x->callee[i], pc);
	*pc += 1;
	return c;
}

/*
 * Whether a call of cellp's function that returns to from was counted
 * at its site: the slow path must not count it again (mon_abi.h).
 */
int
__mon_psites_counted(uintptr_t from, struct cnt **cellp)
{
	struct index *x;
	uint32_t k;

	if (__mon_psites_n() == 0 || (x = get()) == NULL ||
	    (k = find(x->ret, x->nret, from)) == NONE)
		return 0;
	return cell_of(x, x->ret[k].fn, NULL) == cellp;
}

/* Bytes mapped for the index. */
size_t
__mon_psites_mapped(void)
{
	struct index *x = MON_LOAD(&idx);

	return x != NULL ? x->len : 0;
}
