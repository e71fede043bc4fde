/*
 * 415-inlined's other unit: 1000 calls of getshort out of line, 334 of
 * decode (which has getshort inlined at -O2), 500 of twice (which may
 * have half inlined) and 500 of half, a static of the other unit,
 * through a pointer.
 */
#include <stdio.h>

int getshort(const unsigned char *p);
int decode(int op, const unsigned char *p);
long (*half_ptr(void))(long);
long twice(long a);

int
main(void)
{
	unsigned char b[2] = { 1, 2 };
	long (*volatile half)(long) = half_ptr();
	long s = 0, i;

	for (i = 0; i < 1000; i++)
		s += getshort(b);
	for (i = 0; i < 334; i++)
		s += decode(2, b);
	for (i = 0; i < 500; i++)
		s += twice(i) + half(i);
	printf("%ld\n", s);
	return 0;
}
