/* SPDX-License-Identifier: MIT */
/*
 * exe.c - the main executable as loaded: load bias, whole image, text
 * range, build-id and program name, found from the aux vector at start.
 * Works for PIE, non-PIE and static(-pie) programs.
 *
 * Found once, by the constructor or monstartup(); the accessors only
 * read, so writers may use them in signal handlers.
 */
#include <sys/auxv.h>

#include <elf.h>
#include <errno.h>
#include <link.h>
#include <string.h>
#include <unistd.h>

#include "process.h"

static struct {
	uintptr_t	 bias;
	uintptr_t	 image_lo, image_hi;	/* all PT_LOADs, run time */
	uintptr_t	 text_lo, text_hi;	/* PF_X PT_LOADs, run time */
	long		 buildid;
	char		 progname[256];
	char		 path[PATH_MAX];	/* "" if unknown */
} exe;

/* The first object dl_iterate_phdr reports is the main program. */
static int
first_bias(struct dl_phdr_info *info, size_t size, void *arg)
{
	(void)size;
	*(uintptr_t *)arg = (uintptr_t)info->dlpi_addr;
	return 1;
}

static void
find_progname(void)
{
	const char *s = program_invocation_name;
	size_t len;

	if (s != NULL && strrchr(s, '/') != NULL)
		s = strrchr(s, '/') + 1;
	if (s == NULL || *s == '\0') {
		if ((ssize_t)(len = (size_t)readlink("/proc/self/exe",
		    exe.progname, sizeof(exe.progname) - 1)) < 0)
			len = 0;
		exe.progname[len] = '\0';
		if ((s = strrchr(exe.progname, '/')) != NULL)
			memmove(exe.progname, s + 1, strlen(s + 1) + 1);
		return;
	}
	len = strlen(s);
	if (len >= sizeof(exe.progname))
		len = sizeof(exe.progname) - 1;
	memcpy(exe.progname, s, len);
	exe.progname[len] = '\0';
}

/*
 * The load bias comes from PT_PHDR, or from dl_iterate_phdr when there
 * is none (static-pie); the text range from the PF_X PT_LOADs.  Does
 * nothing once found.
 */
void
__mon_exe_find(void)
{
	const ElfW(Phdr) *ph;
	uintptr_t bias = 0, lo = UINTPTR_MAX, hi = 0, tlo = UINTPTR_MAX, thi = 0;
	unsigned long i, n;
	size_t len;
	int saved = errno;

	if (exe.text_hi != 0)
		return;
	ph = (const ElfW(Phdr) *)getauxval(AT_PHDR);
	n = getauxval(AT_PHNUM);
	if (ph == NULL)
		return;
	for (i = 0; i < n; i++)
		if (ph[i].p_type == PT_PHDR)
			break;
	if (i < n)
		bias = (uintptr_t)ph - ph[i].p_vaddr;
	else
		dl_iterate_phdr(first_bias, &bias);
	for (i = 0; i < n; i++) {
		if (ph[i].p_type == PT_LOAD) {
			if (ph[i].p_vaddr < lo)
				lo = ph[i].p_vaddr;
			if (ph[i].p_vaddr + ph[i].p_memsz > hi)
				hi = ph[i].p_vaddr + ph[i].p_memsz;
			if ((ph[i].p_flags & PF_X) != 0) {
				if (ph[i].p_vaddr < tlo)
					tlo = ph[i].p_vaddr;
				if (ph[i].p_vaddr + ph[i].p_memsz > thi)
					thi = ph[i].p_vaddr + ph[i].p_memsz;
			}
		} else if (ph[i].p_type == PT_NOTE && exe.buildid == 0)
			exe.buildid = __mon_note_buildid((const char *)(bias +
			    ph[i].p_vaddr), ph[i].p_memsz);
	}
	if (thi == 0)
		return;
	exe.bias = bias;
	exe.image_lo = lo + bias;
	exe.image_hi = hi + bias;
	exe.text_lo = tlo + bias;
	exe.text_hi = thi + bias;
	find_progname();
	if ((ssize_t)(len = (size_t)readlink("/proc/self/exe", exe.path,
	    sizeof(exe.path) - 1)) < 0)
		len = 0;
	exe.path[len] = '\0';
	errno = saved;
}

/* The text range [*lo, *hi) at run time; 0, 0 if not found. */
void
__mon_exe_text(uintptr_t *lo, uintptr_t *hi)
{
	*lo = exe.text_lo;
	*hi = exe.text_hi;
}

/*
 * The runtime's own code: the section the Makefile puts it in, whose
 * bounds the linker defines where it is linked (weak: 0, 0 if not).
 */
extern const char __start_monprof_text[]
    __attribute__((__weak__, __visibility__("hidden")));
extern const char __stop_monprof_text[]
    __attribute__((__weak__, __visibility__("hidden")));

void
__mon_exe_runtime(uintptr_t *lo, uintptr_t *hi)
{
	*lo = (uintptr_t)__start_monprof_text;
	*hi = (uintptr_t)__stop_monprof_text;
	if (*lo >= *hi)
		*lo = *hi = 0;
}

int
__mon_exe_in_text(uintptr_t pc)
{
	return pc >= exe.text_lo && pc < exe.text_hi;
}

/* Whether [lo, hi) overlaps the executable's image. */
int
__mon_exe_overlaps(uintptr_t lo, uintptr_t hi)
{
	return lo < exe.image_hi && hi > exe.image_lo;
}

/* pcs inside the main executable become link-time addresses. */
uintptr_t
__mon_exe_linktime(uintptr_t pc)
{
	if (pc >= exe.image_lo && pc < exe.image_hi)
		return pc - exe.bias;
	return pc;
}

uintptr_t
__mon_exe_bias(void)
{
	return exe.bias;
}

long
__mon_exe_buildid(void)
{
	return exe.buildid;
}

const char *
__mon_exe_progname(void)
{
	return exe.progname;
}

/* Its path, as the kernel knows it ("" if unknown), for prof to find. */
const char *
__mon_exe_path(void)
{
	return exe.path;
}
