/* SPDX-License-Identifier: MIT */
/*
 * mkelf.c - write a small ELF64 executable whose symbols and header the
 * tests choose, for prof's hostile-ELF cases (a test tool: no libelf, no
 * toolchain for another machine needed).
 *
 *	-n N	N functions f0000000.. (16 bytes each) and main (default 1)
 *	-b	big-endian
 *	-m EM	e_machine (default EM_X86_64)
 *	-t N	N bytes without a NUL at the end of the string table
 *	-s	every function named by a suffix of one long name, so that
 *		their names overlap (N names of up to N bytes in N bytes)
 *
 * The text is SHT_NOBITS at 0x401000, so N functions cost 24 bytes each.
 *
 * Usage: mkelf [-bs] [-m EM] [-n N] [-t N] OUT
 */
#include <elf.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define TEXT	0x401000

static unsigned char *img;
static size_t len, cap;
static int big;

static size_t
room(size_t n)
{
	size_t at = len;

	while (len + n > cap) {
		cap = cap ? 2 * cap : 65536;
		if ((img = realloc(img, cap)) == NULL) {
			perror("mkelf");
			exit(2);
		}
	}
	memset(img + len, 0, n);
	len += n;
	return at;
}

/* Store the N-byte value V at AT, in the file's byte order. */
static void
put(size_t at, uint64_t v, int n)
{
	int i;

	for (i = 0; i < n; i++)
		img[at + (big ? n - 1 - i : i)] = (unsigned char)(v >> 8 * i);
}

static void
shdr(size_t at, uint32_t name, uint32_t type, uint64_t flags, uint64_t addr,
    uint64_t off, uint64_t size, uint32_t link, uint64_t entsize)
{
	put(at, name, 4);
	put(at + 4, type, 4);
	put(at + 8, flags, 8);
	put(at + 16, addr, 8);
	put(at + 24, off, 8);
	put(at + 32, size, 8);
	put(at + 40, link, 4);
	put(at + 56, entsize, 8);
}

int
main(int argc, char **argv)
{
	static const char shstr[] = "\0.text\0.symtab\0.strtab\0.shstrtab";
	size_t n = 1, tail = 0, i, eh, ph, sym, str, strsz, shs, sh, at;
	unsigned machine = EM_X86_64;
	int ch, suffix = 0;
	char name[32];
	FILE *f;

	while ((ch = getopt(argc, argv, "bm:n:st:")) != -1) {
		switch (ch) {
		case 'b':
			big = 1;
			break;
		case 'm':
			machine = strtoul(optarg, NULL, 0);
			break;
		case 'n':
			n = strtoul(optarg, NULL, 0);
			break;
		case 's':
			suffix = 1;
			break;
		case 't':
			tail = strtoul(optarg, NULL, 0);
			break;
		default:
			fprintf(stderr, "usage: mkelf [-bs] [-m EM] [-n N] "
			    "[-t N] OUT\n");
			return 2;
		}
	}
	if (optind + 1 != argc)
		return 2;

	eh = room(sizeof(Elf64_Ehdr));
	ph = room(sizeof(Elf64_Phdr));
	/* Strings: "", "main", then the names, then the tail. */
	str = room(6);
	memcpy(img + str + 1, "main", 5);
	for (i = 0; i < n && !suffix; i++) {
		snprintf(name, sizeof(name), "f%07zu", i);
		at = room(strlen(name) + 1);
		memcpy(img + at, name, strlen(name));
	}
	if (suffix) {
		at = room(n + 1);
		memset(img + at, 'a', n);
	}
	at = room(tail);
	memset(img + at, 'x', tail);
	strsz = len - str;
	room(-len & 7);
	sym = room((n + 2) * sizeof(Elf64_Sym));
	for (i = 0; i <= n; i++) {
		at = sym + (i + 1) * sizeof(Elf64_Sym);
		put(at, i == n ? 1 : suffix ? 6 + i : 6 + 9 * i, 4);
		img[at + 4] = ELF64_ST_INFO(STB_GLOBAL, STT_FUNC);
		put(at + 6, 1, 2);			/* .text */
		put(at + 8, TEXT + 16 * i, 8);
		put(at + 16, 16, 8);
	}
	shs = room(sizeof(shstr));
	memcpy(img + shs, shstr, sizeof(shstr));
	room(-len & 7);
	sh = room(5 * sizeof(Elf64_Shdr));
	shdr(sh + 64, 1, SHT_NOBITS, SHF_ALLOC | SHF_EXECINSTR, TEXT, len,
	    16 * (n + 1), 0, 0);
	shdr(sh + 128, 7, SHT_SYMTAB, 0, 0, sym, (n + 2) * sizeof(Elf64_Sym),
	    3, sizeof(Elf64_Sym));
	shdr(sh + 192, 15, SHT_STRTAB, 0, 0, str, strsz, 0, 0);
	shdr(sh + 256, 23, SHT_STRTAB, 0, 0, shs, sizeof(shstr), 0, 0);
	put(sh + 128 + 44, 1, 4);			/* sh_info */

	memcpy(img + eh, ELFMAG, SELFMAG);
	img[eh + EI_CLASS] = ELFCLASS64;
	img[eh + EI_DATA] = big ? ELFDATA2MSB : ELFDATA2LSB;
	img[eh + EI_VERSION] = EV_CURRENT;
	put(eh + 16, ET_EXEC, 2);
	put(eh + 18, machine, 2);
	put(eh + 20, EV_CURRENT, 4);
	put(eh + 24, TEXT + 16 * n, 8);			/* e_entry: main */
	put(eh + 32, ph, 8);
	put(eh + 40, sh, 8);
	put(eh + 52, sizeof(Elf64_Ehdr), 2);
	put(eh + 54, sizeof(Elf64_Phdr), 2);
	put(eh + 56, 1, 2);
	put(eh + 58, sizeof(Elf64_Shdr), 2);
	put(eh + 60, 5, 2);
	put(eh + 62, 4, 2);				/* e_shstrndx */
	put(ph, PT_LOAD, 4);
	put(ph + 4, PF_R | PF_X, 4);
	put(ph + 16, TEXT, 8);
	put(ph + 24, TEXT, 8);
	put(ph + 40, 16 * (n + 1), 8);
	put(ph + 48, 0x1000, 8);

	if ((f = fopen(argv[optind], "wb")) == NULL ||
	    fwrite(img, 1, len, f) != len || fclose(f) != 0) {
		perror(argv[optind]);
		return 2;
	}
	free(img);
	return 0;
}
