/* SPDX-License-Identifier: MIT */
/*
 * writer.h - the profile files: one file whole or not at all
 * (outfile.c), the shared objects' records (objects.c), mon.out
 * (monout.c) and gmon.out (gmonout.c).  All async-signal-safe: the
 * profile is written from signal handlers too.
 */
#ifndef MON_WRITER_H
#define MON_WRITER_H

#include <sys/types.h>

#include "sampler.h"

/*
 * outfile.c: what fill puts goes through b, which never holds bytes of
 * two file blocks (MON_WBLOCK, counted from offset 0): a block that is
 * all zeros is not written but left as a hole, so that a profile's disk
 * use follows what ran (the histogram of code that never ran, unused
 * cells), not the program's text.  A compact file (mon.h; fill sets
 * compact before it puts anything) holds only the runs of words that
 * are not zeros, through out, so that its length follows what ran too;
 * its first MON_COMPACT_KEEP bytes are always held, for a header
 * patched at the end.
 */
#define MON_WBLOCK	4096
#define MON_COMPACT_KEEP	24	/* struct hdr */

struct __mon_wbuf {
	int	 fd;
	int	 err;
	int	 compact;	/* the compact form: runs of words not zeros */
	int	 begun;		/* compact: its magic put */
	size_t	 n;		/* bytes in b */
	off_t	 pos;		/* the (classic) file offset of b[0] */
	off_t	 skip;		/* zeros before pos not yet stepped over */
	size_t	 nout;		/* compact: bytes in out */
	char	 b[MON_WBLOCK] __attribute__((__aligned__(sizeof(long))));
	char	 out[2 * MON_WBLOCK];
};

void	 __mon_outfile_put(struct __mon_wbuf *, const void *, size_t)
	    MON_HIDDEN;
void	 __mon_outfile_flush(struct __mon_wbuf *) MON_HIDDEN;
int	 __mon_outfile_patch(struct __mon_wbuf *, off_t, const void *,
	    size_t) MON_HIDDEN;
int	 __mon_outfile_write(const char *,
	    int (*)(struct __mon_wbuf *, void *), void *) MON_HIDDEN;
int	 __mon_outfile_replace(const char *,
	    int (*)(struct __mon_wbuf *, void *), void *) MON_HIDDEN;
int	 __mon_outfile_fd(int, int (*)(struct __mon_wbuf *, void *), void *)
	    MON_HIDDEN;
void	 __mon_outfile_reset(void) MON_HIDDEN;

/* objects.c */
struct __mon_objects_out {
	void		(*put)(long, long, void *);
	void		*arg;
	int		 detail;	/* samples by bucket, not only sums */
	long		 exe;		/* the executable's samples put */
	long		 objects;	/* the records' samples */
	int		 thread;	/* -threads: one thread's only */
};

void	 __mon_objects_records(struct __mon_objects_out *) MON_HIDDEN;
void	 __mon_objects_path(void (*)(long, long, void *), void *, long,
	    const char *) MON_HIDDEN;
void	 __mon_objects_closing(void) MON_HIDDEN;
void	 __mon_objects_closed(void) MON_HIDDEN;

/* monout.c */
int	 __mon_monout_write(const char *) MON_HIDDEN;
int	 __mon_monout_thread(const char *, long, long, int) MON_HIDDEN;
int	 __mon_monout_image(int) MON_HIDDEN;

/*
 * gmon.out's records, after the 20-byte header ("gmon", version 1): a
 * tag byte, then the record, native byte order (gmonout.c writes them,
 * gmonmerge.c reads them).
 */
#define GMON_HDR		20
#define GMON_TAG_TIME_HIST	0	/* then its hist_size WORDs */
#define GMON_TAG_CG_ARC		1

struct gmon_hist {		/* struct gmon_hist_hdr, LP64: 40 bytes */
	uintptr_t	 low_pc;
	uintptr_t	 high_pc;
	uint32_t	 hist_size;	/* bins, not bytes */
	uint32_t	 prof_rate;
	char		 dimen[15];
	char		 dimen_abbrev;
} __attribute__((__packed__));

struct gmon_arc {		/* struct gmon_cg_arc_record: 20 bytes */
	uintptr_t	 from_pc;
	uintptr_t	 self_pc;
	uint32_t	 count;
} __attribute__((__packed__));

/* gmonout.c */
int	 __mon_gmonout_write(const char *) MON_HIDDEN;
int	 __mon_gmonout_image(int) MON_HIDDEN;
void	 __mon_gmonout_header(struct __mon_wbuf *) MON_HIDDEN;
void	 __mon_gmonout_hist(struct __mon_wbuf *, const WORD *, size_t,
	    uintptr_t, uintptr_t, long, size_t, size_t, int) MON_HIDDEN;
void	 __mon_gmonout_arc(struct __mon_wbuf *, uintptr_t, uintptr_t, long)
	    MON_HIDDEN;

/* gmonmerge.c */
int	 __mon_gmonmerge_fd(const char *, int, const char **) MON_HIDDEN;

/* merge.c */
int	 __mon_merge_write(void) MON_HIDDEN;
int	 __mon_merge_file(const char *, int, int) MON_HIDDEN;

#endif /* MON_WRITER_H */
