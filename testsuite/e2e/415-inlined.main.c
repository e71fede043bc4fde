/*
 * 415-inlined's other unit: 1000 calls of getshort out of line, 100
 * more from tail (a tail call at -O2), 100 of field (which calls
 * getshort or twice, inlined or not), 500 of halves and 500 of half,
 * a static of the other unit, through a pointer.
 */
#include <stdio.h>

unsigned short getshort(const unsigned char *p);
unsigned long field(int type, const unsigned char *p);
long (*half_ptr(void))(long);
long halves(long a);

__attribute__((noinline)) static unsigned long
tail(const unsigned char *p)
{
	return getshort(p + 1);
}

int
main(void)
{
	unsigned char buf[1200];
	long (*volatile half)(long) = half_ptr();
	unsigned long s = 0;
	int i;

	for (i = 0; i < 1200; i++)
		buf[i] = (unsigned char)i;
	for (i = 0; i < 1000; i++)
		s += getshort(buf + i);
	for (i = 0; i < 100; i++)
		s += tail(buf + i);
	for (i = 0; i < 100; i++)
		s += field(i % 5, buf + i);
	for (i = 0; i < 500; i++)
		s += (unsigned long)(halves(i) + half(i));
	printf("%lu\n", s);
	return 0;
}
