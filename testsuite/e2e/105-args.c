/*
 * 105-args: monitor() and profil() refuse what they cannot use, with -1
 * and errno, change nothing, and never crash; monstartup() and profil()
 * work with good arguments.  Exit status: the number of the first check
 * that failed, 0 if all passed.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>

#include "../tools/hooks.h"

static WORD buf[4096] __attribute__((aligned(16)));
static unsigned short samples[1024];

COUNTED static int
f(void)
{
	MON_COUNT();
	return 1;
}

#define CHECK(n, e)	do { if (!(e)) return (n); } while (0)
#define LO	((int (*)(void))f)
#define HI	((int (*)(void))((char *)f + 4096))

int
main(void)
{
	size_t ssiz = (sizeof(struct hdr) + 8 * sizeof(struct cnt)) / sizeof(WORD);

	errno = 0;
	CHECK(1, monitor(LO, HI, NULL, 4096, 8) == -1 && errno == EINVAL);
	errno = 0;
	CHECK(2, monitor(HI, LO, buf, 4096, 8) == -1 && errno == EINVAL);
	errno = 0;
	CHECK(3, monitor(LO, LO, buf, 4096, 8) == -1 && errno == EINVAL);
	errno = 0;
	CHECK(4, monitor(LO, HI, buf, ssiz, 8) == -1 && errno == EINVAL);
	errno = 0;
	CHECK(5, monitor(LO, HI, buf, 4096, SIZE_MAX / 8) == -1 &&
	    errno == EINVAL);
	CHECK(6, ((struct hdr *)buf)->lpc == NULL);	/* untouched */
	errno = 0;
	CHECK(7, monstartup((char *)HI, (char *)LO) == -1 && errno == EINVAL);
	errno = 0;
	CHECK(8, profil(NULL, 100, 0, 0x8000) == -1 && errno == EFAULT);
	errno = 0;
	CHECK(9, profil(samples, 1, 0, 0x8000) == -1 && errno == EINVAL);
	errno = 0;
	CHECK(10, profil((unsigned short *)8, 4096, 0, 0x8000) == -1 &&
	    errno == EFAULT);
	CHECK(11, profil(samples, sizeof(samples), 0, 0) == 0);
	/* A buffer just big enough: one bin. */
	CHECK(12, monitor(LO, HI, buf, ssiz + 1, 8) == 0);
	CHECK(13, monstartup(NULL, NULL) == 0);
	f();
	CHECK(14, monitor(NULL, NULL, NULL, 0, 0) == 0);
	/* Stopping twice is harmless. */
	CHECK(15, monitor(NULL, NULL, NULL, 0, 0) == 0);
	return 0;
}
