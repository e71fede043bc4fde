/*
 * 128-exec: f is called 3 times, then the program replaces itself with
 * /bin/sh -c 'exit 5' by the exec function argv[1] names (execve, execv,
 * execvp, execvpe, execl, execlp, execle, fexecve), or ("vfork") runs it
 * in a vfork child that execs, and returns its status.
 */
#include <sys/wait.h>

#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static volatile int sink;

__attribute__((__noinline__, __noclone__)) static void
f(void)
{
	sink++;
}

int
main(int argc, char **argv)
{
	static char *args[] = { "sh", "-c", "exit 5", NULL };
	static char *env[] = { "A=1", NULL };
	const char *how = argc > 1 ? argv[1] : "";
	pid_t pid;
	int i, st;

	for (i = 0; i < 3; i++)
		f();
	if (strcmp(how, "execve") == 0)
		execve("/bin/sh", args, env);
	else if (strcmp(how, "execv") == 0)
		execv("/bin/sh", args);
	else if (strcmp(how, "execvp") == 0)
		execvp("sh", args);
	else if (strcmp(how, "execvpe") == 0)
		execvpe("sh", args, env);
	else if (strcmp(how, "execl") == 0)
		execl("/bin/sh", "sh", "-c", "exit 5", (char *)NULL);
	else if (strcmp(how, "execlp") == 0)
		execlp("sh", "sh", "-c", "exit 5", (char *)NULL);
	else if (strcmp(how, "execle") == 0)
		execle("/bin/sh", "sh", "-c", "exit 5", (char *)NULL, env);
	else if (strcmp(how, "fexecve") == 0)
		fexecve(open("/bin/sh", O_RDONLY | O_CLOEXEC), args, env);
	else if (strcmp(how, "vfork") == 0) {
		if ((pid = vfork()) == 0) {
			execv("/bin/sh", args);
			_exit(127);
		}
		if (waitpid(pid, &st, 0) != pid || !WIFEXITED(st))
			return 9;
		return WEXITSTATUS(st);
	} else if (strcmp(how, "missing") == 0) {
		execl("/no/such/program", "x", (char *)NULL);
		perror("execl");
		f();
		return 6;
	}
	return 8;
}
