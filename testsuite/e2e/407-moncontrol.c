/*
 * 407-moncontrol: in -pg code, calls made while moncontrol(0) is in
 * force are not counted, though the inline arc cache counts them: f's
 * arc from main is cached before, used during and after the pause; g is
 * first called while off.  (f and g differ, or GCC would fold them.)
 */
#include <mon.h>

static volatile unsigned long sink;

__attribute__((__noinline__)) static void
f(void)
{
	sink++;
}

__attribute__((__noinline__)) static void
g(void)
{
	sink += 2;
}

int
main(void)
{
	int i;

	for (i = 0; i < 10; i++)
		f();
	moncontrol(0);
	for (i = 0; i < 100; i++)
		f();
	for (i = 0; i < 50; i++)
		g();
	moncontrol(1);
	for (i = 0; i < 3; i++)
		f();
	g();
	return 0;
}
