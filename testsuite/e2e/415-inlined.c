/*
 * 415-inlined: a global function that GCC inlines into a caller of its
 * own unit (getshort, a tail call in decode's switch) and that another
 * unit (415-inlined.main.c) calls out of line.  Hook ABI 9 took its
 * inline copy's "local" for its own and counted it only at its unit's
 * call sites: the other unit's calls were lost (issue 35).
 */
int getshort(const unsigned char *p);
int decode(int op, const unsigned char *p);
long (*half_ptr(void))(long);
long twice(long a);

int
getshort(const unsigned char *p)
{
	return p[0] | (p[1] << 8);
}

int
decode(int op, const unsigned char *p)
{
	switch (op) {
	case 1:
		return p[0];
	case 2:
		return getshort(p);
	default:
		return -1;
	}
}

/* A static function called directly here and through a pointer there. */
static long
half(long a)
{
	return a / 2 + (a & 1);
}

long
twice(long a)
{
	return half(a) * 2;
}

long
(*half_ptr(void))(long)
{
	return half;
}
