/* 415-entry2's other unit: n calls of gf, through its counted entry. */
unsigned long gf(unsigned long a);
unsigned long other_unit(unsigned long n);

unsigned long
other_unit(unsigned long n)
{
	unsigned long i, s = 0;

	for (i = 0; i < n; i++)
		s += gf(i);
	return s;
}
