/*
 * 325-prof-dir-sigdump: g calls f 10 times, the program sends itself
 * SIGUSR1, g calls f 20 times, SIGUSR1 again, then 30 times.  Built by
 * the plugin (-p or -pg), no hand-made hooks.
 */
#include <signal.h>
#include <unistd.h>

static volatile unsigned long sink;

static void __attribute__((__noinline__, __noclone__))
f(void)
{
	sink++;
}

static void __attribute__((__noinline__, __noclone__))
g(int n)
{
	while (n-- > 0)
		f();
	__asm__ volatile("");
}

int
main(void)
{
	g(10);
	kill(getpid(), SIGUSR1);
	g(20);
	kill(getpid(), SIGUSR1);
	g(30);
	return 0;
}
