/*
 * 415-entry2: a global function of an executable's -p code gets a
 * second entry past its count, which its own unit's groups call
 * (hook ABI 9); calls from another unit and through a pointer still
 * take the counted entry.  A weak function keeps one entry.  Prints
 * the number of calls each function must have.
 * Usage: 415-entry2 N
 */
#include <stdio.h>
#include <stdlib.h>

#define NOINLINE __attribute__((__noinline__, __noclone__))

unsigned long gf(unsigned long a);
unsigned long gg(unsigned long a);
unsigned long wf(unsigned long a);
unsigned long other_unit(unsigned long n);

static volatile unsigned long sink;

NOINLINE unsigned long gf(unsigned long a) { return a * 5 + 1; }
NOINLINE unsigned long gg(unsigned long a) { return a ^ 0x55; }
NOINLINE __attribute__((__weak__)) unsigned long wf(unsigned long a) { return a + 9; }

NOINLINE static void
caller(unsigned long i)
{
	sink += gg(gf(i)) + wf(i) + gf(i + 1);
	__asm__ volatile("");
}

int
main(int argc, char **argv)
{
	unsigned long n = argc > 1 ? strtoul(argv[1], NULL, 10) : 1000, i;
	unsigned long (*volatile fp)(unsigned long) = gf;

	for (i = 0; i < n; i++)
		caller(i);
	for (i = 0; i < n; i++)
		sink += fp(i);
	sink += other_unit(n);
	printf("gf %lu\ngg %lu\nwf %lu\ncaller %lu\nother_unit 1\n",
	    2 * n + n + n, n, n, n);
	return 0;
}
