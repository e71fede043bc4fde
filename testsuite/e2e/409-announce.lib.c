/* 409-announce: not instrumented; tail calls, so c1 and c2 see worker's site. */
void	c1(long);
void	c2(long);

void
dispatch(int k, long i)
{
	if (k)
		c1(i);
	else
		c2(i);
}
