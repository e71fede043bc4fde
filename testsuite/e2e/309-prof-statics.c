/* SPDX-License-Identifier: MIT */
/*
 * 309-prof-statics.c - static functions and their clones between global
 * ones.  Built with -O2 -ffunction-sections and linked with
 * --sort-section=name, the functions lie in name order:
 *
 *	begin			global, does nothing
 *	hidden			static; with the argument "hidden" the hot one
 *	mix.constprop.0		clone of a static, some work
 *	setup.constprop.0	clone of a static, never runs
 *	spin			static, the hot one
 *	tally, wrap		globals, do nothing
 *
 * noclone keeps hidden and spin plain statics; a constant argument makes
 * gcc clone mix and setup.
 */
#include <string.h>

void	begin(void);
void	tally(void);
void	wrap(unsigned long);

static volatile unsigned long sink;

void __attribute__((noinline))
begin(void)
{
	sink++;
}

static unsigned long __attribute__((noinline, noclone))
hidden(unsigned long n)
{
	unsigned long i, s = 1;

	for (i = 0; i < n; i++)
		s = s * 31 + (i ^ (s >> 7));
	return s;
}

static unsigned long __attribute__((noinline))
mix(int k, unsigned long n)
{
	unsigned long i, s = 0;

	for (i = 0; i < n; i++)
		s += (i * k) ^ (s >> 5);
	return s;
}

static void __attribute__((noinline))
setup(int k, unsigned long n)
{
	unsigned long i;

	for (i = 0; i < n; i++)
		sink += k * i;
}

static unsigned long __attribute__((noinline, noclone))
spin(unsigned long n)
{
	unsigned long i, s = 0;

	for (i = 0; i < n; i++)
		s += (i * i) ^ (s >> 3);
	return s;
}

void __attribute__((noinline))
tally(void)
{
	sink++;
}

void __attribute__((noinline))
wrap(unsigned long n)
{
	if (n > 1000)
		setup(7, n);
	sink += n;
}

int
main(int argc, char **argv)
{
	unsigned long n = 200000000 + argc % 2;

	begin();
	if (argc > 1 && strcmp(argv[1], "hidden") == 0)
		sink += hidden(n);
	else
		sink += spin(n);
	sink += mix(3, n / 10);
	tally();
	wrap(argc);
	return 0;
}
