/* SPDX-License-Identifier: MIT */
/*
 * ehframe.c - where a pc's caller is, from the `.eh_frame` that every
 * x86-64 object carries (GCC's -fasynchronous-unwind-tables is on by
 * default): the C library, libstdc++, every Debian library and module,
 * and the program, whoever built them and however.  sframe.c asks here
 * for each object that has no SFrame section.
 *
 * An object's `.eh_frame_hdr` (PT_GNU_EH_FRAME) and `.eh_frame` are
 * copied when sframe.c's scan first sees it, into memory of the
 * runtime's own that is never unmapped, as SFrame sections are: a
 * lookup never faults after a dlclose.  A lookup finds the FDE by the
 * header's sorted table and runs its call frame instructions (and its
 * CIE's) up to the pc, for the three things unwind.c uses: the CFA as
 * SP or FP plus a constant, the return address at CFA - 8, and where
 * the caller's FP was saved.  Any other rule (a CFA expression: PLT
 * entries, signal trampolines; FP kept in another register) is no row,
 * and unwind.c's other rules apply there.
 *
 * Written here rather than taken from libdw, libunwind or libgcc: the
 * lookup runs in the SIGPROF handler (itimer.c) and in the perf helper
 * of any program, so it may not malloc, lock or fault, and the runtime
 * links nothing but the C library.  The copies and the lookup read
 * only what this file checked to lie within them.
 */
#include <sys/mman.h>

#include <string.h>

#include "sampler.h"

/* DWARF's numbers for x86-64's registers (the psABI's table). */
#define EH_FP		6
#define EH_SP		7
#define EH_RA		16

/* A header's table of (pc, FDE), both relative to it, 4 bytes each. */
#define EH_DATAREL_S4	0x3b
#define EH_OMIT		0xff
/* The longest .eh_frame copied. */
#define EH_MAX		((size_t)64 << 20)
/* How deep DW_CFA_remember_state may nest. */
#define EH_STATES	8

struct __mon_ehframe {
	uintptr_t	 hdr_at;	/* .eh_frame_hdr's address */
	uintptr_t	 eh_at;		/* .eh_frame's address */
	const unsigned char *table;	/* the copy of the header's table */
	size_t		 table_off;	/* where it is in the header */
	uint32_t	 count;
	size_t		 ehlen;
	const unsigned char *eh;	/* the copy of .eh_frame */
};

/* A cursor in a copy: the next byte, its end, and where the copy is. */
struct cur {
	const unsigned char *p, *end;
	const unsigned char *base;	/* the copy's first byte */
	uintptr_t	 at;		/* its address in the object */
	int		 bad;
};

/* One row's rules for the registers unwind.c needs. */
struct state {
	int		 cfa_reg;	/* EH_SP, EH_FP, or -1: not usable */
	long		 cfa_off;
	int		 fp_how;	/* 0 unchanged, 1 at CFA + fp_off, -1 not usable */
	long		 fp_off;
	int		 ra_how;
	long		 ra_off;
};

struct cie {
	unsigned long	 code_align;
	long		 data_align;
	unsigned long	 ra;
	unsigned	 fde_enc;
	int		 z;		/* FDEs have augmentation data */
	const unsigned char *insns, *end;
};

static unsigned
byte(struct cur *c)
{
	if (c->p >= c->end) {
		c->bad = 1;
		return 0;
	}
	return *c->p++;
}

static uint64_t
fixed(struct cur *c, size_t n)
{
	uint64_t v = 0;
	size_t i;

	if ((size_t)(c->end - c->p) < n) {
		c->bad = 1;
		c->p = c->end;
		return 0;
	}
	for (i = 0; i < n; i++)
		v |= (uint64_t)c->p[i] << (8 * i);
	c->p += n;
	return v;
}

/* A LEB128 number, sign-extended where sign is set. */
static uint64_t
leb(struct cur *c, int sign)
{
	uint64_t v = 0;
	unsigned b, shift = 0;

	do {
		b = byte(c);
		if (shift < 64)
			v |= (uint64_t)(b & 0x7f) << shift;
		shift += 7;
	} while ((b & 0x80) && !c->bad);
	if (sign && shift < 64 && (b & 0x40))
		v |= ~(uint64_t)0 << shift;
	return v;
}

#define uleb(c)	leb((c), 0)
#define sleb(c)	((int64_t)leb((c), 1))

/*
 * A pointer encoded by enc (DW_EH_PE_*): its format in the low four
 * bits, and relative to nothing or to its own field (pcrel), or to the
 * header (datarel, only there).  Others make c bad.
 */
static uintptr_t
encoded(struct cur *c, unsigned enc, uintptr_t datarel)
{
	uintptr_t field = c->at + (uintptr_t)(c->p - c->base), v;

	switch (enc & 0x0f) {
	case 0x0: v = (uintptr_t)fixed(c, 8); break;
	case 0x1: v = (uintptr_t)uleb(c); break;
	case 0x2: v = (uintptr_t)fixed(c, 2); break;
	case 0x3: v = (uintptr_t)fixed(c, 4); break;
	case 0x4: v = (uintptr_t)fixed(c, 8); break;
	case 0x9: v = (uintptr_t)sleb(c); break;
	case 0xa: v = (uintptr_t)(intptr_t)(int16_t)fixed(c, 2); break;
	case 0xb: v = (uintptr_t)(intptr_t)(int32_t)fixed(c, 4); break;
	case 0xc: v = (uintptr_t)fixed(c, 8); break;
	default:
		c->bad = 1;
		return 0;
	}
	switch (enc & 0x70) {
	case 0x00: return v;
	case 0x10: return v + field;
	case 0x30:
		if (datarel != 0)
			return v + datarel;
		/* FALLTHROUGH */
	default:
		c->bad = 1;
		return 0;
	}
}

/*
 * The length of the .eh_frame at a: its entries up to the zero
 * terminator, within end.  0 if none, or where rd (below) fails.  Read
 * in place (rd NULL), or by rd a page at a time.
 */
static size_t
measure(uintptr_t a, uintptr_t end, __mon_ehframe_read rd, void *ctx)
{
	unsigned char page[4096];
	uintptr_t p = a, lo = 0, hi = 0;	/* page holds [lo, hi) */
	uint32_t len;
	size_t n;

	while (p < end && end - p >= 4 && p - a < EH_MAX) {
		if (rd == NULL)
			memcpy(&len, (const void *)p, sizeof(len));
		else {
			if (p < lo || p >= hi || hi - p < 4) {
				n = end - p < sizeof(page) ? end - p :
				    sizeof(page);
				if (rd(ctx, page, p, n) != 0)
					return 0;
				lo = p;
				hi = p + n;
			}
			memcpy(&len, page + (p - lo), sizeof(len));
		}
		if (len == 0)
			return (size_t)(p + 4 - a);
		/* 64-bit DWARF: not written for x86-64 objects. */
		if (len == 0xffffffffu || len > end - p - 4)
			break;
		p += 4 + (uintptr_t)len;
	}
	return (size_t)(p - a);
}

/*
 * Copy the header at hdr (len bytes) and the .eh_frame it names, which
 * lies in the segment [start, end) with it: the object's tables, or
 * NULL where they are missing, not sorted, elsewhere, or of a shape
 * this file does not read.  Read in place (rd NULL) while the loader
 * holds the object (sframe.c's scan, in dl_iterate_phdr), or by rd,
 * which copies what may be unmapped meanwhile (the perf helper's,
 * without the loader's lock): the header, then .eh_frame's entries a
 * page at a time to measure it, then .eh_frame, never its segment
 * whole (a 108 MB one: libLLVM's).
 */
struct __mon_ehframe *
__mon_ehframe_copy(uintptr_t hdr, size_t len, uintptr_t start,
    uintptr_t end, __mon_ehframe_read rd, void *ctx)
{
	struct __mon_ehframe *e = NULL;
	struct cur c;
	const unsigned char *h = (const unsigned char *)hdr;
	unsigned char *copy = NULL, *m;
	uintptr_t eh;
	uint64_t count;
	size_t ehlen, maplen;

	if (len < 12 || len > EH_MAX)
		return NULL;
	if (rd != NULL) {
		copy = mmap(NULL, len, PROT_READ | PROT_WRITE,
		    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (copy == MAP_FAILED)
			return NULL;
		if (rd(ctx, copy, hdr, len) != 0)
			goto out;
		h = copy;
	}
	if (h[0] != 1 || h[3] != EH_DATAREL_S4 || h[2] == EH_OMIT)
		goto out;
	c.base = h;
	c.p = h + 4;
	c.end = h + len;
	c.at = hdr;
	c.bad = 0;
	eh = encoded(&c, h[1], hdr);
	count = (uint64_t)encoded(&c, h[2], hdr);
	if (c.bad || count == 0 || count > (size_t)(c.end - c.p) / 8 ||
	    eh < start || eh >= end)
		goto out;
	ehlen = measure(eh, end, rd, ctx);
	if (ehlen < 8)
		goto out;
	maplen = sizeof(*e) + 8 * (size_t)count + ehlen;
	/*
	 * Shared: written here only, then read, and a fork copies none of
	 * its page table entries (a private mapping's, 57 pages for libc's
	 * .eh_frame, cost each fork 17 us), nor write-protects the
	 * parent's; a child that unwinds maps the pages it reads.
	 */
	m = mmap(NULL, maplen, PROT_READ | PROT_WRITE,
	    MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (m == MAP_FAILED)
		goto out;
	if (rd != NULL && rd(ctx, m + sizeof(*e) + 8 * (size_t)count, eh,
	    ehlen) != 0) {
		munmap(m, maplen);
		goto out;
	}
	e = (struct __mon_ehframe *)(void *)m;
	e->hdr_at = hdr;
	e->eh_at = eh;
	e->count = (uint32_t)count;
	e->table_off = (size_t)(c.p - h);
	e->ehlen = ehlen;
	memcpy(m + sizeof(*e), c.p, 8 * (size_t)count);
	e->table = m + sizeof(*e);
	if (rd == NULL)
		memcpy(m + sizeof(*e) + 8 * (size_t)count, (const void *)eh,
		    ehlen);
	e->eh = m + sizeof(*e) + 8 * (size_t)count;
out:
	if (copy != NULL)
		munmap(copy, len);
	return e;
}

/*
 * Whether e is still a copy of the live object's tables: its header's
 * table is the same.  In sframe.c's scan only, while the loader holds
 * the object.
 */
int
__mon_ehframe_same(const struct __mon_ehframe *e)
{
	return memcmp(e->table, (const void *)(e->hdr_at + e->table_off),
	    8 * (size_t)e->count) == 0;
}

/* The table's entry i: its first pc. */
static uintptr_t
entry_pc(const struct __mon_ehframe *e, uint32_t i)
{
	int32_t v;

	memcpy(&v, e->table + 8 * (size_t)i, sizeof(v));
	return e->hdr_at + (uintptr_t)(intptr_t)v;
}

static uintptr_t
entry_fde(const struct __mon_ehframe *e, uint32_t i)
{
	int32_t v;

	memcpy(&v, e->table + 8 * (size_t)i + 4, sizeof(v));
	return e->hdr_at + (uintptr_t)(intptr_t)v;
}

/*
 * A cursor on the entry (CIE or FDE) at address a of .eh_frame, past
 * its length, up to its end; bad where it does not lie in the copy.
 */
static struct cur
entry(const struct __mon_ehframe *e, uintptr_t a)
{
	struct cur c;
	uint32_t len;

	c.base = e->eh;
	c.at = e->eh_at;
	c.bad = 1;
	c.p = c.end = e->eh;
	if (a < e->eh_at || a - e->eh_at > e->ehlen - 4)
		return c;
	c.p = e->eh + (a - e->eh_at);
	memcpy(&len, c.p, sizeof(len));
	if (len == 0 || len == 0xffffffffu ||
	    len > e->ehlen - (a - e->eh_at) - 4)
		return c;
	c.p += 4;
	c.end = c.p + len;
	c.bad = 0;
	return c;
}

/* Read the CIE at a: 0, or -1 where this file cannot use it. */
static int
read_cie(const struct __mon_ehframe *e, uintptr_t a, struct cie *ci)
{
	struct cur c = entry(e, a);
	const char *aug;
	const unsigned char *augend = NULL;
	unsigned version;
	size_t i;

	if (c.bad || fixed(&c, 4) != 0)
		return -1;
	version = byte(&c);
	if ((version != 1 && version != 3) || c.p >= c.end)
		return -1;
	aug = (const char *)c.p;
	while (byte(&c) != 0 && !c.bad)
		continue;
	ci->code_align = (unsigned long)uleb(&c);
	ci->data_align = (long)sleb(&c);
	ci->ra = version == 1 ? byte(&c) : (unsigned long)uleb(&c);
	ci->fde_enc = 0;
	ci->z = aug[0] == 'z';
	if (c.bad || (aug[0] != 'z' && aug[0] != '\0'))
		return -1;
	if (ci->z) {
		uint64_t n = uleb(&c);

		if (c.bad || n > (uint64_t)(c.end - c.p))
			return -1;
		augend = c.p + n;
		for (i = 1; aug[i] != '\0' && !c.bad; i++)
			switch (aug[i]) {
			case 'R':
				ci->fde_enc = byte(&c);
				break;
			case 'L':
				(void)byte(&c);
				break;
			case 'P':
				(void)encoded(&c, byte(&c) & 0x7f, 0);
				break;
			case 'S':
				break;
			default:
				/* Unknown: the rest of its data is skipped. */
				c.p = augend;
				aug = "z";
				i = 0;
				break;
			}
		if (c.bad)
			return -1;
		c.p = augend;
	}
	ci->insns = c.p;
	ci->end = c.end;
	return ci->code_align == 0 ? -1 : 0;
}

/* Set register reg's rule in s: how 1 (at CFA + off) or -1 (unusable). */
static void
rule(struct state *s, uint64_t reg, int how, long off)
{
	if (reg == EH_FP) {
		s->fp_how = how;
		s->fp_off = off;
	} else if (reg == EH_RA) {
		s->ra_how = how;
		s->ra_off = off;
	}
}

/* Register reg back to its rule in init, the CIE's (none in the CIE). */
static void
restore(struct state *s, uint64_t reg, const struct state *init)
{
	if (init == NULL)
		rule(s, reg, -1, 0);
	else if (reg == EH_FP)
		rule(s, reg, init->fp_how, init->fp_off);
	else
		rule(s, reg, init->ra_how, init->ra_off);
}

/*
 * Run the instructions [p, end) from location loc, stopping before the
 * first advance past pc: 0, or -1 on one this file does not know.
 * init is the CIE's state, which DW_CFA_restore goes back to.
 */
static int
run(struct cur *c, const struct cie *ci, uintptr_t loc, uintptr_t pc,
    struct state *s, const struct state *init)
{
	struct state saved[EH_STATES];
	int depth = 0;
	uint64_t reg, delta;
	unsigned op;

	while (c->p < c->end) {
		op = byte(c);
		delta = 0;
		switch (op >> 6) {
		case 1:
			delta = op & 0x3f;
			goto advance;
		case 2:
			rule(s, op & 0x3f, 1, (long)uleb(c) * ci->data_align);
			continue;
		case 3:
			restore(s, op & 0x3f, init);
			continue;
		}
		switch (op) {
		case 0x00:		/* nop */
			break;
		case 0x01:		/* set_loc */
			delta = encoded(c, ci->fde_enc, 0);
			if (c->bad)
				return -1;
			if (delta > pc)
				return 0;
			loc = delta;
			break;
		case 0x02:
			delta = fixed(c, 1);
			goto advance;
		case 0x03:
			delta = fixed(c, 2);
			goto advance;
		case 0x04:
			delta = fixed(c, 4);
			goto advance;
		case 0x05:		/* offset_extended */
			reg = uleb(c);
			rule(s, reg, 1, (long)uleb(c) * ci->data_align);
			break;
		case 0x06:		/* restore_extended */
			restore(s, uleb(c), init);
			break;
		case 0x07:		/* undefined */
		case 0x08:		/* same_value */
			reg = uleb(c);
			rule(s, reg, op == 0x08 && reg == EH_FP ? 0 : -1, 0);
			break;
		case 0x09:		/* register */
			reg = uleb(c);
			(void)uleb(c);
			rule(s, reg, -1, 0);
			break;
		case 0x0a:		/* remember_state */
			if (depth == EH_STATES)
				return -1;
			saved[depth++] = *s;
			break;
		case 0x0b:		/* restore_state */
			if (depth == 0)
				return -1;
			*s = saved[--depth];
			break;
		case 0x0c:		/* def_cfa */
			s->cfa_reg = (int)uleb(c);
			s->cfa_off = (long)uleb(c);
			break;
		case 0x0d:		/* def_cfa_register */
			s->cfa_reg = (int)uleb(c);
			break;
		case 0x0e:		/* def_cfa_offset */
			s->cfa_off = (long)uleb(c);
			break;
		case 0x0f:		/* def_cfa_expression */
			s->cfa_reg = -1;
			delta = uleb(c);
			goto skip;
		case 0x10:		/* expression */
		case 0x16:		/* val_expression */
			reg = uleb(c);
			rule(s, reg, -1, 0);
			delta = uleb(c);
			goto skip;
		case 0x11:		/* offset_extended_sf */
			reg = uleb(c);
			rule(s, reg, 1, (long)sleb(c) * ci->data_align);
			break;
		case 0x12:		/* def_cfa_sf */
			s->cfa_reg = (int)uleb(c);
			s->cfa_off = (long)sleb(c) * ci->data_align;
			break;
		case 0x13:		/* def_cfa_offset_sf */
			s->cfa_off = (long)sleb(c) * ci->data_align;
			break;
		case 0x14:		/* val_offset */
			reg = uleb(c);
			(void)uleb(c);
			rule(s, reg, -1, 0);
			break;
		case 0x15:		/* val_offset_sf */
			reg = uleb(c);
			(void)sleb(c);
			rule(s, reg, -1, 0);
			break;
		case 0x2e:		/* GNU_args_size */
			(void)uleb(c);
			break;
		case 0x2f:		/* GNU_negative_offset_extended */
			reg = uleb(c);
			rule(s, reg, 1, -(long)uleb(c) * ci->data_align);
			break;
		default:
			return -1;
		}
		if (c->bad)
			return -1;
		continue;
advance:
		if (c->bad)
			return -1;
		delta *= ci->code_align;
		if (delta > pc - loc)
			return 0;
		loc += delta;
		continue;
skip:
		if (c->bad || delta > (uint64_t)(c->end - c->p))
			return -1;
		c->p += delta;
	}
	return c->bad ? -1 : 0;
}

/*
 * The rule for pc in e's object: 0, or -1 where its .eh_frame has no
 * FDE for pc or one whose rules at pc are not SP or FP plus a constant
 * with the return address at CFA - 8.  Async-signal-safe.
 */
int
__mon_ehframe_find(const struct __mon_ehframe *e, uintptr_t pc,
    struct __mon_sframe_rule *r)
{
	uint32_t lo = 0, hi = e->count, mid;
	uintptr_t a, begin, range;
	struct state s, init;
	struct cie ci;
	struct cur c, ic;
	uint32_t id;

	if (pc < entry_pc(e, 0))
		return -1;
	while (hi - lo > 1) {
		mid = lo + (hi - lo) / 2;
		if (entry_pc(e, mid) <= pc)
			lo = mid;
		else
			hi = mid;
	}
	a = entry_fde(e, lo);
	c = entry(e, a);
	if (c.bad)
		return -1;
	id = (uint32_t)fixed(&c, 4);
	if (id == 0 || read_cie(e, a + 4 - id, &ci) != 0)
		return -1;
	begin = encoded(&c, ci.fde_enc, 0);
	range = encoded(&c, ci.fde_enc & 0x0f, 0);
	if (c.bad || pc < begin || pc - begin >= range)
		return -1;
	if (ci.z) {
		uint64_t n = uleb(&c);

		if (c.bad || n > (uint64_t)(c.end - c.p))
			return -1;
		c.p += n;
	}
	memset(&s, 0, sizeof(s));
	s.cfa_reg = -1;
	ic.base = e->eh;
	ic.at = e->eh_at;
	ic.p = ci.insns;
	ic.end = ci.end;
	ic.bad = 0;
	if (run(&ic, &ci, begin, pc, &s, NULL) != 0)
		return -1;
	init = s;
	if (run(&c, &ci, begin, pc, &s, &init) != 0)
		return -1;
	if ((s.cfa_reg != EH_SP && s.cfa_reg != EH_FP) || ci.ra != EH_RA ||
	    s.ra_how != 1 || s.ra_off != -8 || s.fp_how < 0)
		return -1;
	r->sp_based = s.cfa_reg == EH_SP;
	r->cfa = s.cfa_off;
	r->fp_saved = s.fp_how == 1;
	r->fp = s.fp_off;
	return 0;
}
