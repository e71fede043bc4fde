/* SPDX-License-Identifier: MIT */
/*
 * perf.c - the perf_event sampler: a task-clock event per CPU, inherited
 * by every thread (not by fork children), samples (IP, TID) in one ring
 * buffer per CPU, drained into the histogram by a helper thread.
 *
 * No signal is involved, so threads that block signals are sampled and
 * no blocking call of the program is ever interrupted.  An inherited
 * per-task event cannot be mmap'd with cpu = -1, hence one per CPU.
 * The helper is created before the events are opened, so it is not
 * sampled itself; it blocks every signal.
 */
#include <sys/eventfd.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>

#include <errno.h>
#include <linux/perf_event.h>
#include <poll.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdint.h>
#include <string.h>
#include <unistd.h>

#include "internal.h"

struct ring {
	int		 fd;
	struct perf_event_mmap_page *meta;
	char		*data;
	size_t		 size;		/* data bytes, a power of two */
};

static struct ring *rings;
static int	 nrings;
static size_t	 ringslen;	/* bytes mapped for rings[] */
static size_t	 maplen;	/* bytes mapped per ring */
static int	 ctlfd = -1;
static int	 stopping;
static int	 draining;
static pthread_t helper;

/* Copy len bytes at ring offset off, across the wrap. */
static void
ring_copy(const struct ring *r, uint64_t off, void *dst, size_t len)
{
	size_t at = (size_t)(off & (r->size - 1));
	size_t first = r->size - at;

	if (first >= len)
		memcpy(dst, r->data + at, len);
	else {
		memcpy(dst, r->data + at, first);
		memcpy((char *)dst + first, r->data, len - first);
	}
}

static void
ring_drain(struct ring *r)
{
	struct perf_event_header h;
	uint64_t head, tail, rec[8];
	size_t n;

	head = __atomic_load_n(&r->meta->data_head, __ATOMIC_ACQUIRE);
	tail = r->meta->data_tail;
	while (tail < head) {
		ring_copy(r, tail, &h, sizeof(h));
		if (h.size < sizeof(h))
			break;
		n = h.size < sizeof(rec) ? h.size : sizeof(rec);
		ring_copy(r, tail, rec, n);
		if (h.type == PERF_RECORD_SAMPLE && n >= 16)
			__mon_hist_tick((uintptr_t)rec[1]);
		else if (h.type == PERF_RECORD_LOST && n >= 24)
			MON_ADD(&__mon_state.lost, (long)rec[2]);
		tail += h.size;
	}
	__atomic_store_n(&r->meta->data_tail, tail, __ATOMIC_RELEASE);
}

/*
 * Empty every ring into the histogram.  One drainer at a time: with
 * wait, wait a while for the other one (the helper, another thread).
 */
void
__mon_perf_drain(int wait)
{
	int i, zero, tries = wait ? 10000 : 1;

	for (;;) {
		zero = 0;
		if (MON_CAS(&draining, &zero, 1))
			break;
		if (--tries <= 0)
			return;
		sched_yield();
	}
	for (i = 0; i < MON_LOAD(&nrings); i++)
		ring_drain(&rings[i]);
	MON_STORE(&draining, 0);
}

static void *
helper_main(void *arg)
{
	struct pollfd pfd[1 + 1024];
	uint64_t v;
	int i, n;

	(void)arg;
	for (;;) {
		n = MON_LOAD(&nrings);
		if (n > 1024)
			n = 1024;
		pfd[0].fd = ctlfd;
		pfd[0].events = POLLIN;
		for (i = 0; i < n; i++) {
			pfd[1 + i].fd = rings[i].fd;
			pfd[1 + i].events = POLLIN;
		}
		if (poll(pfd, 1 + n, -1) < 0 && errno != EINTR)
			return NULL;
		if (pfd[0].revents != 0 && read(ctlfd, &v, sizeof(v)) < 0 &&
		    errno != EAGAIN)
			return NULL;
		if (MON_LOAD(&stopping))
			return NULL;
		__mon_perf_drain(0);
	}
}

static int
helper_start(void)
{
	sigset_t all, old;
	int rc;

	if ((ctlfd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK)) < 0)
		return -1;
	MON_STORE(&stopping, 0);
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	rc = pthread_create(&helper, NULL, helper_main, NULL);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (rc != 0) {
		close(ctlfd);
		ctlfd = -1;
		return -1;
	}
	return 0;
}

static void
helper_poke(void)
{
	uint64_t one = 1;

	if (write(ctlfd, &one, sizeof(one)) < 0)
		return;
}

static void
helper_stop(void)
{
	MON_STORE(&stopping, 1);
	helper_poke();
	pthread_join(helper, NULL);
	close(ctlfd);
	ctlfd = -1;
}

static size_t
data_pages(long rate)
{
	size_t want, p;

	/* About a second of one CPU's samples (24 bytes each). */
	want = (size_t)rate * 24 / 4096;
	for (p = 8; p < want && p < 256; p <<= 1)
		continue;
	return p;
}

static int
open_cpu(struct perf_event_attr *a, int cpu, struct ring *r, size_t pg)
{
	int fd;
	void *m;

	fd = (int)syscall(SYS_perf_event_open, a, 0, cpu, -1,
	    PERF_FLAG_FD_CLOEXEC);
	if (fd < 0)
		return -1;
	m = mmap(NULL, maplen, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (m == MAP_FAILED) {
		close(fd);
		return -1;
	}
	r->fd = fd;
	r->meta = m;
	r->data = (char *)m + pg;
	r->size = maplen - pg;
	return 0;
}

/* Open the events (0) or fail (-1, nothing left open). */
int
__mon_perf_start(long rate)
{
	struct perf_event_attr a;
	long ncpu, i, pg;
	int n, saved = errno;

	pg = sysconf(_SC_PAGESIZE);
	ncpu = sysconf(_SC_NPROCESSORS_CONF);
	if (ncpu < 1 || pg < 1)
		goto fail;
	maplen = (1 + data_pages(rate)) * (size_t)pg;
	ringslen = ((size_t)ncpu * sizeof(struct ring) + pg - 1) &
	    ~(size_t)(pg - 1);
	rings = mmap(NULL, ringslen, PROT_READ | PROT_WRITE,
	    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (rings == MAP_FAILED)
		goto fail;
	memset(&a, 0, sizeof(a));
	a.size = sizeof(a);
	a.type = PERF_TYPE_SOFTWARE;
	a.config = PERF_COUNT_SW_TASK_CLOCK;
	a.sample_period = 1000000000UL / (unsigned long)rate;
	a.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID;
	a.exclude_kernel = 1;
	a.exclude_hv = 1;
	a.inherit = 1;
	a.inherit_thread = 1;	/* threads, not fork children (5.13+) */
	a.watermark = 1;
	a.wakeup_watermark = (uint32_t)((maplen - pg) / 2);
	if (helper_start() != 0)
		goto fail_rings;
	for (i = n = 0; i < ncpu; i++)
		if (open_cpu(&a, (int)i, &rings[n], (size_t)pg) == 0)
			n++;
	if (n == 0) {
		helper_stop();
		goto fail_rings;
	}
	MON_STORE(&nrings, n);
	helper_poke();
	errno = saved;
	return 0;
fail_rings:
	munmap(rings, ringslen);
	rings = NULL;
fail:
	errno = saved;
	return -1;
}

/* moncontrol: stop the events (they and their inherited copies) or
 * restart them; what was sampled before the stop is drained. */
void
__mon_perf_enable(int on)
{
	int i, n = MON_LOAD(&nrings);

	for (i = 0; i < n; i++)
		ioctl(rings[i].fd, on ? PERF_EVENT_IOC_ENABLE :
		    PERF_EVENT_IOC_DISABLE, 0);
	if (!on)
		__mon_perf_drain(1);
}

void
__mon_perf_stop(void)
{
	int i, n = nrings;

	for (i = 0; i < n; i++)
		ioctl(rings[i].fd, PERF_EVENT_IOC_DISABLE, 0);
	helper_stop();
	__mon_perf_drain(1);
	MON_STORE(&nrings, 0);
	for (i = 0; i < n; i++) {
		munmap(rings[i].meta, maplen);
		close(rings[i].fd);
	}
	munmap(rings, ringslen);
	rings = NULL;
}

/*
 * fork child: the events and the helper are the parent's (the ring
 * mappings are not even copied); drop them without draining.
 */
void
__mon_perf_forget(void)
{
	int i;

	for (i = 0; i < nrings; i++)
		close(rings[i].fd);
	MON_STORE(&nrings, 0);
	if (ctlfd >= 0)
		close(ctlfd);
	ctlfd = -1;
	MON_STORE(&draining, 0);
	if (rings != NULL)
		munmap(rings, ringslen);
	rings = NULL;
}
