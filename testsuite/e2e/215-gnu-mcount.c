/*
 * 215-gnu-mcount: 4 threads call lib_f 100,000 times each, main calls
 * lib_g (which calls lib_f twice) 3 times: lib_f 400,006, lib_g 3.
 */
#include <pthread.h>
#include <stdio.h>
double lib_f(double, int), lib_g(double);
static void *work(void *a) { double s = 0; for (int i = 0; i < 100000; i++) s += lib_f(i, 3); *(double *)a = s; return 0; }
int main(void) { pthread_t t[4]; double r[4], s = 0; int i;
	for (i = 0; i < 4; i++) pthread_create(&t[i], 0, work, &r[i]);
	for (i = 0; i < 4; i++) { pthread_join(t[i], 0); s += r[i]; }
	for (i = 0; i < 3; i++) s += lib_g(i);
	printf("%.1f\n", s); return 0; }
