/* SPDX-License-Identifier: MIT */
/*
 * check_names.c - the printable form of a name (prof/names.c), which
 * every text output writes: plain names unchanged, control bytes and
 * the backslash C-style, bytes of 0x80 and above kept only as UTF-8
 * characters that neither control a terminal nor end or turn a line.
 */
#include <stdlib.h>
#include <string.h>

#include "common.h"
#include "unit.h"

/* Whether NAME's printable form is WANT. */
static void
shown(const char *name, const char *want)
{
	char *s = names_text(name);

	ck_assert_str_eq(s, want);
	free(s);
}

START_TEST(test_plain_names_unchanged)
{
	shown("", "");
	shown("main", "main");
	shown("beta.constprop.0", "beta.constprop.0");
	shown("ns::foo(int, char const*) [clone .cold]",
	    "ns::foo(int, char const*) [clone .cold]");
	shown("<libz.so.1>", "<libz.so.1>");
	shown(" ~!\"#$%&'()*+,-./:;<=>?@[]^_`{|}",
	    " ~!\"#$%&'()*+,-./:;<=>?@[]^_`{|}");
}
END_TEST

START_TEST(test_controls_c_style)
{
	shown("a\nb", "a\\nb");
	shown("a\tb\rc", "a\\tb\\rc");
	shown("a\\nb", "a\\\\nb");
	shown("\x1b[2J", "\\x1b[2J");
	shown("\x01\x1f\x7f", "\\x01\\x1f\\x7f");
	shown("x\nfn=(9) y", "x\\nfn=(9) y");
}
END_TEST

START_TEST(test_utf8_kept)
{
	shown("gr\xc3\xb6\xc3\x9f" "e", "gr\xc3\xb6\xc3\x9f" "e");
	shown("\xc2\xa0", "\xc2\xa0");			/* U+00A0 */
	shown("\xe2\x82\xac", "\xe2\x82\xac");		/* U+20AC */
	shown("\xf0\x9f\x98\x80", "\xf0\x9f\x98\x80");	/* U+1F600 */
	shown("\xf4\x8f\xbf\xbf", "\xf4\x8f\xbf\xbf");	/* U+10FFFF */
}
END_TEST

START_TEST(test_not_utf8_escaped)
{
	shown("\x9b" "31m", "\\x9b31m");		/* 8-bit CSI */
	shown("\xc3", "\\xc3");				/* cut short */
	shown("\xc3" "A", "\\xc3A");
	shown("\xc0\xaf", "\\xc0\\xaf");		/* overlong '/' */
	shown("\xe0\x80\xaf", "\\xe0\\x80\\xaf");
	shown("\xed\xa0\x80", "\\xed\\xa0\\x80");	/* a surrogate */
	shown("\xf4\x90\x80\x80", "\\xf4\\x90\\x80\\x80");	/* > U+10FFFF */
	shown("\xff", "\\xff");
}
END_TEST

START_TEST(test_controls_in_utf8_escaped)
{
	shown("\xc2\x9b" "2J", "\\xc2\\x9b2J");		/* U+009B CSI */
	shown("\xc2\x85", "\\xc2\\x85");		/* U+0085 NEL */
	shown("a\xe2\x80\xa8" "b", "a\\xe2\\x80\\xa8b");	/* U+2028 */
	shown("\xe2\x80\xae", "\\xe2\\x80\\xae");	/* U+202E RLO */
	shown("\xe2\x81\xa6", "\\xe2\\x81\\xa6");	/* U+2066 LRI */
	shown("\xe2\x80\x8f", "\\xe2\\x80\\x8f");	/* U+200F RLM */
}
END_TEST

START_TEST(test_names_put_writes_the_same)
{
	const char *name = "a\n\x1b\xc3\xa9\\";
	char *out = NULL, *s;
	size_t len;
	FILE *fp;

	ck_assert_ptr_nonnull(fp = open_memstream(&out, &len));
	names_put(fp, name);
	fclose(fp);
	s = names_text(name);
	ck_assert_str_eq(out, s);
	ck_assert_str_eq(out, "a\\n\\x1b\xc3\xa9\\\\");
	free(s);
	free(out);
}
END_TEST

static Suite *
names_suite(void)
{
	Suite *s = suite_create("names");
	TCase *tc = tcase_create("printable");

	tcase_add_test(tc, test_plain_names_unchanged);
	tcase_add_test(tc, test_controls_c_style);
	tcase_add_test(tc, test_utf8_kept);
	tcase_add_test(tc, test_not_utf8_escaped);
	tcase_add_test(tc, test_controls_in_utf8_escaped);
	tcase_add_test(tc, test_names_put_writes_the_same);
	suite_add_tcase(s, tc);
	return s;
}

UNIT_SUITE(names_suite)
