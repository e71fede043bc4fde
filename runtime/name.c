/* SPDX-License-Identifier: MIT */
/*
 * name.c - the names of the files a run writes, built in one place:
 *
 *	mon.out			one profile, in dir or the current directory
 *	<pid>.<prog>		with pids (the default when a dir is given;
 *				prog cut to MON_PROGNAME_MAX bytes, mon.h)
 *	<pid>.<sid>.<prog>	PROFFLAGS -threads: thread sid's profile
 *	gmon.out, <pid>.<prog>.gmon, <prefix>.<pid>	the -pg profile
 *	merged.<prog>		PROFFLAGS -merge: every process's sum (mon.out
 *				without pids), .build-<id> added for a build
 *				other than the one that wrote it first
 *	<any of those>.<n>	the n-th dump of a -sigdump run
 *	<dir>/.monprof.<pid>.tmp	the name a file gets, beside its
 *				target, just before the rename onto it
 *	<dir>/.monprof.<pid>.<salt>.tmp	the same, when that one is taken
 *	<dir>/.monprof.merged.tmp	a merged profile's (PROFFLAGS -merge,
 *				one writer at a time)
 *	<name>.<salt>		a profile whose name is another user's file
 *
 * Pure and async-signal-safe (no stdio, no malloc).  Each that builds a
 * name returns 0, or -1 with buf set to "" when the name does not fit in
 * len bytes.  prof links this file too: __mon_name_is_profile and
 * __mon_name_unseq read names back by building them here.
 */
#include "base.h"

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

static size_t
put_num(char *buf, size_t len, size_t at, long v)
{
	char num[24];

	num[__mon_fmt_ulong(num, (unsigned long)v)] = '\0';
	return put(buf, len, at, num);
}

/* dir ("" for none) and a slash. */
static size_t
put_dir(char *buf, size_t len, const char *dir)
{
	size_t at = 0;

	if (dir[0] != '\0') {
		at = put(buf, len, at, dir);
		at = put(buf, len, at, "/");
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
 * prog, its first MON_PROGNAME_MAX bytes at most (mon.h), cut back to
 * the start of a UTF-8 character.
 */
static size_t
put_prog(char *buf, size_t len, size_t at, const char *prog)
{
	size_t n = 0, i;

	while (n < MON_PROGNAME_MAX && prog[n] != '\0')
		n++;
	if (prog[n] != '\0')
		while (n > 0 && ((unsigned char)prog[n] & 0xc0) == 0x80)
			n--;
	for (i = 0; i < n; i++, at++)
		if (at + 1 < len)
			buf[at] = prog[i];
	return at;
}

/* The profile of process pid of program prog (classic prof: a.out). */
int
__mon_name_profile(const char *dir, int pids, const char *prog, long pid,
    char *buf, size_t len)
{
	size_t at = put_dir(buf, len, dir);

	if (pids) {
		at = put_num(buf, len, at, pid);
		at = put(buf, len, at, ".");
		at = put_prog(buf, len, at, prog[0] != '\0' ? prog : "a.out");
	} else
		at = put(buf, len, at, MON_OUT);
	return finish(buf, len, at);
}

/* "." and v in 16 hex digits, or with prefix in place of the dot. */
static size_t
put_hex(char *buf, size_t len, size_t at, const char *prefix,
    unsigned long v)
{
	static const char hex[] = "0123456789abcdef";
	char s[2 * sizeof(v) + 1];
	size_t i;

	for (i = 0; i < 2 * sizeof(v); i++)
		s[i] = hex[(v >> (4 * (2 * sizeof(v) - 1 - i))) & 15];
	s[i] = '\0';
	return put(buf, len, put(buf, len, at, prefix), s);
}

/*
 * PROFFLAGS -merge: the profile that every process of program prog adds
 * into, merged.<prog> with pids, else mon.out; with build (not 0), the
 * first 8 bytes of the build-id, the one of that build when another
 * build's is there (".build-<16 hex digits>" added).
 */
int
__mon_name_merged(const char *dir, int pids, const char *prog, long build,
    char *buf, size_t len)
{
	size_t at = put_dir(buf, len, dir);

	if (pids) {
		at = put(buf, len, at, MON_MERGED_PREFIX);
		at = put_prog(buf, len, at, prog[0] != '\0' ? prog : "a.out");
	} else
		at = put(buf, len, at, MON_OUT);
	if (build != 0)
		at = put_hex(buf, len, at, MON_MERGED_BUILD,
		    (unsigned long)build);
	return finish(buf, len, at);
}

/*
 * PROFFLAGS -threads: the profile of thread sid (1: the main thread) of
 * process pid, <pid>.<sid>.<prog> in dir, whatever -[no]pids says.
 */
int
__mon_name_thread(const char *dir, const char *prog, long pid, long sid,
    char *buf, size_t len)
{
	size_t at = put_dir(buf, len, dir);

	at = put_num(buf, len, at, pid);
	at = put(buf, len, at, ".");
	at = put_num(buf, len, at, sid);
	at = put(buf, len, at, ".");
	at = put_prog(buf, len, at, prog[0] != '\0' ? prog : "a.out");
	return finish(buf, len, at);
}

/*
 * The gmon.out of a -pg program: "<prefix>.<pid>" with a prefix (glibc's
 * GMON_OUT_PREFIX, "" for none), else the profile's name with ".gmon"
 * added when it has the pid in it, else "gmon.out" in dir.
 */
int
__mon_name_gmon(const char *dir, int pids, const char *prefix,
    const char *prog, long pid, char *buf, size_t len)
{
	size_t at;

	if (prefix[0] != '\0') {
		at = put(buf, len, 0, prefix);
		at = put(buf, len, at, ".");
		return finish(buf, len, put_num(buf, len, at, pid));
	}
	if (pids) {
		if (__mon_name_profile(dir, pids, prog, pid, buf, len) != 0)
			return -1;
		at = 0;
		while (buf[at] != '\0')
			at++;
		return finish(buf, len, put(buf, len, at, ".gmon"));
	}
	at = put_dir(buf, len, dir);
	return finish(buf, len, put(buf, len, at, "gmon.out"));
}

/*
 * A numbered dump's name: buf (a name built above) with ".<seq>" added,
 * as -sigdump writes <pid>.<prog>.1, .2, ... (the exit profile keeps
 * the plain name).
 */
int
__mon_name_seq(char *buf, size_t len, long seq)
{
	size_t at = 0;

	while (at < len && buf[at] != '\0')
		at++;
	at = put(buf, len, at, ".");
	return finish(buf, len, put_num(buf, len, at, seq));
}

/* The directory of path, "." for none; with "/" at its end if dirslash. */
static size_t
put_parent(char *buf, size_t len, const char *path, int dirslash)
{
	size_t at = 0, end = 0, i;

	for (i = 0; path[i] != '\0'; i++)
		if (path[i] == '/')
			end = i + 1;
	if (end == 0)
		return put(buf, len, 0, dirslash ? "" : ".");
	for (i = 0; i < end - (dirslash ? 0 : 1) || i == 0; i++, at++)
		if (at + 1 < len)
			buf[at] = path[i];
	return at;
}

/* The directory path's file is in (for O_TMPFILE). */
int
__mon_name_dir(const char *path, char *buf, size_t len)
{
	return finish(buf, len, put_parent(buf, len, path, 0));
}

/* "." and salt in 16 hex digits. */
static size_t
put_salt(char *buf, size_t len, size_t at, unsigned long salt)
{
	return put_hex(buf, len, at, ".", salt);
}

/*
 * The temporary name process pid gives the file it writes for path, in
 * the same directory (so that a rename can replace path): short, so
 * that no program name makes it too long for the directory, with salt
 * when not 0 (when the plain one is another user's).
 */
int
__mon_name_tmp(const char *path, long pid, unsigned long salt, char *buf,
    size_t len)
{
	size_t at = put_parent(buf, len, path, 1);

	at = put(buf, len, at, ".monprof.");
	at = put_num(buf, len, at, pid);
	if (salt != 0)
		at = put_salt(buf, len, at, salt);
	return finish(buf, len, put(buf, len, at, ".tmp"));
}

/*
 * The temporary name of a merged profile at path, in its directory:
 * merge.c's writers hold a lock on it, so one name serves them all, and
 * one that a writer killed before its rename left behind is the next
 * one's.
 */
int
__mon_name_merged_tmp(const char *path, char *buf, size_t len)
{
	return finish(buf, len, put(buf, len, put_parent(buf, len, path, 1),
	    ".monprof.merged.tmp"));
}

/*
 * path.<salt>: where a profile goes when path is another user's file (a
 * shared directory), a name that user cannot foresee.
 */
int
__mon_name_salted(const char *path, unsigned long salt, char *buf,
    size_t len)
{
	return finish(buf, len, put_salt(buf, len, put(buf, len, 0, path),
	    salt));
}

/* The end of ".<n>" at s (n as put_num writes it, not 0), or NULL. */
static const char *
skip_seq(const char *s)
{
	if (s[0] != '.' || s[1] < '1' || s[1] > '9')
		return NULL;
	for (s += 2; *s >= '0' && *s <= '9'; s++)
		;
	return s;
}

/*
 * name's length without the dump number __mon_name_seq added to it, if
 * it has one (for prof: the gmon.out of a numbered dump).
 */
size_t
__mon_name_unseq(const char *name)
{
	const char *s;
	size_t i, dot = 0;

	for (i = 0; name[i] != '\0'; i++)
		if (name[i] == '.')
			dot = i;
	if (i > 0 && (s = skip_seq(name + dot)) != NULL && *s == '\0')
		return dot;
	return i;
}

/* Whether s is "." and a salt as put_salt writes it, to its end. */
static int
is_salt(const char *s)
{
	size_t i;

	if (s[0] != '.')
		return 0;
	for (i = 1; i <= 2 * sizeof(unsigned long); i++)
		if (!((s[i] >= '0' && s[i] <= '9') || (s[i] >= 'a' &&
		    s[i] <= 'f')))
			return 0;
	return s[i] == '\0';
}

/* Whether name is want, then nothing, a salt, or a dump number (and a salt). */
static int
ends_well(const char *name, const char *want, size_t *stem)
{
	const char *s;
	size_t n = 0;

	while (want[n] != '\0' && name[n] == want[n])
		n++;
	if (want[n] != '\0')
		return 0;
	if (name[n] == '\0' || is_salt(name + n)) {
		*stem = n;
		return 1;
	}
	if ((s = skip_seq(name + n)) != NULL && (*s == '\0' || is_salt(s))) {
		*stem = (size_t)(s - name);
		return 1;
	}
	return 0;
}

/* The number at *p (no leading 0), *p moved past it: 0 if none. */
static long
get_num(const char **p)
{
	unsigned long v = 0;

	if (**p < '1' || **p > '9')
		return 0;
	for (; **p >= '0' && **p <= '9'; (*p)++) {
		if (v > (unsigned long)LONG_MAX / 10)
			return 0;
		v = v * 10 + (unsigned long)(**p - '0');
	}
	return v > (unsigned long)LONG_MAX ? 0 : (long)v;
}

/*
 * Whether name (no directory) is a profile that program prog leaves in
 * a PROFDIR: <pid>.<prog> as __mon_name_profile makes it (prog cut),
 * or <pid>.<sid>.<prog> as -threads does (__mon_name_thread), a
 * -sigdump's .<n> after it, and .<salt> after either.  1 with *stem the
 * length of name without the salt, or 0.
 */
int
__mon_name_is_profile(const char *name, const char *prog, size_t *stem)
{
	char want[NAME_MAX + 1];
	const char *p = name, *s;
	long pid, sid;

	if ((pid = get_num(&p)) == 0)
		return 0;
	/* <pid>.<sid>.<prog> (-threads); a salt is never taken for a sid. */
	if (*p == '.' && (s = p + 1, sid = get_num(&s)) != 0 && *s == '.' &&
	    __mon_name_thread("", prog, pid, sid, want, sizeof(want)) == 0 &&
	    ends_well(name, want, stem))
		return 1;
	return __mon_name_profile("", 1, prog, pid, want, sizeof(want)) == 0 &&
	    ends_well(name, want, stem);
}

/*
 * Whether name (no directory) is a merged profile of program prog, as
 * __mon_name_merged makes it with pids: merged.<prog>, and
 * merged.<prog>.build-<16 hex digits>.
 */
int
__mon_name_is_merged(const char *name, const char *prog)
{
	char want[NAME_MAX + 1];
	const char *s;
	size_t n = 0, i;

	if (__mon_name_merged("", 1, prog, 0, want, sizeof(want)) != 0)
		return 0;
	while (want[n] != '\0' && name[n] == want[n])
		n++;
	if (want[n] != '\0')
		return 0;
	if (name[n] == '\0')
		return 1;
	for (s = MON_MERGED_BUILD; *s != '\0'; s++, n++)
		if (name[n] != *s)
			return 0;
	for (i = 0; i < 16; i++, n++)
		if (!((name[n] >= '0' && name[n] <= '9') ||
		    (name[n] >= 'a' && name[n] <= 'f')))
			return 0;
	return name[n] == '\0';
}
