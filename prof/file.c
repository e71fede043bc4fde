/* SPDX-License-Identifier: MIT */
/*
 * file.c - open an operand (a profile, the executable, a shared object
 * a profile names) so that no name can hang or flood prof: only regular
 * files are opened for reading, without blocking, and a file whose
 * apparent size is far beyond what it holds on disk can be refused.
 */
#include <sys/stat.h>

#include <errno.h>
#include <stdlib.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

#include "input.h"

/* Bytes of a sparse file read before its holes are suspect (64 MiB). */
#define FILE_SLACK	((uint64_t)64 << 20)

/*
 * PATH opened for reading, its status in *SB; or -1 and *WHY says what
 * is wrong.  stat() first, so that no device is opened (a tape rewinds,
 * a watchdog arms), then O_NONBLOCK, so that a FIFO put in its place
 * meanwhile cannot block; fstat() decides.
 */
int
file_open(const char *path, struct stat *sb, const char **why)
{
	int fd, fl;

	if (stat(path, sb) == -1) {
		*why = strerror(errno);
		return -1;
	}
	if (!S_ISREG(sb->st_mode)) {
		*why = "not a regular file";
		return -1;
	}
	if ((fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC)) ==
	    -1) {
		*why = strerror(errno);
		return -1;
	}
	if (fstat(fd, sb) == -1 || (fl = fcntl(fd, F_GETFL)) == -1 ||
	    fcntl(fd, F_SETFL, fl & ~O_NONBLOCK) == -1) {
		*why = strerror(errno);
		close(fd);
		return -1;
	}
	if (!S_ISREG(sb->st_mode)) {
		*why = "not a regular file";
		close(fd);
		return -1;
	}
	return fd;
}

/*
 * Whether reading BYTES of the file SB would cost far more than the
 * file holds on disk: a sparse file (a compressing file system may
 * store 16 times less, and small files are never refused).
 */
int
file_sparse(const struct stat *sb, uint64_t bytes)
{
	uint64_t disk = (uint64_t)sb->st_blocks * 512;

	return bytes > FILE_SLACK && (bytes - FILE_SLACK) / 16 > disk;
}

/*
 * The whole of the regular file PATH into *BUF (malloc'd, *LEN bytes, a
 * NUL after them), if it holds at most MAX bytes: 0, or -1 and *WHY.
 */
int
file_read(const char *path, size_t max, char **buf, size_t *len,
    const char **why)
{
	struct stat sb;
	ssize_t got;
	size_t n = 0;
	char *p;
	int fd;

	if ((fd = file_open(path, &sb, why)) == -1)
		return -1;
	if ((uint64_t)sb.st_size > max || file_sparse(&sb,
	    (uint64_t)sb.st_size)) {
		*why = "too large";
		close(fd);
		return -1;
	}
	if ((p = malloc((size_t)sb.st_size + 1)) == NULL) {
		*why = strerror(errno);
		close(fd);
		return -1;
	}
	/* The file may shrink meanwhile; it cannot grow past what we read. */
	while (n < (size_t)sb.st_size && (got = read(fd, p + n,
	    (size_t)sb.st_size - n)) != 0) {
		if (got == -1 && errno == EINTR)
			continue;
		if (got == -1) {
			*why = strerror(errno);
			free(p);
			close(fd);
			return -1;
		}
		n += (size_t)got;
	}
	close(fd);
	p[n] = '\0';
	*buf = p;
	*len = n;
	return 0;
}
