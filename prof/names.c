/* SPDX-License-Identifier: MIT */
/*
 * names.c - the printable form in which every text output and message
 * writes a name (a symbol, a file), and C++ and Rust names demangled.
 * What a report row is called is rows.c's.
 */
#include <err.h>
#include <stdlib.h>

#include <demangle.h>

#include "common.h"

/*
 * NAME demangled (a C++ name with its parameters, a Rust name of either
 * mangling), or NULL if it is neither.
 */
char *
names_demangle(const char *name)
{
	/*
	 * The demangler takes "<external>" for a template's arguments, so
	 * only the manglings' prefixes go to it: _Z (C++, and Rust's legacy
	 * names, which libiberty tells apart by their hash) and _R (Rust's
	 * v0).  DMGL_AUTO tries Rust first, as nm -C does.
	 */
	if (strncmp(name, "_Z", 2) != 0 && strncmp(name, "_R", 2) != 0)
		return NULL;
	return cplus_demangle(name, DMGL_PARAMS | DMGL_ANSI | DMGL_AUTO);
}

/*
 * The length of the UTF-8 character at P (2 to 4 bytes) if it may be
 * written as it is, else 0.  GCC takes UTF-8 identifiers (C23, C++), so
 * a name such as "größe" stays readable.  Refused, and so escaped byte
 * by byte: what is not UTF-8 (a lone 0x9b is CSI to a terminal that
 * reads 8-bit controls), overlong forms and surrogates; the C1 controls
 * U+0080 to U+009F, which some UTF-8 terminals obey (U+009B is CSI too);
 * and the characters that end a line or turn its text around for a
 * reader (U+2028, U+2029, the bidirectional marks and overrides), so
 * that a name cannot seem to move the columns beside it.  The output
 * does not follow the locale (reports are compared and stored), so a
 * terminal that takes a UTF-8 character's bytes 0x80 to 0x9f for 8-bit
 * controls, in a legacy locale, is not guarded; such names are rare.
 */
static size_t
printable_utf8(const unsigned char *p)
{
	uint32_t c;
	size_t n, i;

	if (p[0] < 0xc2 || p[0] > 0xf4)
		return 0;
	n = p[0] < 0xe0 ? 2 : p[0] < 0xf0 ? 3 : 4;
	c = p[0] & (0x7f >> n);
	/* The string's NUL is no continuation byte: it stops the loop. */
	for (i = 1; i < n; i++) {
		if ((p[i] & 0xc0) != 0x80)
			return 0;
		c = c << 6 | (p[i] & 0x3f);
	}
	if ((n == 3 && c < 0x800) || (n == 4 && (c < 0x10000 ||
	    c > 0x10ffff)) || (c >= 0xd800 && c <= 0xdfff))
		return 0;
	if (c < 0xa0 || c == 0x061c || c == 0x200e || c == 0x200f ||
	    c == 0x2028 || c == 0x2029 || (c >= 0x202a && c <= 0x202e) ||
	    (c >= 0x2066 && c <= 0x2069))
		return 0;
	return n;
}

/*
 * Write NAME (a symbol, a demangled name, a file or object path: bytes
 * from the program or the profile, which may be hostile) to FP as the
 * text outputs print it: control bytes (below 0x20, and 0x7f) and the
 * backslash written as in C (\n, \t, \r, \\, else \x1b), and bytes of
 * 0x80 and above as printable_utf8() allows, so that no name can split
 * a line of the report (or forge a record of a line-based format such
 * as callgrind's) or drive the terminal.  A plain name is written as it
 * is, and two names never look alike: the backslash is escaped too.
 */
void
names_put(FILE *fp, const char *name)
{
	const unsigned char *p = (const unsigned char *)name;
	size_t n;

	while (*p != '\0') {
		if (*p >= 0x20 && *p < 0x7f && *p != '\\')
			fputc(*p++, fp);
		else if (*p == '\\' || *p == '\n' || *p == '\t' || *p == '\r') {
			fputc('\\', fp);
			fputc(*p == '\n' ? 'n' : *p == '\t' ? 't' :
			    *p == '\r' ? 'r' : '\\', fp);
			p++;
		} else if (*p >= 0x80 && (n = printable_utf8(p)) > 0) {
			fwrite(p, 1, n, fp);
			p += n;
		} else
			fprintf(fp, "\\x%02x", *p++);
	}
}

/* NAME as names_put() writes it, malloc'd. */
char *
names_text(const char *name)
{
	FILE *fp;
	char *s;
	size_t len;

	if ((fp = open_memstream(&s, &len)) == NULL)
		err(1, NULL);
	names_put(fp, name);
	if (fclose(fp) != 0)
		err(1, NULL);
	return s;
}
