/* 170-pcells-threads: a library that starts threads of its own. */
#include <pthread.h>

void spawn(void *(*)(void *), void *, int);

void
spawn(void *(*fn)(void *), void *arg, int n)
{
	pthread_t t[8];
	int i;

	for (i = 0; i < n && i < 8; i++)
		pthread_create(&t[i], NULL, fn, arg);
	for (i = 0; i < n && i < 8; i++)
		pthread_join(t[i], NULL);
}
