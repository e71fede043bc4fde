/* SPDX-License-Identifier: MIT */
/*
 * env.c - PROFDIR and PROFFLAGS; the only file that reads the environment.
 *
 *	PROFDIR unset	-> ./mon.out
 *	PROFDIR=	-> no profiling, no file
 *	PROFDIR=dir	-> dir/<pid>.<progname>
 *
 * -pg programs also write gmon.out: ./gmon.out, dir/<pid>.<progname>.gmon,
 * or GMON_OUT_PREFIX.<pid> when that is set (as glibc).  All three are
 * read with secure_getenv: setuid/setgid programs ignore them.  The names
 * themselves are built by name.c.
 */
#include <signal.h>
#include <stdlib.h>
#include <string.h>

#include "process.h"

/* What the last load found; read by the sampler, signals and writers. */
static struct __mon_env env;

static const struct {
	const char	*name;
	int		 sig;
} signames[] = {
	{ "HUP", SIGHUP }, { "INT", SIGINT }, { "QUIT", SIGQUIT },
	{ "USR1", SIGUSR1 }, { "USR2", SIGUSR2 }, { "TERM", SIGTERM },
	{ "ALRM", SIGALRM }, { "CONT", SIGCONT }, { "WINCH", SIGWINCH },
	{ "TSTP", SIGTSTP }, { "PIPE", SIGPIPE }, { "URG", SIGURG },
	{ "XCPU", SIGXCPU }, { "VTALRM", SIGVTALRM }, { "IO", SIGIO },
};

/* Warn about PROFFLAGS once, not at every monitor() that rereads it. */
static int quiet;

#define WARN(s)		do { if (!quiet) MON_ERR(s); } while (0)

static int
signum(const char *s)
{
	size_t i;
	char *end;
	long n;

	if (strncmp(s, "SIG", 3) == 0)
		s += 3;
	for (i = 0; i < sizeof(signames) / sizeof(signames[0]); i++)
		if (strcmp(s, signames[i].name) == 0)
			return signames[i].sig;
	n = strtol(s, &end, 10);
	if (*s != '\0' && *end == '\0' && n > 0 && n < NSIG &&
	    n != SIGKILL && n != SIGSTOP && n != SIGPROF)
		return (int)n;
	return 0;
}

/* Next blank-separated word of *p into buf; 0 at the end. */
static int
word(const char **p, char *buf, size_t len)
{
	const char *s = *p;
	size_t n = 0;

	while (*s == ' ' || *s == '\t' || *s == ',')
		s++;
	if (*s == '\0')
		return 0;
	while (*s != '\0' && *s != ' ' && *s != '\t' && *s != ',') {
		if (n + 1 < len)
			buf[n++] = *s;
		s++;
	}
	buf[n] = '\0';
	*p = s;
	return 1;
}

static void
setdir(struct __mon_env *e, const char *d)
{
	size_t n = strlen(d);

	if (n >= sizeof(e->dir))
		n = sizeof(e->dir) - 1;
	memcpy(e->dir, d, n);
	e->dir[n] = '\0';
}

/*
 * Parse PROFDIR (NULL: unset) and PROFFLAGS (NULL: unset) into e.
 * Returns the number of flags it did not understand (each is reported
 * with one line on stderr).
 */
int
__mon_env_parse(struct __mon_env *e, const char *profdir,
    const char *profflags)
{
	char w[PATH_MAX], arg[PATH_MAX];
	const char *p;
	char *end;
	int bad = 0;
	long n;

	memset(e, 0, sizeof(*e));
	e->pids = -1;
	if (profdir != NULL) {
		if (*profdir == '\0')
			e->disabled = 1;
		else
			setdir(e, profdir);
	}
	if ((p = profflags) == NULL)
		goto out;
	while (word(&p, w, sizeof(w))) {
		if (strcmp(w, "-disable_default") == 0)
			e->disable_default = 1;
		else if (strcmp(w, "-pids") == 0)
			e->pids = 1;
		else if (strcmp(w, "-nopids") == 0)
			e->pids = 0;
		else if (strcmp(w, "-itimer") == 0)
			e->itimer = 1;
		else if (strcmp(w, "-nofatal") == 0)
			e->nofatal = 1;
		else if (strcmp(w, "-dirname") == 0 && word(&p, arg, sizeof(arg)))
			setdir(e, arg);
		else if (strcmp(w, "-sigdump") == 0 && word(&p, arg, sizeof(arg))) {
			if ((e->sigdump = signum(arg)) == 0) {
				WARN("monprof: PROFFLAGS: unknown signal "
				    "name after -sigdump, ignored\n");
				bad++;
			}
		} else if (strcmp(w, "-rate") == 0 && word(&p, arg, sizeof(arg))) {
			n = strtol(arg, &end, 10);
			if (*end != '\0' || n < 1 || n > MON_RATE_MAX) {
				WARN("monprof: PROFFLAGS: -rate wants "
				    "1..100000 Hz, ignored\n");
				bad++;
			} else
				e->rate = n;
		} else {
			WARN("monprof: PROFFLAGS: unknown or incomplete "
			    "option ignored\n");
			bad++;
		}
	}
out:
	/* pids by default when a directory is given */
	if (e->pids < 0)
		e->pids = e->dir[0] != '\0';
	return bad;
}

/* Read the environment again (monitor() does, as the program may set it). */
void
__mon_env_load(void)
{
	const char *prefix = secure_getenv("GMON_OUT_PREFIX");
	size_t n;

	__mon_env_parse(&env, secure_getenv("PROFDIR"),
	    secure_getenv("PROFFLAGS"));
	if (prefix != NULL) {
		n = strlen(prefix);
		if (n >= sizeof(env.gmon_prefix))
			n = sizeof(env.gmon_prefix) - 1;
		memcpy(env.gmon_prefix, prefix, n);
		env.gmon_prefix[n] = '\0';
	}
	quiet = 1;
}

const struct __mon_env *
__mon_env_get(void)
{
	return &env;
}

/* This process's mon.out name.  Async-signal-safe; 0, or -1: too long. */
int
__mon_env_profile_path(char *buf, size_t len)
{
	return __mon_name_profile(env.dir, env.pids, __mon_exe_progname(),
	    __mon_self_pid(), buf, len);
}

/* This process's gmon.out name, as __mon_env_profile_path. */
int
__mon_env_gmon_path(char *buf, size_t len)
{
	return __mon_name_gmon(env.dir, env.pids, env.gmon_prefix,
	    __mon_exe_progname(), __mon_self_pid(), buf, len);
}
