/*
 * 162-unknown: code in no object (what a JIT makes): a loop written into
 * an anonymous executable mapping and run, then a function of ours.
 */
#include <sys/mman.h>

#include <stdio.h>
#include <string.h>

static long __attribute__((noinline, noclone))
mine(long n)
{
	long s = 0;

	for (long i = 0; i < n; i++)
		s += i % 11;
	return s;
}

int
main(void)
{
	/* mov $0x30000000, %ecx; 1: dec %ecx; jnz 1b; ret */
	static const unsigned char loop[] = {
		0xb9, 0x00, 0x00, 0x00, 0x30, 0xff, 0xc9, 0x75, 0xfc, 0xc3,
	};
	void *p = mmap(NULL, 4096, PROT_READ | PROT_WRITE | PROT_EXEC,
	    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED) {
		perror("mmap");
		return 77;
	}
	memcpy(p, loop, sizeof(loop));
	((void (*)(void))p)();
	printf("%ld\n", mine(200000000));
	return 0;
}
