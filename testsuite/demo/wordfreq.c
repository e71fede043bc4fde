/* SPDX-License-Identifier: MIT */
/*
 * wordfreq.c - the demo workload for "make demo": generate a pseudo-random
 * text, count its words in a hash table, sort them by frequency and print
 * the five most common.  A small real program, profiled with -p.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Kept out of line so that the report shows more than main. */
#define OUTLINE	__attribute__((noinline))

#define NWORDS	2000000
#define NBUCKET	(1 << 18)

struct word {
	struct word	*next;
	char		*text;
	long		 count;
};

static struct word	*table[NBUCKET];
static size_t		 nwords;
static unsigned long	 seed = 12345;

OUTLINE static unsigned long
rnd(void)
{
	seed = seed * 6364136223846793005UL + 1442695040888963407UL;
	return seed >> 33;
}

/* Zipf-like: short words are common, as in real text. */
OUTLINE static size_t
gen_word(char *buf)
{
	static const char letters[] = "etaoinshrdlucmfwypvbgkjqxz";
	size_t len = 1 + rnd() % 3 + (rnd() % 4 == 0 ? rnd() % 6 : 0), i;

	for (i = 0; i < len; i++)
		buf[i] = letters[(rnd() % 26) * (rnd() % 26) / 26];
	buf[len] = '\0';
	return len;
}

OUTLINE static char *
gen_text(size_t n)
{
	char *text, *p, w[16];
	size_t i, len;

	if ((p = text = malloc(n * 16 + 1)) == NULL)
		exit(1);
	for (i = 0; i < n; i++) {
		len = gen_word(w);
		memcpy(p, w, len);
		p += len;
		*p++ = i % 12 == 11 ? '\n' : ' ';
	}
	*p = '\0';
	return text;
}

OUTLINE static unsigned
hash(const char *s, size_t len)
{
	unsigned h = 2166136261u;

	while (len-- > 0)
		h = (h ^ (unsigned char)*s++) * 16777619u;
	return h;
}

OUTLINE static void
add_word(const char *s, size_t len)
{
	struct word **bp = &table[hash(s, len) % NBUCKET], *w;

	for (w = *bp; w != NULL; w = w->next)
		if (strncmp(w->text, s, len) == 0 && w->text[len] == '\0') {
			w->count++;
			return;
		}
	if ((w = malloc(sizeof(*w))) == NULL || (w->text = strndup(s, len)) == NULL)
		exit(1);
	w->count = 1;
	w->next = *bp;
	*bp = w;
	nwords++;
}

OUTLINE static void
count_words(const char *text)
{
	const char *p = text, *start;

	while (*p != '\0') {
		while (*p == ' ' || *p == '\n')
			p++;
		start = p;
		while (*p != '\0' && *p != ' ' && *p != '\n')
			p++;
		if (p > start)
			add_word(start, (size_t)(p - start));
	}
}

static int
by_count(const void *a, const void *b)
{
	const struct word *x = *(struct word *const *)a;
	const struct word *y = *(struct word *const *)b;

	if (x->count != y->count)
		return x->count < y->count ? 1 : -1;
	return strcmp(x->text, y->text);
}

int
main(void)
{
	struct word **all, *w;
	size_t i, n = 0;
	char *text;

	text = gen_text(NWORDS);
	count_words(text);
	if ((all = malloc(nwords * sizeof(*all))) == NULL)
		return 1;
	for (i = 0; i < NBUCKET; i++)
		for (w = table[i]; w != NULL; w = w->next)
			all[n++] = w;
	qsort(all, n, sizeof(*all), by_count);
	printf("%zu words, %zu distinct; most common:", (size_t)NWORDS, n);
	for (i = 0; i < 5 && i < n; i++)
		printf(" %s(%ld)", all[i]->text, all[i]->count);
	printf("\n");
	return 0;
}
