/*
 * 206-skip: functions the plugin must leave alone get no hook and no
 * count; their neighbours are counted as usual.
 */
#include <stdio.h>

#define N	__attribute__((noinline, noclone))

N __attribute__((no_instrument_function)) int
s_noinst(int x)
{
	asm volatile("");
	return x + 1;
}

N __attribute__((no_profile_instrument_function)) int
s_noprof(int x)
{
	asm volatile("");
	return x + 2;
}

__attribute__((naked)) int
s_naked(int x)
{
	asm("leal 3(%rdi), %eax\n\tret");
}

N int
__mon_private(int x)
{
	asm volatile("");
	return x + 4;
}

N int
__monprof_private(int x)
{
	asm volatile("");
	return x + 5;
}

/* ifunc: the resolver runs during relocation; the implementation counts. */
N static int
impl(int x)
{
	asm volatile("");
	return x + 6;
}

static int (*resolve(void))(int)
{
	return impl;
}

int s_ifunc(int) __attribute__((ifunc("resolve")));

/* target_clones: "tc.resolver" is skipped, the clones are counted. */
__attribute__((target_clones("default", "avx2"))) int
tc(int x)
{
	asm volatile("");
	return x + 7;
}

N int
counted(int x)
{
	asm volatile("");
	return x + 8;
}

int
main(void)
{
	int i, s = 0;

	for (i = 0; i < 3; i++) {
		s += s_noinst(i) + s_noprof(i) + s_naked(i);
		s += __mon_private(i) + __monprof_private(i);
		s += s_ifunc(i) + tc(i) + counted(i);
	}
	printf("%d\n", s);
	return 0;
}
