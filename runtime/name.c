/* SPDX-License-Identifier: MIT */
/*
 * name.c - the names of the files a run writes, built in one place:
 *
 *	mon.out			one profile, in dir or the current directory
 *	<pid>.<prog>		with pids (the default when a dir is given)
 *	gmon.out, <pid>.<prog>.gmon, <prefix>.<pid>	the -pg profile
 *	<path>.<pid>.tmp	what is written before the rename onto path
 *
 * Pure and async-signal-safe (no stdio, no malloc).  Each returns 0, or
 * -1 with buf set to "" when the name does not fit in len bytes.
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

/* The profile of process pid of program prog (classic prof: a.out). */
int
__mon_name_profile(const char *dir, int pids, const char *prog, long pid,
    char *buf, size_t len)
{
	size_t at = put_dir(buf, len, dir);

	if (pids) {
		at = put_num(buf, len, at, pid);
		at = put(buf, len, at, ".");
		at = put(buf, len, at, prog[0] != '\0' ? prog : "a.out");
	} else
		at = put(buf, len, at, MON_OUT);
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

/* The temporary file process pid writes path through. */
int
__mon_name_tmp(const char *path, long pid, char *buf, size_t len)
{
	size_t at = put(buf, len, 0, path);

	at = put(buf, len, at, ".");
	at = put_num(buf, len, at, pid);
	return finish(buf, len, put(buf, len, at, ".tmp"));
}
