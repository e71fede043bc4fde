/*
 * 179-profdir-perm: a server that drops privileges.  Run as root, the
 * master forks a worker that takes uid and gid argv[1] (setgid, setuid),
 * and waits for it; a non-root run only forks, keeping its user.  Each
 * process writes its own profile into PROFDIR at exit.  The worker's
 * status is the master's: 0, or 3 if it could not change its user.
 */
#include <sys/wait.h>

#include <grp.h>
#include <stdlib.h>
#include <unistd.h>

int
main(int argc, char **argv)
{
	uid_t id = argc > 1 ? (uid_t)atol(argv[1]) : getuid();
	int st;
	pid_t pid;

	if ((pid = fork()) < 0)
		return 2;
	if (pid == 0) {
		if (getuid() == 0 && (setgroups(0, NULL) != 0 ||
		    setgid((gid_t)id) != 0 || setuid(id) != 0))
			_exit(3);
		return 0;
	}
	if (waitpid(pid, &st, 0) != pid || !WIFEXITED(st))
		return 2;
	return WEXITSTATUS(st);
}
