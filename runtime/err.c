/* SPDX-License-Identifier: MIT */
/*
 * err.c - the runtime's only way to complain: one line, a raw write to
 * stderr, with the reason in words where there is an errno.
 * Async-signal-safe; leaves errno as it was.  The runtime never exits or
 * aborts the program it profiles, and where a seccomp filter of the
 * program's would kill it for a write to stderr, it says nothing.
 */
#include <errno.h>
#include <string.h>
#include <unistd.h>

#include "base.h"

void
__mon_err_write(const char *s, size_t len)
{
	int saved = errno;

	if (!__mon_seccomp_may(MON_SECCOMP_STDERR))
		return;
	if (write(STDERR_FILENO, s, len) < 0)
		errno = saved;
	errno = saved;
}

/* What a write of a profile can fail with, in words (strerror's). */
static const struct {
	int		 err;
	const char	*text;
} reasons[] = {
	{ EACCES, "Permission denied" },
	{ EPERM, "Operation not permitted" },
	{ ENOENT, "No such file or directory" },
	{ ENOTDIR, "Not a directory" },
	{ EISDIR, "Is a directory" },
	{ EROFS, "Read-only file system" },
	{ ENOSPC, "No space left on device" },
	{ EDQUOT, "Disk quota exceeded" },
	{ EFBIG, "File too large" },
	{ EMFILE, "Too many open files" },
	{ ENFILE, "Too many open files in system" },
	{ ENAMETOOLONG, "File name too long" },
	{ ELOOP, "Too many levels of symbolic links" },
	{ EEXIST, "File exists" },
	{ EXDEV, "Invalid cross-device link" },
	{ EIO, "Input/output error" },
	{ ENOMEM, "Cannot allocate memory" },
};

static size_t
put(char *buf, size_t len, size_t at, const char *s)
{
	while (*s != '\0' && at < len)
		buf[at++] = *s++;
	return at;
}

/*
 * One line: "monprof: <what><path>: <reason><more...>", the reason errnum
 * in words (or its number), then the nmore strings of more (what to do
 * about it).  One write when it fits a line of 1024 bytes.
 */
void
__mon_err_errno_more(const char *what, const char *path, int errnum,
    const char *const *more, size_t nmore)
{
	char line[1024], num[24];
	const char *reason = NULL;
	size_t i, at;

	for (i = 0; i < sizeof(reasons) / sizeof(reasons[0]); i++)
		if (reasons[i].err == errnum)
			reason = reasons[i].text;
	if (reason == NULL) {
		memcpy(num, "error ", 6);
		num[6 + __mon_fmt_ulong(num + 6, (unsigned long)errnum)] = '\0';
		reason = num;
	}
	at = put(line, sizeof(line), 0, "monprof: ");
	at = put(line, sizeof(line), at, what);
	at = put(line, sizeof(line), at, path);
	at = put(line, sizeof(line), at, ": ");
	at = put(line, sizeof(line), at, reason);
	for (i = 0; i < nmore; i++)
		at = put(line, sizeof(line), at, more[i]);
	at = put(line, sizeof(line), at, "\n");
	if (at < sizeof(line)) {
		__mon_err_write(line, at);
		return;
	}
	MON_ERR("monprof: ");
	__mon_err_write(what, strlen(what));
	__mon_err_write(path, strlen(path));
	MON_ERR(": ");
	__mon_err_write(reason, strlen(reason));
	for (i = 0; i < nmore; i++)
		__mon_err_write(more[i], strlen(more[i]));
	MON_ERR("\n");
}

/* One line: "monprof: <what><path>: <reason>". */
void
__mon_err_errno(const char *what, const char *path, int errnum)
{
	__mon_err_errno_more(what, path, errnum, NULL, 0);
}
