/*
 * 413-split: a call that GCC makes without a line (the call of a
 * function's split-off part, fnsplit's freeS.part.0) is a call site too:
 * the plugin's asm beside it once had no file name, and GCC crashed in
 * final (zstd's pool.c).  main calls make() 7 times, 3 of them failing
 * (freeS on its error path), then freeS on the others.
 */
#include <pthread.h>
#include <stdlib.h>
struct S { int n; pthread_mutex_t m; pthread_cond_t c; void **p; };
static void
join(struct S *s)
{
	int i;

	pthread_mutex_lock(&s->m);
	for (i = 0; i < s->n; i++)
		pthread_cond_broadcast(&s->c);
	pthread_mutex_unlock(&s->m);
}
void
freeS(struct S *s)
{
	if (s == NULL)
		return;
	join(s);
	pthread_mutex_destroy(&s->m);
	pthread_cond_destroy(&s->c);
	free(s->p);
	free(s);
}
struct S *
make(int n)
{
	struct S *s = calloc(1, sizeof(*s));

	if (s == NULL)
		return NULL;
	s->n = n;
	s->p = n < 0 ? NULL : calloc(n, sizeof(void *));
	if (pthread_mutex_init(&s->m, NULL) | pthread_cond_init(&s->c, NULL)) {
		freeS(s);
		return NULL;
	}
	if (s->p == NULL) {
		freeS(s);
		return NULL;
	}
	return s;
}

int
main(void)
{
	struct S *s;
	int i;

	for (i = 0; i < 7; i++)
		if ((s = make(i % 3 == 0 ? -1 : 4)) != NULL)
			freeS(s);
	return 0;
}
