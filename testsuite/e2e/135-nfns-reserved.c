/*
 * 135-nfns-reserved: monitor() over the whole text with a buffer of
 * nfunc cells (argv[1], 600 by default), then 19 functions called (main
 * is not instrumented: only they take cells).  Prints the bins the
 * buffer holds.
 */
#include <stdio.h>
#include <stdlib.h>

#include "mon.h"

extern char __executable_start[], etext[];

static volatile int sink;

#define F(n)	__attribute__((__noinline__, __noclone__)) void f##n(void); \
		__attribute__((__noinline__, __noclone__)) void f##n(void) \
		{ sink += n; }
F(1) F(2) F(3) F(4) F(5) F(6) F(7) F(8) F(9) F(10)
F(11) F(12) F(13) F(14) F(15) F(16) F(17) F(18) F(19)

static void (*const fn[])(void) = { f1, f2, f3, f4, f5, f6, f7, f8, f9, f10,
    f11, f12, f13, f14, f15, f16, f17, f18, f19 };

__attribute__((__no_instrument_function__)) int
main(int argc, char **argv)
{
	size_t nfunc = argc > 1 ? strtoul(argv[1], NULL, 10) : 600;
	size_t range = (size_t)(etext - __executable_start), bufsize, ssiz;
	size_t i, need;
	WORD *buf;

	/* monitor(3)'s formula: BARSIZE text bytes a bin. */
	bufsize = (sizeof(struct hdr) + nfunc * sizeof(struct cnt) +
	    range / BARSIZE * sizeof(WORD) + sizeof(WORD) - 1) / sizeof(WORD);
	if ((buf = calloc(bufsize, sizeof(WORD))) == NULL)
		return 2;
	if (monitor((int (*)(void))__executable_start, (int (*)(void))etext,
	    buf, bufsize, nfunc) != 0)
		return 3;
	for (i = 0; i < sizeof(fn) / sizeof(fn[0]); i++)
		fn[i]();
	ssiz = (sizeof(struct hdr) + nfunc * sizeof(struct cnt)) / sizeof(WORD);
	need = (range + 1) / 2;
	printf("%zu\n", bufsize - ssiz < need ? bufsize - ssiz : need);
	return 0;
}
