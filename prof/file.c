/* SPDX-License-Identifier: MIT */
/*
 * file.c - open an operand (a profile, the executable, a shared object
 * a profile names) so that no name can hang or flood prof: only regular
 * files are opened for reading, without blocking, and a file whose
 * apparent size is far beyond what it holds on disk can be refused.
 */
#include <sys/stat.h>

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

#include "prof.h"

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
