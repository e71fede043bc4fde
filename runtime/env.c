/* SPDX-License-Identifier: MIT */
/*
 * env.c - PROFDIR and PROFFLAGS; the only file that reads the environment.
 *
 *	PROFDIR unset	-> ./mon.out
 *	PROFDIR=	-> no profiling, no file
 *	PROFDIR=dir	-> dir/<pid>.<progname> (dir relative: to where it starts)
 *
 * -pg programs also write gmon.out: ./gmon.out, dir/<pid>.<progname>.gmon,
 * or GMON_OUT_PREFIX.<pid> when that is set (as glibc).  All three are
 * read with secure_getenv: setuid/setgid programs ignore them (and are
 * not profiled unless they call monitor() themselves: init.c).  The
 * names themselves are built by name.c.
 */
#include <sys/auxv.h>

#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "process.h"

/* What the last load found; read by the sampler, signals and writers. */
static struct __mon_env env;

/* Every signal name the shell knows (kill -l), and its aliases. */
static const struct {
	const char	*name;
	int		 sig;
} signames[] = {
	{ "HUP", SIGHUP }, { "INT", SIGINT }, { "QUIT", SIGQUIT },
	{ "ILL", SIGILL }, { "TRAP", SIGTRAP }, { "ABRT", SIGABRT },
	{ "IOT", SIGIOT }, { "BUS", SIGBUS }, { "FPE", SIGFPE },
	{ "KILL", SIGKILL }, { "USR1", SIGUSR1 }, { "SEGV", SIGSEGV },
	{ "USR2", SIGUSR2 }, { "PIPE", SIGPIPE }, { "ALRM", SIGALRM },
	{ "TERM", SIGTERM }, { "STKFLT", SIGSTKFLT }, { "CHLD", SIGCHLD },
	{ "CLD", SIGCHLD }, { "CONT", SIGCONT }, { "STOP", SIGSTOP },
	{ "TSTP", SIGTSTP }, { "TTIN", SIGTTIN }, { "TTOU", SIGTTOU },
	{ "URG", SIGURG }, { "XCPU", SIGXCPU }, { "XFSZ", SIGXFSZ },
	{ "VTALRM", SIGVTALRM }, { "PROF", SIGPROF }, { "WINCH", SIGWINCH },
	{ "IO", SIGIO }, { "POLL", SIGPOLL }, { "PWR", SIGPWR },
	{ "SYS", SIGSYS },
};

/* Warn about PROFFLAGS once, not at every monitor() that rereads it. */
static int quiet;

/* One line: "monprof: PROFFLAGS: <word> <arg>: <why>, ignored". */
static void
warn(const char *word, const char *arg, const char *why)
{
	char line[512];
	size_t at = 0, i;
	const char *part[] = { "monprof: PROFFLAGS: ", word, arg[0] != '\0' ?
	    " " : "", arg, ": ", why, ", ignored\n" };

	if (quiet)
		return;
	for (i = 0; i < sizeof(part) / sizeof(part[0]); i++)
		for (; *part[i] != '\0' && at < sizeof(line) - 1; part[i]++)
			line[at++] = *part[i];
	if (line[at - 1] != '\n')
		line[at++] = '\n';
	__mon_err_write(line, at);
}

/* The number after "RTMIN+" or "RTMAX-" (none: 0), or -1. */
static long
offset(const char *s)
{
	char *end;
	long n;

	if (*s == '\0')
		return 0;
	if (*s != '+' && *s != '-')
		return -1;
	n = strtol(s + 1, &end, 10);
	return end != s + 1 && *end == '\0' && n >= 0 ? n : -1;
}

/*
 * A signal by name (as kill -l spells it, with or without SIG, in any
 * case; RTMIN+n and RTMAX-n) or number: the number, or 0 with *why set.
 * Those that cannot be a dump signal are named but refused: SIGKILL and
 * SIGSTOP (no handler), SIGPROF (the sampler's), the faults (their
 * handler returns into the fault again).
 */
static int
signum(const char *arg, const char **why)
{
	static const int refused[] = {
		SIGKILL, SIGSTOP, SIGPROF, SIGSEGV, SIGBUS, SIGILL, SIGFPE,
		SIGTRAP, SIGSYS,
	};
	char up[32], *end;
	const char *s = arg;
	size_t i;
	long n = 0;

	*why = "no such signal";
	for (i = 0; s[i] != '\0' && i < sizeof(up) - 1; i++)
		up[i] = (char)(s[i] >= 'a' && s[i] <= 'z' ? s[i] - 32 : s[i]);
	up[i] = '\0';
	s = strncmp(up, "SIG", 3) == 0 ? up + 3 : up;
	for (i = 0; i < sizeof(signames) / sizeof(signames[0]); i++)
		if (strcmp(s, signames[i].name) == 0)
			n = signames[i].sig;
	if (strncmp(s, "RTMIN", 5) == 0 && offset(s + 5) >= 0 &&
	    s[5] != '-')
		n = SIGRTMIN + offset(s + 5);
	else if (strncmp(s, "RTMAX", 5) == 0 && offset(s + 5) >= 0 &&
	    s[5] != '+')
		n = SIGRTMAX - offset(s + 5);
	else if (n == 0 && *s >= '0' && *s <= '9') {
		n = strtol(s, &end, 10);
		if (*end != '\0')
			n = 0;
	}
	if (n < 1 || n > SIGRTMAX || (n > SIGSYS && n < SIGRTMIN))
		return 0;
	for (i = 0; i < sizeof(refused) / sizeof(refused[0]); i++)
		if (n == refused[i]) {
			*why = n == SIGPROF ? "the sampler's signal" :
			    n == SIGKILL || n == SIGSTOP ? "cannot be caught" :
			    "a fault, not a dump signal";
			return 0;
		}
	return (int)n;
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

/* -incobj (how 'i') or -excobj ('e') name: 0 if there is no room. */
static int
addobj(struct __mon_env *e, char how, const char *name)
{
	size_t used = 0, i, n = strlen(name);

	for (i = 0; i < e->nobjs; i++)
		used += strlen(e->objs + used) + 1;
	if (used + n + 2 > sizeof(e->objs))
		return 0;
	e->objs[used] = how == 'i' ? '+' : '-';
	memcpy(e->objs + used + 1, name, n + 1);
	e->nobjs++;
	return 1;
}

/*
 * Whether the functions of the object at path are profiled by name:
 * those named by -incobj if any, else the executable and the objects
 * with counted functions (cells), or every object under -all; never
 * one named by -excobj.
 */
int
__mon_env_selects(const char *path, int cells)
{
	const char *s = env.objs;
	int inc = 0, yes = cells || env.all;
	size_t i;

	for (i = 0; i < env.nobjs; i++, s += strlen(s) + 1) {
		if (s[0] == '+')
			inc = 1;
		if (__mon_match_object(s + 1, path)) {
			if (s[0] == '-')
				return 0;
			return 1;
		}
	}
	return inc ? 0 : yes;
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
	const char *p, *why;
	char *end;
	int bad = 0;
	long n;

	memset(e, 0, sizeof(*e));
	e->pids = -1;
	e->stride = MON_STRIDE_DEFAULT;
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
		else if (strcmp(w, "-nostacks") == 0)
			e->nostacks = 1;
		else if (strcmp(w, "-kernel") == 0)
			e->kernel = 1;
		else if (strcmp(w, "-merge") == 0)
			e->merge = 1;
		else if (strcmp(w, "-classic") == 0)
			e->classic = 1;
		else if (strcmp(w, "-cpuwide") == 0)
			e->cpuwide = 1;
		else if (strcmp(w, "-nocpuwide") == 0)
			e->cpuwide = -1;
		else if (strcmp(w, "-nofatal") == 0)
			e->nofatal = 1;
		else if (strcmp(w, "-dirname") == 0 && word(&p, arg, sizeof(arg)))
			setdir(e, arg);
		else if (strcmp(w, "-sigdump") == 0 && word(&p, arg, sizeof(arg))) {
			if ((e->sigdump = signum(arg, &why)) == 0) {
				warn(w, arg, why);
				bad++;
			}
			/* For the runtime's lines about it (signal.c). */
			strncpy(e->sigdump_arg, arg, sizeof(e->sigdump_arg) - 1);
			e->sigdump_arg[sizeof(e->sigdump_arg) - 1] = '\0';
		} else if (strcmp(w, "-stride") == 0 &&
		    word(&p, arg, sizeof(arg))) {
			if (strlen(arg) != 1 || strchr("01248", arg[0]) == NULL) {
				warn(w, arg, "the stride is 1, 2, 4, 8 or 0");
				bad++;
			} else
				e->stride = arg[0] - '0';
		} else if (strcmp(w, "-all") == 0)
			e->all = 1;
		else if (strcmp(w, "-threads") == 0)
			e->threads = 1;
		else if ((strcmp(w, "-incobj") == 0 ||
		    strcmp(w, "-excobj") == 0) && word(&p, arg, sizeof(arg))) {
			if (!addobj(e, w[1], arg)) {
				warn(w, arg, "too many object names");
				bad++;
			}
		} else if (strcmp(w, "-stackcopy") == 0 &&
		    word(&p, arg, sizeof(arg))) {
			n = strtol(arg, &end, 10);
			/* The kernel's bound: a record's size is 16 bits. */
			if (*end != '\0' || n < 64 || n > 65000 || n % 8 != 0) {
				warn(w, arg, "the copy is 64 to 65000 bytes, "
				    "a multiple of 8");
				bad++;
			} else
				e->stackcopy = n;
		} else if (strcmp(w, "-rate") == 0 && word(&p, arg, sizeof(arg))) {
			n = strtol(arg, &end, 10);
			if (*end != '\0' || n < 1 || n > MON_RATE_MAX) {
				warn(w, arg, "the rate is 1 to 100000 Hz");
				bad++;
			} else
				e->rate = n;
		} else {
			warn(w, "", strcmp(w, "-dirname") == 0 ||
			    strcmp(w, "-sigdump") == 0 ||
			    strcmp(w, "-rate") == 0 || strcmp(w, "-stride") == 0 ||
			    strcmp(w, "-stackcopy") == 0 ||
			    strcmp(w, "-incobj") == 0 ||
			    strcmp(w, "-excobj") == 0 ? "its value is missing" :
			    "unknown option");
			bad++;
		}
	}
	/* Tru64: -threads is ignored together with -sigdump. */
	if (e->threads && e->sigdump != 0) {
		warn("-threads", "", "not with -sigdump");
		e->threads = 0;
		bad++;
	}
	/* A file per thread is not one file for every process. */
	if (e->merge && e->threads) {
		warn("-merge", "", "not with -threads");
		e->merge = 0;
		bad++;
	}
out:
	/* pids by default when a directory is given */
	if (e->pids < 0)
		e->pids = e->dir[0] != '\0';
	return bad;
}

/*
 * A relative directory is the one where the program stood when it read
 * PROFDIR (as it starts, or at monitor()): daemon() and chdir() must not
 * move the profile, or lose it in a directory that is not there.  Left
 * relative where the working directory has no name (getcwd fails) or
 * the whole would not fit.
 */
static void
absdir(struct __mon_env *e)
{
	char cwd[PATH_MAX];
	size_t nc, nd;

	if (e->dir[0] == '\0' || e->dir[0] == '/' ||
	    getcwd(cwd, sizeof(cwd)) == NULL || cwd[0] != '/')
		return;
	nc = strlen(cwd);
	if (cwd[nc - 1] == '/')
		nc--;
	nd = strlen(e->dir);
	if (nc + 1 + nd >= sizeof(e->dir))
		return;
	memmove(e->dir + nc + 1, e->dir, nd + 1);
	memcpy(e->dir, cwd, nc);
	e->dir[nc] = '/';
}

/* Read the environment again (monitor() does, as the program may set it). */
void
__mon_env_load(void)
{
	const char *prefix = secure_getenv("GMON_OUT_PREFIX");
	size_t n;

	__mon_env_parse(&env, secure_getenv("PROFDIR"),
	    secure_getenv("PROFFLAGS"));
	absdir(&env);
	env.secure = getauxval(AT_SECURE) != 0;
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

/*
 * sig's name into buf (len bytes, NUL-ended): "SIGUSR1", "SIGRTMIN+3",
 * or the number where it has none; its length.  A line names the signal
 * so, whether -sigdump was given a name or a number.  Async-signal-safe.
 */
size_t
__mon_env_signame(int sig, char *buf, size_t len)
{
	char tmp[32];
	const char *name = NULL;
	size_t i, at = 0;

	/* The first name of each signal is its usual one (ABRT, not IOT). */
	for (i = 0; i < sizeof(signames) / sizeof(signames[0]); i++)
		if (signames[i].sig == sig) {
			name = signames[i].name;
			break;
		}
	if (name != NULL) {
		memcpy(tmp, "SIG", 3);
		for (at = 3; *name != '\0' && at < sizeof(tmp) - 1; name++)
			tmp[at++] = *name;
	} else if (sig >= SIGRTMIN && sig <= SIGRTMAX) {
		memcpy(tmp, "SIGRTMIN+", 9);
		at = 9 + __mon_fmt_ulong(tmp + 9, (unsigned long)(sig - SIGRTMIN));
	} else
		at = __mon_fmt_ulong(tmp, (unsigned long)sig);
	if (len == 0)
		return 0;
	if (at > len - 1)
		at = len - 1;
	memcpy(buf, tmp, at);
	buf[at] = '\0';
	return at;
}

/* This process's mon.out name.  Async-signal-safe; 0, or -1: too long. */
int
__mon_env_profile_path(char *buf, size_t len)
{
	return __mon_name_profile(env.dir, env.pids, __mon_exe_progname(),
	    __mon_self_pid(), buf, len);
}

/*
 * -merge: the profile every process of the program adds into (build not
 * 0: that build's, beside another build's), in the same directory.
 */
int
__mon_env_merged_path(char *buf, size_t len, long build)
{
	return __mon_name_merged(env.dir, env.pids, __mon_exe_progname(),
	    build, buf, len);
}

/* -merge: this process's own profile where it cannot be added, <pid>.<prog>. */
int
__mon_env_own_path(char *buf, size_t len)
{
	return __mon_name_profile(env.dir, 1, __mon_exe_progname(),
	    __mon_self_pid(), buf, len);
}

/* This process's gmon.out name, as __mon_env_profile_path. */
int
__mon_env_gmon_path(char *buf, size_t len)
{
	return __mon_name_gmon(env.dir, env.pids, env.gmon_prefix,
	    __mon_exe_progname(), __mon_self_pid(), buf, len);
}

/* -threads: the name of thread sid's profile, as __mon_env_profile_path. */
int
__mon_env_thread_path(char *buf, size_t len, long sid)
{
	return __mon_name_thread(env.dir, __mon_exe_progname(),
	    __mon_self_pid(), sid, buf, len);
}
