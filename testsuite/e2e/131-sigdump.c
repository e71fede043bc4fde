/*
 * 131-sigdump: f is called 10 times, the program sends itself the
 * signal argv[1] (a number), f 20 times, the signal again, f 30 times,
 * and exits.  With "take" as argv[2] it installs a handler of its own
 * for that signal after the first one (as a server that reopens its logs
 * on SIGUSR1), which prints a line, with signal(); "takeaction" does it
 * with sigaction() (as nginx does); with "first" it installs that
 * handler before the runtime's constructor runs (from .preinit_array,
 * as a library's constructor would, before the executable's).
 */
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../tools/hooks.h"

static volatile unsigned long sink;

COUNTED static void
f(void)
{
	MON_COUNT();
	sink++;
}

static void
own(int sig)
{
	static const char msg[] = "the program's handler\n";

	(void)sig;
	if (write(STDOUT_FILENO, msg, sizeof(msg) - 1) < 0)
		_exit(5);
}

static void
install_first(int argc, char **argv, char **envp)
{
	(void)envp;
	if (argc > 2 && strcmp(argv[2], "first") == 0)
		signal(atoi(argv[1]), own);
}

__attribute__((__section__(".preinit_array"), __used__))
static void (*const preinit)(int, char **, char **) = install_first;

static void
calls(int n)
{
	while (n-- > 0)
		f();
}

int
main(int argc, char **argv)
{
	int sig = argc > 1 ? atoi(argv[1]) : SIGUSR1;

	calls(10);
	kill(getpid(), sig);
	if (argc > 2 && strcmp(argv[2], "take") == 0)
		signal(sig, own);
	if (argc > 2 && strcmp(argv[2], "takeaction") == 0) {
		struct sigaction sa;

		memset(&sa, 0, sizeof(sa));
		sa.sa_handler = own;
		sigemptyset(&sa.sa_mask);
		if (sigaction(sig, &sa, NULL) != 0)
			return 4;
	}
	calls(20);
	kill(getpid(), sig);
	calls(30);
	return 0;
}
