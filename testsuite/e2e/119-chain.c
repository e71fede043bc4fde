/*
 * 119-chain: a crash handler of the program's, installed after the
 * runtime's, that passes the signal on to the handler it replaced, as
 * Breakpad and Crashpad do: "call" calls the previous handler directly,
 * "naive" too but always as sa_handler(sig), with no context, "restore"
 * puts it back and returns (a fault then happens again, SIGTERM is
 * raised again).  The second argument picks the signal: segv
 * (a null store) or term (kill from itself).  Each entry into the
 * program's handler prints a line; f is called 3 times first.
 */
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../tools/hooks.h"

static volatile unsigned long sink;
static struct sigaction old;
static int restore, naive;

COUNTED static void
f(void)
{
	MON_COUNT();
	sink++;
}

static void
handler(int sig, siginfo_t *si, void *ctx)
{
	static const char msg[] = "program's handler\n";

	if (write(STDOUT_FILENO, msg, sizeof(msg) - 1) < 0)
		_exit(5);
	if (restore) {
		sigaction(sig, &old, NULL);
		if (sig != SIGSEGV)
			raise(sig);
		return;
	}
	if (naive && old.sa_handler != SIG_DFL && old.sa_handler != SIG_IGN)
		old.sa_handler(sig);
	else if ((old.sa_flags & SA_SIGINFO) != 0)
		old.sa_sigaction(sig, si, ctx);
	else if (old.sa_handler != SIG_DFL && old.sa_handler != SIG_IGN)
		old.sa_handler(sig);
	else {
		signal(sig, SIG_DFL);
		raise(sig);
	}
}

int
main(int argc, char **argv)
{
	struct sigaction sa;
	int sig, i;

	if (argc < 3)
		return 2;
	restore = strcmp(argv[1], "restore") == 0;
	naive = strcmp(argv[1], "naive") == 0;
	sig = strcmp(argv[2], "segv") == 0 ? SIGSEGV : SIGTERM;
	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = handler;
	sa.sa_flags = SA_SIGINFO;
	sigemptyset(&sa.sa_mask);
	sigaction(sig, &sa, &old);
	for (i = 0; i < 3; i++)
		f();
	if (sig == SIGSEGV)
		*(volatile int *)(sink - 3) = 1;
	else
		kill(getpid(), sig);
	for (;;)
		pause();
}
