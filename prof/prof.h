/* SPDX-License-Identifier: MIT */
/*
 * prof.h - declarations shared by prof's modules: the mon.out reader
 * (monread.c), the ELF symbol table (symtab.c) and the report (report.c).
 */
#ifndef PROF_H
#define PROF_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <gelf.h>
#include <libelf.h>

#define PROF_VERSION	"1.0"

/* Format a problem into ebuf and return it: the modules' error result. */
static inline const char *
prof_errf(char *ebuf, size_t esz, const char *fmt, ...)
    __attribute__((__format__(__printf__, 3, 4)));

static inline const char *
prof_errf(char *ebuf, size_t esz, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(ebuf, esz, fmt, ap);
	va_end(ap);
	return ebuf;
}

/* ---------------------------------------------------------------- monread */

/* Bits of monfile.meta: which metadata keys the file carried. */
#define MONREAD_HAS(key)	(1u << (key))

/*
 * One mon.out, validated and mapped read-only.  Cells and bins point into
 * the mapping and may be unaligned (the fuzzer hands us any buffer), so
 * read them with monread_cell() and monread_bin().
 */
struct monfile {
	const char		*path;
	void			*map;		/* mmap'ed file, or NULL */
	size_t			 size;
	uint64_t		 lpc, hpc;
	size_t			 nfns;		/* cells in the file, metadata too */
	size_t			 nmeta;		/* of which metadata */
	const unsigned char	*cells;
	const unsigned char	*bins;
	size_t			 nbins;
	unsigned		 meta;		/* MONREAD_HAS(key) bits */
	long			 version, rate, sampler, saturated, outside;
	long			 bias, buildid, pid, samples, lost, threads;
};

/* A shared object's executable mapping in the run (MON_META_OBJECT). */
struct monobj {
	uint64_t	 start, end;	/* run-time addresses */
	uint64_t	 offset;	/* file offset mapped at start */
	long		 buildid;	/* first 8 bytes, 0: not recorded */
	char		 path[4096 + 8];
};

const char	*monread_parse(struct monfile *, const void *, size_t, char *,
		    size_t);
int		 monread_object(const struct monfile *, size_t *,
		    struct monobj *);
void		 monread_open(struct monfile *, const char *);
void		 monread_close(struct monfile *);

static inline void
monread_cell(const struct monfile *mf, size_t i, uint64_t *pc, long *count)
{
	const unsigned char *p = mf->cells + i * 16;

	memcpy(pc, p, 8);
	memcpy(count, p + 8, 8);
}

static inline unsigned
monread_bin(const struct monfile *mf, size_t i)
{
	uint16_t w;

	memcpy(&w, mf->bins + i * 2, 2);
	return w;
}

/* ---------------------------------------------------------------- symtab */

/* One name of an entry; bind is STB_GLOBAL, STB_WEAK or STB_LOCAL. */
struct symname {
	const char	*name;
	long		 ent;		/* the entry it names */
	int		 bind;
	int		 print;		/* shown on the entry's line */
};

/*
 * One address of the executable's text: every function symbol at that
 * address, with the range of text whose time it collects.  row is the
 * entry whose report line receives this entry's time (itself, the
 * preceding shown entry for a hidden local, the parent of a .cold part,
 * or -1); calls is the same for call counts (-1: dropped).
 */
struct symentry {
	uint64_t	 addr;
	uint64_t	 size;		/* for cells: sym < pc <= sym + size */
	uint64_t	 end;		/* time region: [addr, end) */
	size_t		 name0, nnames;	/* into symtab.names */
	long		 row, calls;
	int		 shown;		/* names a report line */
};

/*
 * A shared object whose functions joined the table, at base + their
 * link-time addresses.
 */
#define SYMTAB_OBJECT_BASE	((uint64_t)1 << 48)

struct symobj {
	char		*path;
	int		 fd;
	Elf		*elf;
	long		 buildid;	/* as recorded, 0: none */
	uint64_t	 base;
	GElf_Phdr	*load;		/* its PT_LOAD headers */
	size_t		 nload;
};

struct symtab {
	const char	*path;
	int		 fd;
	Elf		*elf;
	struct symentry	*ent;
	size_t		 nent;
	struct symname	*names;
	size_t		 nnames;
	size_t		 nsyms;		/* symbols in the table read */
	size_t		 nshown;	/* entries that name a report line */
	int		 has_buildid;
	unsigned char	 buildid[8];
	struct symobj	*obj;
	size_t		 nobj;
	uint32_t	*bucket;	/* lookup index, see symtab.c */
	size_t		 nbucket;
	unsigned	 bshift;
};

const char	*symtab_load(struct symtab *, const char *,
		    const struct monobj *, size_t, int, char *, size_t);
void		 symtab_open(struct symtab *, const char *,
		    const struct monobj *, size_t, int);
uint64_t	 symtab_object_addr(const struct symtab *,
		    const struct monobj *, uint64_t);
void		 symtab_close(struct symtab *);
long		 symtab_lookup(const struct symtab *, uint64_t);
long		 symtab_region(const struct symtab *, uint64_t);

/* ---------------------------------------------------------------- report */

struct prof_opts {
	int		 sort;		/* 't', 'c', 'a' or 'n' */
	int		 addr;		/* 0, 'o' or 'x' */
	int		 locals;	/* -g, the default; 0: -l */
	int		 zero;		/* -z */
	int		 noheader;	/* -h */
	int		 summary;	/* -s */
	int		 demangle;	/* -C */
};

/* report.secs[] and ncalls[] past the entries: what no function covers. */
#define REPORT_UNKNOWN(st)	((long)(st)->nent)
#define REPORT_UNKNOWN_NAME	"<unknown>"

struct report {
	const struct symtab	*st;
	double			*secs;		/* per entry, rows only */
	long			*ncalls;
	double			 total;		/* seconds in all bins */
	double			 inside, outside;	/* ticks */
	size_t			 nfiles, nfns, nmeta, cells_used;
	size_t			 cells_dropped, cells_unmapped;
	long			 saturated, lost, outrange;
	double			 rate;		/* of the first file */
	int			 rate_recorded;
	uint64_t		 scale;		/* classic sf, first file */
	uint64_t		 lpc, hpc;
	size_t			 nbins;
};

void		 report_init(struct report *, const struct symtab *);
const char	*report_add(struct report *, const struct monfile *, char *,
		    size_t);
void		 report_print(const struct report *, const struct prof_opts *,
		    FILE *);
void		 report_summary(const struct report *, const struct prof_opts *,
		    FILE *);
void		 report_free(struct report *);

#endif /* PROF_H */
