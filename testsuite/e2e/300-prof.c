/* SPDX-License-Identifier: MIT */
/*
 * 300-prof.c - the program prof's end-to-end cases read symbols from
 * (3NN-*.sh; they write its mon.out with mkmon, so counts and ticks are
 * exact).  Built with -O0 -fno-toplevel-reorder: functions stay in
 * source order, and the asm ones are a .cold part and two clones (one
 * without its base function), local symbols as GCC makes them.
 */
void	alpha(int);
void	alpha_alias(int) __attribute__((alias("alpha")));
void	beta(int);
void	gamma_w(void) __attribute__((weak));
void	cxx(int) __asm__("_ZN2ns3fooEi");
int	main(void);

__asm__(".text\n"
    "\t.type alpha.cold, @function\n"
    "alpha.cold:\n"
    "\t.skip 32, 0x90\n"
    "\t.size alpha.cold, 32\n");

void
alpha(int n)
{
	volatile int i;

	for (i = 0; i < n; i++)
		;
}

void
beta(int n)
{
	alpha(n);
}

static void __attribute__((noinline))
helper(int n)
{
	beta(n);
}

__asm__(".text\n"
    "\t.type beta.constprop.0, @function\n"
    "beta.constprop.0:\n"
    "\t.skip 32, 0x90\n"
    "\t.size beta.constprop.0, 32\n"
    "\t.type orphan.isra.0, @function\n"
    "orphan.isra.0:\n"
    "\t.skip 32, 0x90\n"
    "\t.size orphan.isra.0, 32\n");

void
gamma_w(void)
{
	helper(1);
}

void
cxx(int n)
{
	beta(n);
}

int
main(void)
{
	alpha(1);
	gamma_w();
	cxx(2);
	return 0;
}
