/*
 * 101-basic: automatic start and exit write; calls counted exactly,
 * constructors included, with link-time fnpc inside each function.
 */
#include "../tools/hooks.h"

COUNTED static void
leaf(void)
{
	MON_COUNT();
	__asm__ volatile("");
}

COUNTED static void
caller(int n)
{
	int i;

	MON_COUNT();
	for (i = 0; i < n; i++)
		leaf();
	__asm__ volatile("");
}

static void __attribute__((constructor))
early(void)
{
	leaf();
}

int
main(void)
{
	MON_COUNT();
	caller(1000);
	caller(234);
	return 0;
}
