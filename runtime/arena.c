/* SPDX-License-Identifier: MIT */
/*
 * arena.c - lock-free allocation of equal-size elements (cells, slots)
 * from chunks that grow without bound and are never freed.
 *
 * Called from the hooks and from signal handlers: only atomics and
 * mmap/munmap, never malloc, locks or stdio, and errno is kept.
 */
#include <sys/mman.h>

#include <errno.h>
#include <string.h>

#include "storage.h"

/* The slow path runs here behind a stub that saves no vector register. */
#ifdef __x86_64__
#pragma GCC target("general-regs-only")
#endif

#define HDRLEN	64	/* chunk header, rounded up to a cache line */

static struct __mon_chunk *
chunk_map(struct __mon_arena *a)
{
	struct __mon_chunk *c;
	int saved = errno;

	c = mmap(NULL, a->chunklen, PROT_READ | PROT_WRITE,
	    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	errno = saved;
	if (c == MAP_FAILED)
		return NULL;
	c->base = (char *)c + HDRLEN;
	c->cap = (a->chunklen - HDRLEN) / a->elsize;
	c->maplen = a->chunklen;
	return c;
}

static void
append(struct __mon_arena *a, struct __mon_chunk *c)
{
	struct __mon_chunk *t, *next;

	for (;;) {
		t = MON_LOAD(&a->tail);
		next = NULL;
		if (MON_CAS(&t->next, &next, c)) {
			MON_CAS(&a->tail, &t, c);
			return;
		}
		/* Another append is half done: finish it for them. */
		MON_CAS(&a->tail, &t, next);
	}
}

/*
 * Hand out one zeroed element: from the current chunk by an atomic bump,
 * or from a new mapping when it is full.  NULL only when mmap fails.
 */
void *
__mon_arena_alloc(struct __mon_arena *a)
{
	struct __mon_chunk *c, *n;
	size_t i;

	for (;;) {
		c = MON_LOAD(&a->cur);
		if (c != NULL) {
			i = MON_ADD(&c->used, 1);
			if (i < c->cap)
				return c->base + i * a->elsize;
		}
		if ((n = chunk_map(a)) == NULL)
			return NULL;
		n->used = 1;
		if (MON_CAS(&a->cur, &c, n)) {
			append(a, n);
			return n->base;
		}
		/* Lost the race: use the winner's chunk. */
		munmap(n, n->maplen);
	}
}

/*
 * Zero the n elements at base (storage the arena does not own: a
 * monitor() buffer's cells) and hand them out next.  0, or -1 if there
 * is no memory for the chunk's header: then base is untouched.
 */
int
__mon_arena_lend(struct __mon_arena *a, void *base, size_t n)
{
	struct __mon_chunk *c;

	c = mmap(NULL, sizeof(*c), PROT_READ | PROT_WRITE,
	    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (c == MAP_FAILED)
		return -1;
	memset(base, 0, n * a->elsize);
	c->base = base;
	c->cap = n;
	append(a, c);
	MON_STORE(&a->cur, c);
	return 0;
}

/* Bytes mapped for a's own chunks. */
size_t
__mon_arena_mapped(const struct __mon_arena *a)
{
	const struct __mon_chunk *c;
	size_t n = 0;

	for (c = MON_LOAD(&a->head.next); c != NULL; c = MON_LOAD(&c->next))
		n += c->maplen;
	return n;
}
