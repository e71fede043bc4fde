/* SPDX-License-Identifier: MIT */
/*
 * mixed.c - bench workload: a realistic mix.  Generates words, counts
 * them in a chained hash table, sorts the table with qsort through a
 * comparator, and folds the result; uses libc malloc and strcmp.
 * Usage: mixed [PERCENT]
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct entry {
	struct entry *next;
	unsigned long count;
	char word[16];
};

#define NBUCKET (1 << 18)
static struct entry *bucket[NBUCKET];
static unsigned long nentries;
static unsigned long seed = 12345;

static unsigned long
rnd(void)
{
	seed = seed * 6364136223846793005ul + 1442695040888963407ul;
	return seed >> 33;
}

static void
make_word(char *w)
{
	int n = 3 + rnd() % 6, i;

	for (i = 0; i < n; i++)
		w[i] = 'a' + rnd() % 6;
	w[n] = '\0';
}

static unsigned
hash(const char *s)
{
	unsigned h = 5381;

	while (*s)
		h = h * 33 + (unsigned char)*s++;
	return h % NBUCKET;
}

static void
add(const char *w)
{
	unsigned h = hash(w);
	struct entry *e;

	for (e = bucket[h]; e != NULL; e = e->next)
		if (strcmp(e->word, w) == 0) {
			e->count++;
			return;
		}
	e = malloc(sizeof(*e));
	strcpy(e->word, w);
	e->count = 1;
	e->next = bucket[h];
	bucket[h] = e;
	nentries++;
}

static int
by_count(const void *a, const void *b)
{
	const struct entry *x = *(struct entry *const *)a;
	const struct entry *y = *(struct entry *const *)b;

	if (x->count != y->count)
		return x->count < y->count ? 1 : -1;
	return strcmp(x->word, y->word);
}

static unsigned long
report(void)
{
	struct entry **v = malloc(nentries * sizeof(*v)), *e;
	unsigned long i, n = 0, sum = 0;

	for (i = 0; i < NBUCKET; i++)
		for (e = bucket[i]; e != NULL; e = e->next)
			v[n++] = e;
	qsort(v, n, sizeof(*v), by_count);
	for (i = 0; i < n; i++)
		sum = sum * 31 + v[i]->count + (unsigned char)v[i]->word[0];
	free(v);
	return sum;
}

int
main(int argc, char **argv)
{
	unsigned long pct = argc > 1 ? strtoul(argv[1], NULL, 10) : 100;
	unsigned long n = 1500000ul * pct / 100, i, sum = 0;
	char w[16];
	int round;

	for (round = 0; round < 3; round++) {
		for (i = 0; i < n / 3; i++) {
			make_word(w);
			add(w);
		}
		sum ^= report();
	}
	printf("mixed %lu %lu %lu\n", n, nentries, sum);
	return 0;
}
