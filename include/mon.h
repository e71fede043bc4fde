/* SPDX-License-Identifier: MIT */
/*
 * mon.h - monprof: the System V execution profiler interface.
 *
 * One definition, shared by the runtime, the GCC plugin (compiled as
 * C++), prof and the programs that call it: the public API (monitor(3))
 * and the mon.out layout with its metadata cells.  The hook ABI between
 * plugin and runtime, which no program calls, is mon_abi.h's (not
 * installed).
 */
#ifndef _MON_H
#define _MON_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/*
 * mon.out, classic layout, native byte order (LP64: 24 + 16 * nfns bytes,
 * then the histogram):
 *
 *	struct hdr	lpc, hpc: link-time addresses (PIE load bias removed)
 *	struct cnt	nfns of them; metadata cells first (fnpc < MON_META_LIMIT)
 *	WORD		the histogram: the rest of the file, spanning [lpc, hpc)
 *			uniformly
 */
/*
 * mon.out, compact (the default; PROFFLAGS -classic writes the classic
 * file): the classic file's bytes that are not zeros, so that its length
 * follows what ran, not the program's text.  Native byte order:
 *
 *	uint64	MON_COMPACT_MAGIC	(bytes "MONZ\0\0\1\377": no lpc is
 *					a kernel-half address)
 *	uint64	size			the classic file's length
 *	runs	each: uint64 offset, uint64 length (> 0), then that many of
 *		the classic file's bytes; by offset, none overlapping,
 *		none past size, to the end of the file
 *
 * Every byte of the classic file that no run holds is a zero.
 */
#define MON_COMPACT_MAGIC	0xff0100005a4e4f4dUL
#define MON_COMPACT_HDR		16	/* magic and size */
#define MON_COMPACT_RUN		16	/* a run's offset and length */

struct hdr {
	char	*lpc;		/* lowest profiled pc */
	char	*hpc;		/* first pc past the profiled range */
	size_t	 nfns;		/* number of struct cnt cells that follow */
};

struct cnt {
	char	*fnpc;		/* a pc strictly inside the function */
	long	 mcnt;		/* calls */
};

typedef unsigned short WORD;

#define MON_OUT		"mon.out"
/*
 * PROFFLAGS -merge: merged.<prog> in the PROFDIR, the sum of every
 * process of prog; merged.<prog>.build-<16 hex digits of the build-id>
 * for each other build.
 */
#define MON_MERGED_PREFIX	"merged."
#define MON_MERGED_BUILD	".build-"
/*
 * With PROFDIR, a process's files are <pid>.<prog> (and .gmon): prog is
 * the program's base name cut to its first MON_PROGNAME_MAX bytes (back
 * to the start of a UTF-8 character), so every name fits NAME_MAX.
 */
#define MON_PROGNAME_MAX	200
#define MPROGS0		(150 * sizeof(WORD))	/* 300: the cnt cells of cc -p */
#define MSCALE0		4
#define BARSIZE		8	/* text bytes per histogram WORD, default */
#define MON_NFUNC	600	/* cells of the default monitor() call */

/*
 * Several ranges at once (Tru64): monitor(MON_RANGES, 0, (WORD *)args,
 * nargs, 0).  Each range has bufsiz / sizeof(unsigned int) counters over
 * [lowpc, highpc) uniformly; monitor() sorts args by decreasing lowpc.
 * Ranges must not overlap and must be mapped, or it returns -1 (EINVAL).
 */
struct monitor_args {
	char		*lowpc;
	char		*highpc;
	unsigned int	*buffer;
	size_t		 bufsiz;	/* bytes */
};

#define MON_RANGES	((int (*)(void))-1)
#define MON_RANGES_MAX	1024	/* monitor_args in one call */

/*
 * monitor(lowpc, highpc, buffer, bufsize, nfunc): bufsize counts WORDs;
 * buffer = struct hdr | struct cnt[nfunc] | WORD histogram.
 * monitor(0, 0, 0, 0, 0) stops profiling and writes mon.out.
 * Returns 0, or -1 with errno EINVAL for arguments it cannot use.
 */
int	monitor(int (*lowpc)(void), int (*highpc)(void), WORD *buffer,
	    size_t bufsize, size_t nfunc);
int	monstartup(char *lowpc, char *highpc);
int	moncontrol(int mode);
void	monitor_signal(int sig);
/* Same prototype as glibc's <unistd.h>, so both headers can be included. */
int	profil(unsigned short *samples, size_t size, size_t offset,
	    unsigned int scale);

/*
 * Metadata cells: a cell whose fnpc is below MON_META_LIMIT carries
 * (key = fnpc, value = mcnt).  No function lives in the first page, so
 * classic prof drops these cells; ours reads them.  The writer puts them
 * before the function cells.
 */
#define MON_META_LIMIT		4096
#define MON_META_MAGIC		1	/* value MON_META_MAGIC_VALUE */
#define MON_META_VERSION	2	/* value MON_FORMAT_VERSION */
#define MON_META_RATE		3	/* samples per CPU-second, per thread */
#define MON_META_SAMPLER	4	/* MON_SAMPLER_* */
#define MON_META_SATURATED	5	/* samples dropped: their bin was full */
#define MON_META_OUTSIDE	6	/* samples outside [lpc, hpc) */
#define MON_META_BIAS		7	/* load bias removed from addresses */
#define MON_META_BUILDID	8	/* first 8 bytes of the GNU build-id */
#define MON_META_PID		9	/* process that wrote the file */
#define MON_META_SAMPLES	10	/* all samples taken */
#define MON_META_LOST		11	/* samples the kernel lost */
#define MON_META_THREADS	12	/* threads that ran instrumented code */
/*
 * A shared object with counted functions (whose cells keep run-time
 * addresses) or samples: one executable mapping of it, as consecutive
 * cells.
 */
#define MON_META_OBJECT		13	/* the mapping's start */
#define MON_META_OBJECT_END	14	/* its end */
#define MON_META_OBJECT_OFFSET	15	/* the file offset mapped at start */
#define MON_META_OBJECT_PATH	16	/* 8 bytes of the path per cell,
					   to its NUL */
#define MON_META_OBJECT_BUILDID	17	/* optional, before the path: the
					   first 8 bytes of its build-id */
/*
 * Samples outside [lpc, hpc) (version 2), so every sample is accounted
 * for: the executable's own, each object's, and those in no object.  A
 * SAMPLE cell's value is (where << 16 | n): n samples (1 to 65535; a
 * bucket with more has several cells) in the STRIDE bytes at where, a
 * link-time pc for EXE_SAMPLE, an offset into the mapping for
 * OBJECT_SAMPLE.  OBJECT_SAMPLES and OBJECT_SAMPLE follow a record's
 * path; the objects PROFFLAGS does not select have only the total.
 */
#define MON_META_STRIDE		18	/* bytes per SAMPLE, 0: totals only */
#define MON_META_UNKNOWN	19	/* samples in no object's mapping */
#define MON_META_EXE_SAMPLES	20	/* the executable's, outside [lpc, hpc) */
#define MON_META_EXE_SAMPLE	21	/* where << 16 | n */
#define MON_META_OBJECT_SAMPLES	22	/* in a record: its mapping's samples */
#define MON_META_OBJECT_SAMPLE	23	/* in a record: where << 16 | n */
#define MON_META_EXE_PATH	24	/* the executable's path, 8 bytes a
					   cell to its NUL, as OBJECT_PATH */
/*
 * The most times a second the program's threads blocked while the perf
 * sampler stayed in task scope, where the kernel works at each switch;
 * written only when above 10,000 (a few percent of a CPU).
 */
#define MON_META_SWITCHES	25
/*
 * Beside SWITCHES: why the sampler stayed in task scope, one of the
 * MON_STAYED_* (or MON_STAYED_ERRNO + the errno the kernel's per-CPU
 * open gave).  A file without it says nothing of why.
 */
#define MON_META_STAYED		26
#define MON_STAYED_ASKED	1	/* PROFFLAGS -nocpuwide */
#define MON_STAYED_NOFILE	2	/* RLIMIT_NOFILE below 16 per CPU */
#define MON_STAYED_PRIVILEGE	3	/* EACCES, EPERM: CAP_PERFMON */
#define MON_STAYED_CLOSED	4	/* the program closed its descriptors */
#define MON_STAYED_ERRNO	1000	/* + another errno */
/*
 * Sampled call stacks: a STACK cell, then its FRAME cells, root first:
 * the return addresses (each the instruction after a call), then the
 * sampled pc itself.  A STACK's value is (samples << 8 | keep): its
 * first keep frames are the previous STACK's first keep, not repeated,
 * so that records sorted by their frames share their common prefixes.
 * Addresses as the cells': the executable's link-time, an object's
 * run-time (its record says where).  STACKS_LOST, written whenever the
 * samples carried stacks (PROFFLAGS -nostacks: not), counts those whose
 * stack the runtime had no room for.
 */
#define MON_META_STACKS_LOST	27
#define MON_META_STACK		28
#define MON_META_FRAME		29
/*
 * Whether the perf sampler counts kernel-mode time (PROFFLAGS -kernel),
 * charged to the user code that entered the kernel: 1, or 0 where the
 * kernel refused it (perf_event_paranoid above 1 without CAP_PERFMON).
 * Written only where -kernel was asked.
 */
#define MON_META_KERNEL		30
/*
 * How many processes' profiles a merged profile (PROFFLAGS -merge) is
 * the sum of; a file without it holds one.
 */
#define MON_META_PROCESSES	31
#define MON_META_NKEYS		32	/* keys are below this */
#define MON_STACK_DEPTH		127	/* frames kept of a stack, at most */
#define MON_SAMPLE_MAX		65535	/* n of one SAMPLE cell */

#define MON_META_MAGIC_VALUE	0x31666f72706e6f6dL	/* "monprof1", little-endian */
#define MON_FORMAT_VERSION	2	/* 1: no samples outside [lpc, hpc) */

#define MON_SAMPLER_NONE	0
#define MON_SAMPLER_PERF	1	/* perf_event task-clock */
#define MON_SAMPLER_ITIMER	2	/* CPU-time timer, SIGPROF */
#define MON_SAMPLER_PERF_CPU	3	/* perf_event cpu-clock per CPU, filtered */

#ifdef __cplusplus
}
#endif

#endif /* _MON_H */
