/* SPDX-License-Identifier: MIT */
/*
 * note.c - the GNU build-id in a block of ELF notes, for the executable
 * (exe.c) and for shared objects (objects.c).
 */
#include <elf.h>
#include <link.h>
#include <string.h>

#include "base.h"

/* The first 8 bytes of the GNU build-id in the notes at p, or 0. */
long
__mon_note_buildid(const char *p, size_t len)
{
	const ElfW(Nhdr) *n;
	size_t off = 0, step;
	long id = 0;

	while (off + sizeof(*n) <= len) {
		n = (const ElfW(Nhdr) *)(p + off);
		step = sizeof(*n) + ((n->n_namesz + 3) & ~3U) +
		    ((n->n_descsz + 3) & ~3U);
		if (n->n_type == NT_GNU_BUILD_ID && n->n_namesz == 4 &&
		    memcmp(n + 1, "GNU", 4) == 0) {
			memcpy(&id, (const char *)(n + 1) + 4,
			    n->n_descsz < sizeof(id) ? n->n_descsz : sizeof(id));
			return id;
		}
		off += step;
	}
	return 0;
}
