/* SPDX-License-Identifier: MIT */
/*
 * check_flame.c - the flame graph (prof/flame.c) of stacks made by
 * hand: equal prefixes merged whatever the order, callees in name
 * order, widths in proportion to time, narrow frames left out, every
 * name and the title escaped, the document well formed, and "no
 * samples" without time.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "views.h"
#include "unit.h"

/* The SVG of the N stacks S, malloc'd. */
static char *
svg(const char *title, const struct flamestack *s, size_t n)
{
	char *out = NULL;
	size_t len;
	FILE *fp;

	ck_assert_ptr_nonnull(fp = open_memstream(&out, &len));
	ck_assert_int_eq(flame_svg(fp, title, s, n), 0);
	ck_assert_int_eq(fclose(fp), 0);
	return out;
}

/* How many times NEEDLE is in HAY. */
static size_t
count(const char *hay, const char *needle)
{
	size_t n = 0;

	while ((hay = strstr(hay, needle)) != NULL) {
		n++;
		hay += strlen(needle);
	}
	return n;
}

/*
 * The value of attribute ATTR of the box of the frame whose tooltip
 * begins with NAME and " (", or NAN if there is no such frame.
 */
static double
box(const char *doc, const char *name, const char *attr)
{
	char key[256], *p;

	snprintf(key, sizeof(key), "<title>%s (", name);
	if ((p = strstr(doc, key)) == NULL)
		return NAN;
	p = strstr(p, "<rect ");
	snprintf(key, sizeof(key), " %s=\"", attr);
	ck_assert_ptr_nonnull(p = strstr(p, key));
	return strtod(p + strlen(key), NULL);
}

/* Whether P begins one of XML's five entities. */
static int
entity(const char *p)
{
	static const char *const ent[] = {
		"&amp;", "&lt;", "&gt;", "&quot;", "&apos;",
	};
	size_t i;

	for (i = 0; i < sizeof(ent) / sizeof(ent[0]); i++)
		if (strncmp(p, ent[i], strlen(ent[i])) == 0)
			return 1;
	return 0;
}

/*
 * Whether DOC is well-formed XML, as far as flame.c can go wrong:
 * elements nest and close, attribute values are quoted, every & in
 * text and values begins an entity (the script is CDATA), and no < or
 * control byte is in a value, nor a control byte but the newline in
 * the text.  xmllint checks it whole in e2e 353.
 */
static int
wellformed(const char *doc)
{
	const char *p = doc, *e, *open[64];
	size_t depth = 0, len[64], n;
	char q;

	if (strncmp(p, "<?xml ", 6) != 0 || (p = strstr(p, "?>")) == NULL)
		return 0;
	for (p += 2; *p != '\0'; ) {
		if ((unsigned char)*p < 0x20 && *p != '\n')
			return 0;
		if (strncmp(p, "<![CDATA[", 9) == 0) {
			if ((p = strstr(p, "]]>")) == NULL)
				return 0;
			p += 3;
		} else if (strncmp(p, "</", 2) == 0) {
			n = strcspn(p + 2, ">");
			if (depth == 0 || n != len[depth - 1] ||
			    strncmp(p + 2, open[--depth], n) != 0)
				return 0;
			p += 2 + n + 1;
		} else if (*p == '<') {
			e = ++p;
			p += strcspn(p, " />");
			if (depth == 64)
				return 0;
			open[depth] = e;
			len[depth++] = (size_t)(p - e);
			while (*p == ' ') {
				p += strspn(p, " ");
				p += strcspn(p, "=/>");
				if (*p != '=')
					break;
				if ((q = *++p) != '"' && q != '\'')
					return 0;
				for (p++; *p != q; p++)
					if (*p == '\0' || *p == '<' ||
					    (unsigned char)*p < 0x20 ||
					    (*p == '&' && !entity(p)))
						return 0;
				p++;
			}
			if (strncmp(p, "/>", 2) == 0) {
				depth--;
				p += 2;
			} else if (*p++ != '>')
				return 0;
		} else if ((*p == '&' && !entity(p)) || *p == '>')
			return 0;
		else
			p++;
	}
	return depth == 0;
}

static const char *const mab[] = { "main", "a", "b" };
static const char *const mac[] = { "main", "a", "c" };
static const char *const md[] = { "main", "d" };

START_TEST(test_equal_prefixes_merged)
{
	struct flamestack s[] = {
		{ mab, 3, 1 }, { mac, 3, 2 }, { mab, 3, 3 }, { md, 2, 4 },
	};
	struct flamestack r[] = { s[3], s[2], s[1], s[0] };
	char *doc = svg("prog", s, 4), *rev = svg("prog", r, 4);

	/* all, main, a, b, c and d: a and main once, b once. */
	ck_assert_uint_eq(count(doc, "<g class=\"f\">"), 6);
	ck_assert_uint_eq(count(doc, "<title>main ("), 1);
	ck_assert_uint_eq(count(doc, "<title>a ("), 1);
	ck_assert_uint_eq(count(doc, "<title>b ("), 1);
	ck_assert_ptr_nonnull(strstr(doc, "<title>all (10.00 s, 100.00%)"));
	ck_assert_ptr_nonnull(strstr(doc, "<title>b (4.00 s, 40.00%)"));
	ck_assert_ptr_nonnull(strstr(doc, "<title>c (2.00 s, 20.00%)"));
	ck_assert_ptr_nonnull(strstr(doc, "<title>d (4.00 s, 40.00%)"));
	/* The order of the stacks makes no difference. */
	ck_assert_str_eq(doc, rev);
	ck_assert(wellformed(doc));
	ck_assert_ptr_nonnull(strstr(doc, "function zoom("));
	ck_assert_ptr_nonnull(strstr(doc, "function search("));
	ck_assert_ptr_nonnull(strstr(doc, ">prog</text>"));
	free(doc);
	free(rev);
}
END_TEST

START_TEST(test_widths_in_proportion)
{
	struct flamestack s[] = {
		{ md, 2, 4 }, { mac, 3, 2 }, { mab, 3, 4 },
	};
	char *doc = svg("prog", s, 3);

	/* 1180 pixels between the margins for 10 s. */
	ck_assert_double_eq(box(doc, "all", "width"), 1180);
	ck_assert_double_eq(box(doc, "main", "width"), 1180);
	ck_assert_double_eq(box(doc, "a", "width"), 708);
	ck_assert_double_eq(box(doc, "b", "width"), 472);
	ck_assert_double_eq(box(doc, "c", "width"), 236);
	ck_assert_double_eq(box(doc, "d", "width"), 472);
	/* Callees by name from their caller's left edge, a before d. */
	ck_assert_double_eq(box(doc, "a", "x"), 10);
	ck_assert_double_eq(box(doc, "b", "x"), 10);
	ck_assert_double_eq(box(doc, "c", "x"), 482);
	ck_assert_double_eq(box(doc, "d", "x"), 718);
	ck_assert(strstr(doc, "<title>b (") < strstr(doc, "<title>c ("));
	/* The root at the bottom, a callee a frame above its caller. */
	ck_assert_double_eq(box(doc, "main", "y") - box(doc, "a", "y"), 16);
	ck_assert_double_eq(box(doc, "all", "y") - box(doc, "b", "y"), 48);
	free(doc);
}
END_TEST

START_TEST(test_narrow_frames_left_out)
{
	static const char *const mx[] = { "main", "narrow", "deeper" };
	static const char *const my[] = { "main", "kept" };
	struct flamestack s[] = {
		{ md, 2, 9.98 }, { mx, 3, 0.009 }, { my, 2, 0.011 },
	};
	char *doc = svg("prog", s, 3);

	/* 0.09 % of the time is left out with its callees, 0.11 % is not. */
	ck_assert(isnan(box(doc, "narrow", "width")));
	ck_assert(isnan(box(doc, "deeper", "width")));
	ck_assert(!isnan(box(doc, "kept", "width")));
	ck_assert_uint_eq(count(doc, "<g class=\"f\">"), 4);
	ck_assert_ptr_nonnull(strstr(doc, "<title>main (10.00 s, 100.00%)"));
	free(doc);
}
END_TEST

START_TEST(test_hostile_names_escaped)
{
	static const char *const bad[] = {
		"main", "a<b>&\"'\n\x1b[31m", "\xff\xef\xbf\xbfz",
		"</text><script>alert(1)</script>",
	};
	struct flamestack s[] = { { bad, 2, 1 }, { bad, 4, 1 } };
	struct flamestack u[] = { { bad, 3, 1 } };
	char *doc = svg("/bin/<&>\"'\t", s, 2), *bytes = svg(NULL, u, 1);
	const char *want = "a&lt;b&gt;&amp;&quot;&apos;\\n\\x1b[31m";

	ck_assert_ptr_nonnull(strstr(doc, ">/bin/&lt;&amp;&gt;&quot;&apos;\\t"
	    "</text>"));
	/* In its tooltip and in its box's text, nowhere else. */
	ck_assert_uint_eq(count(doc, want), 2);
	ck_assert_ptr_nonnull(strstr(doc, "<title>&lt;/text&gt;&lt;script&gt;"
	    "alert(1)&lt;/script&gt; ("));
	ck_assert_ptr_null(strstr(doc, "<script>"));
	ck_assert_ptr_null(strstr(doc, "\x1b"));
	ck_assert(wellformed(doc));
	/* Bytes that are not UTF-8, and U+FFFF, which XML lacks. */
	ck_assert_ptr_nonnull(strstr(bytes, "<title>\\xff\\xef\\xbf\\xbfz ("));
	ck_assert_ptr_nonnull(strstr(bytes, ">Flame Graph</text>"));
	ck_assert(wellformed(bytes));
	free(doc);
	free(bytes);
}
END_TEST

START_TEST(test_no_samples)
{
	struct flamestack s[] = {
		{ mab, 3, 0 }, { mac, 3, -1 }, { md, 2, NAN },
	};
	char *doc, *none;

	doc = svg("prog", s, 3);
	none = svg("prog", NULL, 0);
	ck_assert_str_eq(doc, none);
	ck_assert_ptr_nonnull(strstr(doc, ">no samples</text>"));
	ck_assert_ptr_nonnull(strstr(doc, ">prog</text>"));
	ck_assert_uint_eq(count(doc, "<g class=\"f\">"), 0);
	ck_assert(wellformed(doc));
	ck_assert(strcmp(doc + strlen(doc) - 7, "</svg>\n") == 0);
	free(doc);
	free(none);
}
END_TEST

START_TEST(test_deep_and_wide)
{
	static const char *name[100000];
	static char kid[900][8];
	struct flamestack *s;
	size_t i;
	char *doc;

	/* One stack 100000 deep: a frame a level, no recursion. */
	for (i = 0; i < 100000; i++)
		name[i] = i % 2 ? "odd" : "even";
	s = calloc(900, sizeof(*s));
	s[0].name = name;
	s[0].depth = 100000;
	s[0].value = 1;
	doc = svg("deep", s, 1);
	ck_assert_uint_eq(count(doc, "<g class=\"f\">"), 100001);
	free(doc);
	/* 900 callees of main, each 1/900 of the time: all kept. */
	for (i = 0; i < 900; i++) {
		snprintf(kid[i], sizeof(kid[i]), "f%03zu", 899 - i);
		name[2 * i] = "main";
		name[2 * i + 1] = kid[i];
		s[i].name = &name[2 * i];
		s[i].depth = 2;
		s[i].value = 0.5;
	}
	doc = svg("wide", s, 900);
	ck_assert_uint_eq(count(doc, "<g class=\"f\">"), 902);
	ck_assert(strstr(doc, "<title>f000 (") < strstr(doc, "<title>f899 ("));
	ck_assert_double_eq_tol(box(doc, "f899", "x") + box(doc, "f899",
	    "width"), 1190, 0.01);
	free(doc);
	free(s);
}
END_TEST

START_TEST(test_write_error)
{
	struct flamestack s[] = { { mab, 3, 1 } };
	FILE *fp;

	if ((fp = fopen("/dev/full", "w")) == NULL)
		return;
	errno = 0;
	ck_assert_int_eq(flame_svg(fp, "prog", s, 1), -1);
	ck_assert_int_eq(errno, ENOSPC);
	fclose(fp);
}
END_TEST

static Suite *
flame_suite(void)
{
	Suite *s = suite_create("flame");
	TCase *tc = tcase_create("svg");

	tcase_add_test(tc, test_equal_prefixes_merged);
	tcase_add_test(tc, test_widths_in_proportion);
	tcase_add_test(tc, test_narrow_frames_left_out);
	tcase_add_test(tc, test_hostile_names_escaped);
	tcase_add_test(tc, test_no_samples);
	tcase_add_test(tc, test_deep_and_wide);
	tcase_add_test(tc, test_write_error);
	suite_add_tcase(s, tc);
	return s;
}

UNIT_SUITE(flame_suite)
