/*
 * 104-monitor: monitor() with a user buffer over [lo, lo + RANGE), the
 * Solaris stop example, then calls after the stop that must not be
 * written.  Prints what the test compares with the file.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "../tools/hooks.h"

#define RANGE	4096
#define NFUNC	4
#define BUFSIZE	((sizeof(struct hdr) + NFUNC * sizeof(struct cnt) + \
		    (RANGE / 8) * sizeof(WORD) + sizeof(WORD) - 1) / sizeof(WORD))

static WORD buf[BUFSIZE] __attribute__((aligned(16)));
static volatile unsigned long sink;

COUNTED static void
f(void)
{
	MON_COUNT();
	sink++;
}

COUNTED static void
g(void)
{
	MON_COUNT();
	spin_cpu(0.2);
}

int
main(void)
{
	uintptr_t lo = (uintptr_t)f < (uintptr_t)g ? (uintptr_t)f : (uintptr_t)g;
	struct hdr *h = (struct hdr *)buf;
	size_t ssiz, i;
	FILE *out;
	int k;

	lo &= ~(uintptr_t)15;
	if (monitor((int (*)(void))lo, (int (*)(void))(lo + RANGE), buf,
	    BUFSIZE, NFUNC) != 0)
		return 2;
	if ((uintptr_t)h->lpc != lo || (uintptr_t)h->hpc != lo + RANGE ||
	    h->nfns != NFUNC)
		return 3;
	for (k = 0; k < 5; k++)
		f();
	g();
	monitor((int (*)())0, (int (*)())0, (WORD *)0, 0, 0);
	for (k = 0; k < 7; k++)
		f();
	/* The buffer's histogram, for the test to compare with the file. */
	ssiz = (sizeof(struct hdr) + NFUNC * sizeof(struct cnt)) / sizeof(WORD);
	out = fopen("hist.txt", "w");
	for (i = ssiz; i < BUFSIZE; i++)
		if (buf[i] != 0)
			fprintf(out, "bin %zu %u\n", i - ssiz, buf[i]);
	fclose(out);
	printf("%lu %lu %zu\n", (unsigned long)lo,
	    (unsigned long)(lo + RANGE), (size_t)BUFSIZE - ssiz);
	return 0;
}
