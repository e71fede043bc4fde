/* SPDX-License-Identifier: MIT */
/*
 * sort.c - a heapsort for the runtime's writers and hooks, which may
 * not call qsort (glibc's mallocs a buffer) and run in signal handlers:
 * in place, no allocation, no recursion, a byte swap of each element.
 */
#include "base.h"

#ifdef __x86_64__
#pragma GCC target("general-regs-only")	/* reached from the stubs */
#endif

/* Swap the size bytes at a and b. */
static void
swap(char *a, char *b, size_t size)
{
	char t;

	while (size-- > 0) {
		t = *a;
		*a++ = *b;
		*b++ = t;
	}
}

static void
sift(char *v, size_t root, size_t n, size_t size,
    int (*cmp)(const void *, const void *, void *), void *arg)
{
	size_t child;

	while ((child = 2 * root + 1) < n) {
		if (child + 1 < n &&
		    cmp(v + child * size, v + (child + 1) * size, arg) < 0)
			child++;
		if (cmp(v + root * size, v + child * size, arg) >= 0)
			return;
		swap(v + root * size, v + child * size, size);
		root = child;
	}
}

/* Sort n elements of size bytes at v by cmp (as qsort_r's), ascending. */
void
__mon_sort_heap(void *v, size_t n, size_t size,
    int (*cmp)(const void *, const void *, void *), void *arg)
{
	char *c = v;
	size_t i;

	for (i = n / 2; i > 0; i--)
		sift(c, i - 1, n, size, cmp, arg);
	for (i = n; i > 1; i--) {
		swap(c, c + (i - 1) * size, size);
		sift(c, 0, i - 1, size, cmp, arg);
	}
}
