/*
 * 415-inlined: a global function that GCC inlines into callers of its
 * own unit (getshort, into twice, and into field's tail call) and that
 * another unit (415-inlined.main.c) calls out of line.  Hook ABI 9 took
 * an inline copy's "local" for the function's own and counted getshort
 * only at its unit's call sites: the other unit's calls were lost
 * (issue 35; this shape is make fuzz-counts' first find, at -O1).
 * twice's address is taken (fp), as it was there.  half, static, is
 * called directly here (inlined at -O2) and through a pointer there.
 */
unsigned short getshort(const unsigned char *p);
unsigned long twice(const unsigned char *p);
unsigned long field(int type, const unsigned char *p);
long (*half_ptr(void))(long);
long halves(long a);

unsigned short
getshort(const unsigned char *p)
{
	return (unsigned short)(p[0] << 8 | p[1]);
}

__attribute__((noinline)) unsigned long
twice(const unsigned char *p)
{
	return getshort(p) + getshort(p + 2);
}

unsigned long
field(int type, const unsigned char *p)
{
	return type == 2 ? getshort(p) : twice(p);
}

unsigned long (*fp)(const unsigned char *) = twice;

static long
half(long a)
{
	return a / 2 + (a & 1);
}

long
halves(long a)
{
	return half(a) * 2;
}

long
(*half_ptr(void))(long)
{
	return half;
}
