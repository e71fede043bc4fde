/* SPDX-License-Identifier: MIT */
/*
 * input.h - prof's input layer: what opens and reads files.  file.c
 * opens operands; mdata.c expands the profile operands; monread.c reads
 * a mon.out, monobj.c and monstacks.c its shared-object records and
 * sampled stacks; gmonread.c reads -pg's gmon.out; elfread.c what libelf
 * gives of an ELF file; srcfile.c a source file, by lines.  Only
 * model.h's files call these (the views never read a file:
 * testsuite/tools/prof-layers.sh).
 */
#ifndef PROF_INPUT_H
#define PROF_INPUT_H

#include <time.h>

#include <gelf.h>
#include <libelf.h>

#include "common.h"

/* ---------------------------------------------------------------- file */

int		 file_open(const char *, struct stat *, const char **);
int		 file_sparse(const struct stat *, uint64_t);
int		 file_read(const char *, size_t, char **, size_t *,
		    const char **);

/* ---------------------------------------------------------------- mdata */

/* A list of strings (operands, file names), each malloc'd. */
struct flist {
	char	**v;
	size_t	 n, cap;
};

void		 mdata_add(struct flist *, const char *);
void		 mdata_expand(struct flist *, const char *, const char *);
char		*mdata_gmon(const char *);

/* ---------------------------------------------------------------- monread */

/* Bits of monfile.has: which metadata keys the file carried. */
#define MONREAD_HAS(key)	(1u << (key))

/* A shared object's executable mapping in the run (MON_META_OBJECT). */
struct monobj {
	uint64_t	 start, end;	/* run-time addresses */
	uint64_t	 offset;	/* file offset mapped at start */
	long		 buildid;	/* first 8 bytes, 0: not recorded */
	long		 samples;	/* in the mapping (version 2) */
	int		 named;		/* has cells or samples by pc */
	const char	*path;
};

/* Samples outside [lpc, hpc) at one place (MON_META_*_SAMPLE). */
struct monsample {
	uint64_t	 pc;		/* link-time, or offset in obj's mapping */
	long		 n;
	long		 obj;		/* index into monfile.obj, -1: executable */
};

/*
 * A sampled stack's frame: a node of the tree of a file's stacks, whose
 * parent (an index + 1 into monfile.frame, 0: none) is the frame that
 * called it; depth 1 is a root.
 */
struct monframe {
	uint64_t	 pc;		/* as the cells' addresses */
	uint32_t	 parent;
	uint32_t	 depth;
};

/* A sampled stack: its innermost frame (index + 1), its samples. */
struct monstack {
	uint32_t	 node;
	uint32_t	 depth;
	long		 samples;
};

/* The deepest stack prof reads (the runtime keeps MON_STACK_DEPTH). */
#define MONSTACKS_DEPTH	255

/* A record's mapping, for the search by address. */
struct monrange {
	uint64_t	 start, end;
	size_t		 obj;		/* index into monfile.obj */
};

/* A stretch of the file in memory, whole cells and whole bins. */
struct monpart {
	uint64_t		 off;
	size_t			 len;
	const unsigned char	*p;
};

/*
 * One mon.out, validated.  What it holds on disk is read (parts, in
 * file order); a hole of a sparse file is zeros, which count nothing,
 * so it is never read, and monread_compact() lets go of the zeros that
 * were.  Cells and bins may be unaligned (the fuzzer hands us any
 * buffer): visit them with monread_cells() and monread_bins().
 */
struct monfile {
	const char		*path;
	uint64_t		 size;		/* bytes, holes too */
	uint64_t		 lpc, hpc;
	size_t			 nfns;		/* cells in the file, metadata too */
	size_t			 nmeta;		/* of which metadata */
	size_t			 nunused;	/* of those, fnpc 0: reserved */
	size_t			 nbins;
	long			 meta[MON_META_NKEYS];	/* value by key */
	uint32_t		 has;		/* MONREAD_HAS(key) bits */
	char			*exepath;	/* the executable, NUL-ended */
	size_t			 exelen;
	struct monsample	*sample;	/* file order */
	size_t			 nsample;
	struct monobj		*obj;		/* shared objects, file order */
	struct monrange		*byaddr;	/* obj's mappings, by start */
	size_t			 nobj;
	struct monstack		*stack;		/* file order */
	size_t			 nstack;
	struct monframe		*frame;
	size_t			 nframe;
	struct monpart		*part;
	size_t			 npart;
	unsigned char		*data;		/* the parts' bytes, or NULL */
	char			*paths;		/* the objects' paths */
	uint64_t		 dev, ino;	/* the file read (monread_load) */
	int64_t			 mtime_ns;
};

/* Cells (16 bytes each) or bins (2) first to first + n - 1, at p. */
struct monrun {
	size_t			 first, n;
	const unsigned char	*p;
};

const char	*monread_parse(struct monfile *, const void *, size_t, char *,
		    size_t);
const char	*monread_load(struct monfile *, const char *, char *, size_t);
void		 monread_open(struct monfile *, const char *);
void		 monread_close(struct monfile *);
int		 monread_compact(struct monfile *);
size_t		 monread_held(const struct monfile *);
int		 monread_cells(const struct monfile *, size_t *,
		    struct monrun *);
int		 monread_bins(const struct monfile *, size_t *, struct monrun *);

static inline void
monrun_cell(const struct monrun *r, size_t i, uint64_t *pc, long *count)
{
	struct cnt c;

	memcpy(&c, r->p + i * sizeof(c), sizeof(c));
	*pc = (uint64_t)(uintptr_t)c.fnpc;
	*count = c.mcnt;
}

static inline unsigned
monrun_bin(const struct monrun *r, size_t i)
{
	WORD w;

	memcpy(&w, r->p + i * sizeof(w), sizeof(w));
	return w;
}

/* ---------------------------------------------------------------- monobj */

/* Shared-object records being read, a metadata cell at a time: zeroed. */
struct monobjread {
	int		 state;
	size_t		 objcap;	/* of monfile.obj */
	size_t		*pathoff;	/* each path's offset in monfile.paths */
	size_t		 offcap;
	size_t		 pathlen, pathcap;
	size_t		 path0;		/* where this record's path begins */
	size_t		 samplecap;	/* of monfile.sample */
	int		 isbad;
	size_t		 bad;		/* the cell that made it bad */
};

int		 monobj_cell(struct monfile *, struct monobjread *, size_t,
		    uint64_t, long);
void		 monobj_gap(struct monobjread *, size_t);
const char	*monobj_done(struct monfile *, struct monobjread *,
		    const char *, char *, size_t);
long		 monobj_at(const struct monfile *, uint64_t);

/* ---------------------------------------------------------------- monstacks */

/* Stacks being read, a metadata cell at a time: zeroed. */
struct monstacksread {
	size_t		 stackcap, framecap;
	uint32_t	 last;		/* the last stack's innermost node */
	uint32_t	 depth;		/* and its depth */
};

const char	*monstacks_cell(struct monfile *, struct monstacksread *,
		    size_t, uint64_t, long, char *, size_t);
size_t		 monstacks_frames(const struct monfile *, size_t, uint64_t *);

/* ---------------------------------------------------------------- gmonread */

/* A call-graph arc of a gmon.out: a return address in the caller. */
struct gmonarc {
	uint64_t	 from, self;	/* link-time pcs */
	uint64_t	 count;
};

/* A histogram record's range and bins. */
struct gmonhist {
	uint64_t	 lo, hi;
	uint64_t	 nbins;
};

struct gmonfile {
	const char	*path;
	struct gmonarc	*arc;		/* file order, repeats too */
	size_t		 narc;
	struct gmonhist	*hist;		/* histogram records, file order */
	size_t		 nhist;
};

int		 gmonread_within(const struct gmonfile *, uint64_t, uint64_t,
		    uint64_t);

const char	*gmonread_parse(struct gmonfile *, const void *, size_t,
		    char *, size_t);
const char	*gmonread_load(struct gmonfile *, const char *, char *,
		    size_t);
void		 gmonread_close(struct gmonfile *);

/* ---------------------------------------------------------------- elfread */

#define ELFREAD_EXEC	0
#define ELFREAD_OBJECT	1

/* A function symbol as read; symgroup.c makes entries of them. */
struct rawsym {
	uint64_t	 addr, size;
	uint64_t	 secend;	/* end of its section */
	const char	*name;
	int		 bind;
	const char	*file;		/* a local's STT_FILE, else "" */
	size_t		 group;		/* which STT_FILE, 0: none */
};

/* A PT_LOAD segment: file bytes [offset, offset + filesz) at vaddr. */
struct elfload {
	uint64_t	 offset, filesz, vaddr;
	size_t		 idx;		/* in the program headers */
};

const char	*elfread_begin(int, int, Elf **, char *, size_t);
const char	*elfread_syms(Elf *, uint64_t, struct rawsym **, size_t *,
		    size_t *, char *, size_t);
const char	*elfread_loads(Elf *, struct elfload **, size_t *);
int		 elfread_buildid(Elf *, unsigned char[8]);
int		 elfread_note_buildid(Elf *, const unsigned char **, size_t *);

/* ---------------------------------------------------------------- srcfile */

/* A source file read, its lines indexed. */
struct srcfile {
	char		*text;
	size_t		 len;
	const char	**line;		/* line[i]: line i + 1 */
	size_t		*llen;		/* without its newline (or CRLF) */
	size_t		 n;
	time_t		 mtime;
};

int		 srcfile_read(struct srcfile *, const char *, const char **);
void		 srcfile_free(struct srcfile *);

#endif /* PROF_INPUT_H */
