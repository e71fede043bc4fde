/* SPDX-License-Identifier: MIT */
/*
 * elfread.c - what prof reads from an ELF file, through libelf: the
 * header checks, the function symbols, the PT_LOAD headers and the GNU
 * build-id.  Nothing here groups or names functions (symgroup.c).
 *
 * The file is read, not mapped (ELF_C_READ): an executable rebuilt while
 * prof runs cannot fault it.  Names are taken from a string table checked
 * once to end in NUL, never with elf_strptr(), which scans the rest of
 * the table on every call when it does not.
 */
#include <elf.h>
#include <gelf.h>
#include <stdlib.h>
#include <string.h>

#include "input.h"

#ifndef DF_1_PIE
#define DF_1_PIE	0x08000000
#endif

/* The machine and byte order whose profiles (and objects) prof reads. */
#if defined(__x86_64__)
#define HOST_MACHINE	EM_X86_64
#define HOST_NAME	"x86-64"
#elif defined(__aarch64__)
#define HOST_MACHINE	EM_AARCH64
#define HOST_NAME	"AArch64"
#elif defined(__riscv) && __riscv_xlen == 64
#define HOST_MACHINE	EM_RISCV
#define HOST_NAME	"RISC-V"
#else
#error "prof: add this machine's EM_ value"
#endif
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define HOST_DATA	ELFDATA2LSB
#define HOST_ORDER	"little-endian"
#else
#define HOST_DATA	ELFDATA2MSB
#define HOST_ORDER	"big-endian"
#endif

static int
is_pie(Elf *elf, const GElf_Ehdr *eh)
{
	GElf_Phdr ph;
	GElf_Dyn dyn;
	Elf_Scn *scn;
	GElf_Shdr sh;
	Elf_Data *d;
	size_t i, n;

	for (i = 0; i < eh->e_phnum; i++)
		if (gelf_getphdr(elf, i, &ph) != NULL &&
		    ph.p_type == PT_INTERP)
			return 1;
	for (scn = NULL; (scn = elf_nextscn(elf, scn)) != NULL;) {
		if (gelf_getshdr(scn, &sh) == NULL ||
		    sh.sh_type != SHT_DYNAMIC || sh.sh_entsize == 0 ||
		    (d = elf_getdata(scn, NULL)) == NULL)
			continue;
		n = d->d_size / gelf_fsize(elf, ELF_T_DYN, 1, EV_CURRENT);
		for (i = 0; i < n; i++)
			if (gelf_getdyn(d, i, &dyn) != NULL &&
			    dyn.d_tag == DT_FLAGS_1 &&
			    (dyn.d_un.d_val & DF_1_PIE))
				return 1;
	}
	return 0;
}

/*
 * The ELF file open on FD as *ELFP, checked to be one prof can read for
 * this machine: an executable (ET_EXEC or PIE) if WANT is ELFREAD_EXEC,
 * a shared object if ELFREAD_OBJECT.  Returns NULL or the problem; *ELFP
 * is the caller's to elf_end() either way.
 */
const char *
elfread_begin(int fd, int want, Elf **elfp, char *ebuf, size_t esz)
{
	GElf_Ehdr eh;
	Elf *elf;

	*elfp = NULL;
	if (elf_version(EV_CURRENT) == EV_NONE)
		return prof_errf(ebuf, esz, "libelf: %s", elf_errmsg(-1));
	if ((*elfp = elf = elf_begin(fd, ELF_C_READ, NULL)) == NULL)
		return prof_errf(ebuf, esz, "%s", elf_errmsg(-1));
	if (elf_kind(elf) != ELF_K_ELF)
		return prof_errf(ebuf, esz, "not an ELF file");
	if (gelf_getehdr(elf, &eh) == NULL)
		return prof_errf(ebuf, esz, "bad ELF header: %s", elf_errmsg(-1));
	if (eh.e_ident[EI_CLASS] != ELFCLASS64)
		return prof_errf(ebuf, esz, want == ELFREAD_OBJECT ?
		    "not a 64-bit shared object" : "not a 64-bit ELF file");
	if (eh.e_ident[EI_DATA] != HOST_DATA)
		return prof_errf(ebuf, esz, "a %s ELF file (this machine is %s)",
		    HOST_DATA == ELFDATA2LSB ? "big-endian" : "little-endian",
		    HOST_ORDER);
	if (eh.e_machine != HOST_MACHINE)
		return prof_errf(ebuf, esz, "an ELF file for another machine "
		    "(e_machine %u; this is %s)", eh.e_machine, HOST_NAME);
	if (want == ELFREAD_OBJECT)
		return eh.e_type == ET_DYN ? NULL :
		    prof_errf(ebuf, esz, "not a 64-bit shared object");
	if (eh.e_type == ET_DYN && !is_pie(elf, &eh))
		return prof_errf(ebuf, esz, "a shared object, not an executable");
	if (eh.e_type != ET_EXEC && eh.e_type != ET_DYN)
		return prof_errf(ebuf, esz, "not an executable");
	return NULL;
}

/*
 * ELF's GNU build-id, *LEN bytes at *ID (in ELF's data): 1, or 0 if it
 * has none.
 */
int
elfread_note_buildid(Elf *elf, const unsigned char **id, size_t *len)
{
	Elf_Scn *scn;
	GElf_Shdr sh;
	GElf_Nhdr nh;
	Elf_Data *d;
	size_t off, next, noff, doff;

	for (scn = NULL; (scn = elf_nextscn(elf, scn)) != NULL;) {
		if (gelf_getshdr(scn, &sh) == NULL || sh.sh_type != SHT_NOTE ||
		    (d = elf_getdata(scn, NULL)) == NULL)
			continue;
		for (off = 0; (next = gelf_getnote(d, off, &nh, &noff,
		    &doff)) > 0; off = next) {
			if (nh.n_type != NT_GNU_BUILD_ID || nh.n_namesz != 4 ||
			    memcmp((char *)d->d_buf + noff, "GNU", 4) != 0)
				continue;
			*id = (const unsigned char *)d->d_buf + doff;
			*len = nh.n_descsz;
			return 1;
		}
	}
	return 0;
}

/* The first 8 bytes of ELF's GNU build-id into ID: 1, or 0 if it has none. */
int
elfread_buildid(Elf *elf, unsigned char id[8])
{
	const unsigned char *p;
	size_t n;

	if (!elfread_note_buildid(elf, &p, &n))
		return 0;
	memset(id, 0, 8);
	memcpy(id, p, n < 8 ? n : 8);
	return 1;
}

/* By file offset, then header order: the first that holds an offset. */
static int
loadcmp(const void *a, const void *b)
{
	const struct elfload *x = a, *y = b;

	if (x->offset != y->offset)
		return x->offset < y->offset ? -1 : 1;
	return x->idx < y->idx ? -1 : x->idx > y->idx;
}

/* ELF's PT_LOAD segments into *LOADP (*NP of them), by file offset. */
const char *
elfread_loads(Elf *elf, struct elfload **loadp, size_t *np)
{
	struct elfload *load;
	GElf_Phdr ph;
	size_t i, n, phnum;

	*loadp = NULL;
	*np = 0;
	if (elf_getphdrnum(elf, &phnum) != 0)
		phnum = 0;
	if ((load = calloc(phnum + 1, sizeof(*load))) == NULL)
		return "out of memory";
	for (i = n = 0; i < phnum; i++) {
		if (gelf_getphdr(elf, i, &ph) == NULL || ph.p_type != PT_LOAD)
			continue;
		load[n].offset = ph.p_offset;
		load[n].filesz = ph.p_filesz;
		load[n].vaddr = ph.p_vaddr;
		load[n++].idx = i;
	}
	qsort(load, n, sizeof(*load), loadcmp);
	*loadp = load;
	*np = n;
	return NULL;
}

/* ELF's symbol table: .symtab, else .dynsym, else NULL. */
static Elf_Scn *
symscn_of(Elf *elf)
{
	Elf_Scn *scn, *symscn = NULL, *dynscn = NULL;
	GElf_Shdr sh;

	for (scn = NULL; (scn = elf_nextscn(elf, scn)) != NULL;) {
		if (gelf_getshdr(scn, &sh) == NULL)
			continue;
		if (sh.sh_type == SHT_SYMTAB && symscn == NULL)
			symscn = scn;
		if (sh.sh_type == SHT_DYNSYM && dynscn == NULL)
			dynscn = scn;
	}
	return symscn != NULL ? symscn : dynscn;
}

/*
 * The string table of the symbol table SH into *STR (*LEN bytes), or
 * the problem: it must end in NUL, so that every name in it does.
 */
static const char *
strings(Elf *elf, const GElf_Shdr *sh, const char **str, size_t *len)
{
	Elf_Scn *scn;
	GElf_Shdr ssh;
	Elf_Data *d;

	if ((scn = elf_getscn(elf, sh->sh_link)) == NULL ||
	    gelf_getshdr(scn, &ssh) == NULL || ssh.sh_type != SHT_STRTAB ||
	    (d = elf_getdata(scn, NULL)) == NULL || d->d_buf == NULL ||
	    d->d_size == 0)
		return "bad symbol table: no string table";
	if (((const char *)d->d_buf)[d->d_size - 1] != '\0')
		return "bad symbol string table: no NUL at its end";
	*str = d->d_buf;
	*len = d->d_size;
	return NULL;
}

/*
 * Names may overlap in a string table (ld merges "foo" into "barfoo"),
 * but the functions' names of a real file add up to about its size; a
 * file whose names add up to more would make sorting them cost the
 * square of its size (100,000 suffixes of one 100 KB name).
 */
#define NAMES_RATIO	4
#define NAMES_SLACK	((size_t)1 << 20)

/*
 * Append the function symbols of ELF to *RAWP (*NP of them), their
 * addresses plus BASE; *NSYMS = the symbols read.  A function is a
 * FUNC, NOTYPE or IFUNC symbol of an allocated executable section,
 * named, and not an assembler-local label.  NULL if there is no symbol
 * table, or the problem.
 */
const char *
elfread_syms(Elf *elf, uint64_t base, struct rawsym **rawp, size_t *np,
    size_t *nsyms, char *ebuf, size_t esz)
{
	GElf_Shdr sh, tsh;
	GElf_Sym sym;
	Elf_Scn *scn, *tscn;
	Elf_Data *d;
	struct rawsym *raw;
	/* Counted across calls: no two objects' files share a number. */
	static size_t group;
	const char *name, *str, *e, *file = "";
	size_t i, n, cnt, strsz, budget, len;
	int type, local;

	*nsyms = 0;
	if ((scn = symscn_of(elf)) == NULL)
		return NULL;
	if (gelf_getshdr(scn, &sh) == NULL || sh.sh_entsize == 0 ||
	    (d = elf_getdata(scn, NULL)) == NULL)
		return prof_errf(ebuf, esz, "bad symbol table: %s",
		    elf_errmsg(-1));
	if ((e = strings(elf, &sh, &str, &strsz)) != NULL)
		return prof_errf(ebuf, esz, "%s", e);
	/* What gelf_getsym() reads; a bad sh_entsize would count bytes. */
	n = d->d_size / gelf_fsize(elf, ELF_T_SYM, 1, EV_CURRENT);
	if ((raw = reallocarray(*rawp, *np + n + 1, sizeof(*raw))) == NULL)
		return prof_errf(ebuf, esz, "out of memory");
	*rawp = raw;
	*nsyms = n;
	budget = strsz > (SIZE_MAX - NAMES_SLACK) / NAMES_RATIO ? SIZE_MAX :
	    NAMES_RATIO * strsz + NAMES_SLACK;
	for (i = 0, cnt = *np; i < n; i++) {
		if (gelf_getsym(d, i, &sym) == NULL)
			continue;
		type = GELF_ST_TYPE(sym.st_info);
		/*
		 * The local symbols that follow an STT_FILE are its file's:
		 * what tells two statics of one name apart, and the
		 * runtime's statics from a program's (symgroup.c).
		 */
		if (type == STT_FILE) {
			file = sym.st_name < strsz ? str + sym.st_name : "";
			group++;
			continue;
		}
		if (type != STT_FUNC && type != STT_NOTYPE &&
		    type != STT_GNU_IFUNC)
			continue;
		if (sym.st_shndx == SHN_UNDEF || sym.st_shndx >= SHN_LORESERVE)
			continue;
		if ((tscn = elf_getscn(elf, sym.st_shndx)) == NULL ||
		    gelf_getshdr(tscn, &tsh) == NULL ||
		    (tsh.sh_flags & (SHF_ALLOC | SHF_EXECINSTR)) !=
		    (SHF_ALLOC | SHF_EXECINSTR))
			continue;
		if (sym.st_name >= strsz)
			continue;
		name = str + sym.st_name;
		if (*name == '\0' || *name == '$' || strncmp(name, ".L", 2) == 0)
			continue;
		len = strnlen(name, budget) + 1;
		if (len > budget)
			return prof_errf(ebuf, esz, "bad symbol table: its "
			    "function names take more than %d times its string "
			    "table", NAMES_RATIO);
		budget -= len;
		raw[cnt].addr = sym.st_value + base;
		raw[cnt].size = sym.st_size;
		raw[cnt].secend = tsh.sh_addr + tsh.sh_size + base;
		raw[cnt].name = name;
		raw[cnt].bind = GELF_ST_BIND(sym.st_info);
		if (raw[cnt].bind == STB_GNU_UNIQUE)
			raw[cnt].bind = STB_GLOBAL;
		local = raw[cnt].bind == STB_LOCAL;
		raw[cnt].file = local ? file : "";
		raw[cnt].group = local && *file != '\0' ? group : 0;
		cnt++;
	}
	*np = cnt;
	return NULL;
}
