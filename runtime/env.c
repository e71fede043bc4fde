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
 * read with secure_getenv: setuid/setgid programs ignore them.
 */
#include <signal.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

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
		return 0;
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
	return bad;
}

void
__mon_env_load(struct __mon_env *e)
{
	const char *prefix = secure_getenv("GMON_OUT_PREFIX");
	size_t n;

	__mon_env_parse(e, secure_getenv("PROFDIR"),
	    secure_getenv("PROFFLAGS"));
	if (prefix != NULL) {
		n = strlen(prefix);
		if (n >= sizeof(e->gmon_prefix))
			n = sizeof(e->gmon_prefix) - 1;
		memcpy(e->gmon_prefix, prefix, n);
		e->gmon_prefix[n] = '\0';
	}
	quiet = 1;
}

static size_t
put(char *buf, size_t len, size_t at, const char *s)
{
	while (*s != '\0') {
		if (at + 1 < len)
			buf[at] = *s;
		at++;
		s++;
	}
	return at;
}

static int
finish(char *buf, size_t len, size_t at)
{
	if (at >= len) {
		if (len > 0)
			buf[0] = '\0';
		return -1;
	}
	buf[at] = '\0';
	return 0;
}

/*
 * The output file name for process pid of program prog: "mon.out", or
 * "<pid>.<prog>" when pids are on (the default when a directory is
 * given), under e->dir if set.  Async-signal-safe.  Returns 0, or -1 if
 * it does not fit in len.
 */
int
__mon_env_path(const struct __mon_env *e, const char *prog, long pid,
    char *buf, size_t len)
{
	char num[24];
	size_t at = 0;
	int pids = e->pids >= 0 ? e->pids : e->dir[0] != '\0';

	if (e->dir[0] != '\0') {
		at = put(buf, len, at, e->dir);
		at = put(buf, len, at, "/");
	}
	if (pids) {
		num[__mon_fmt_ulong(num, (unsigned long)pid)] = '\0';
		at = put(buf, len, at, num);
		at = put(buf, len, at, ".");
		at = put(buf, len, at, prog[0] != '\0' ? prog : "a.out");
	} else
		at = put(buf, len, at, MON_OUT);
	return finish(buf, len, at);
}

/*
 * The gmon.out name of a -pg program: "<prefix>.<pid>" with
 * GMON_OUT_PREFIX, else the mon.out name with ".gmon" added when it has
 * the pid in it, else "gmon.out" in the same directory.  Async-signal-
 * safe.  0, or -1 if it does not fit in len.
 */
int
__mon_env_gmon_path(const struct __mon_env *e, const char *prog, long pid,
    char *buf, size_t len)
{
	char num[24];
	size_t at = 0;
	int pids = e->pids >= 0 ? e->pids : e->dir[0] != '\0';

	if (e->gmon_prefix[0] != '\0') {
		num[__mon_fmt_ulong(num, (unsigned long)pid)] = '\0';
		at = put(buf, len, at, e->gmon_prefix);
		at = put(buf, len, at, ".");
		at = put(buf, len, at, num);
		return finish(buf, len, at);
	}
	if (pids) {
		if (__mon_env_path(e, prog, pid, buf, len) != 0)
			return -1;
		return finish(buf, len, put(buf, len, strlen(buf), ".gmon"));
	}
	if (e->dir[0] != '\0') {
		at = put(buf, len, at, e->dir);
		at = put(buf, len, at, "/");
	}
	return finish(buf, len, put(buf, len, at, "gmon.out"));
}
