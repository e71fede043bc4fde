/* 420-forced-fault: f() 7 times, then a fault, SIGSEGV, that argv[1]
 * says how the program keeps from its handlers: "block" (sigprocmask),
 * "tblock" (pthread_sigmask), "ignore" (signal SIG_IGN), "sigign"
 * (sigaction SIG_IGN), "none" (the default action); "exec" blocks it
 * and runs argv[0] none again, which starts so; "fork" blocks it, and a
 * child calls f() 3 times and faults while the parent waits for it and
 * exits 0; "exit" blocks it and exits 5 without a fault.  The kernel
 * delivers the fault all the same, with its default action. */
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static volatile int sink;

__attribute__((noinline)) static void
f(void)
{
	sink++;
}

static void
fault(void)
{
	*(volatile int *)(long)sink = 1;
}

int
main(int argc, char **argv)
{
	const char *how = argc > 1 ? argv[1] : "none";
	struct sigaction sa;
	sigset_t set;
	int i, st;

	sigemptyset(&set);
	sigaddset(&set, SIGSEGV);
	if (strcmp(how, "ignore") == 0)
		signal(SIGSEGV, SIG_IGN);
	else if (strcmp(how, "sigign") == 0) {
		memset(&sa, 0, sizeof(sa));
		sa.sa_handler = SIG_IGN;
		sigaction(SIGSEGV, &sa, NULL);
	} else if (strcmp(how, "tblock") == 0)
		pthread_sigmask(SIG_BLOCK, &set, NULL);
	else if (strcmp(how, "none") != 0)
		sigprocmask(SIG_BLOCK, &set, NULL);
	if (strcmp(how, "exec") == 0) {
		execl("/proc/self/exe", argv[0], "none", (char *)NULL);
		return 9;
	}
	if (strcmp(how, "fork") == 0) {
		pid_t p = fork();

		if (p == 0) {
			for (i = 0; i < 3; i++)
				f();
			fault();
			_exit(9);
		}
		waitpid(p, &st, 0);
		printf("child: %s\n", WIFSIGNALED(st) &&
		    WTERMSIG(st) == SIGSEGV ? "SIGSEGV" : "?");
		return 0;
	}
	for (i = 0; i < 7; i++)
		f();
	fflush(stdout);
	if (strcmp(how, "exit") == 0)
		return 5;
	fault();
	return 9;
}
