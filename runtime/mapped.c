/* SPDX-License-Identifier: MIT */
/*
 * mapped.c - memory for the profile mergers (merge.c, gmonmerge.c): a
 * file mapped to be read, and anonymous memory for their tables (zeros,
 * as mmap gives them).
 * Async-signal-safe: mmap and munmap only, no malloc.
 */
#include <sys/mman.h>
#include <sys/stat.h>


#include "base.h"

/* len bytes of zeros (at least one), or NULL. */
void *
__mon_mapped_anon(size_t len)
{
	void *p = mmap(NULL, len > 0 ? len : 1, PROT_READ | PROT_WRITE,
	    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	return p == MAP_FAILED ? NULL : p;
}

/* What __mon_mapped_anon or __mon_mapped_file gave, of len bytes. */
void
__mon_mapped_free(const void *p, size_t len)
{
	if (p != NULL)
		munmap((void *)(uintptr_t)p, len > 0 ? len : 1);
}

/*
 * The regular file at fd, read-only, if it is min to max bytes long:
 * its bytes and *len, or NULL.
 */
const unsigned char *
__mon_mapped_file(int fd, size_t min, size_t max, size_t *len)
{
	struct stat sb;
	void *p;

	if (fstat(fd, &sb) != 0 || !S_ISREG(sb.st_mode) ||
	    (size_t)sb.st_size < min || (size_t)sb.st_size > max ||
	    sb.st_size == 0)
		return NULL;
	p = mmap(NULL, (size_t)sb.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
	if (p == MAP_FAILED)
		return NULL;
	*len = (size_t)sb.st_size;
	return p;
}
