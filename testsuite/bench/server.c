/* SPDX-License-Identifier: MIT */
/*
 * server.c - bench workload for the sampler: a threaded cache server.
 * 2 client threads (or argv[2]) each send short get/set requests over a
 * socketpair to a worker thread of their own, which blocks in read(),
 * looks the key up under a lock and answers: every request is two
 * blocking calls and about four context switches, the work between them
 * tiny, as in a memcached under load.  The bench compares CPU time.
 * Usage: server [PERCENT [NPAIRS]]
 */
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/wait.h>

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define NOINLINE __attribute__((noinline, noclone))
#define NKEY	4096
#define NPAIR	64

static long table[NKEY];
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static unsigned long nreq;

NOINLINE static unsigned
s_hash(unsigned k)
{
	k ^= k >> 16;
	k *= 0x45d9f3b;
	k ^= k >> 16;
	return k % NKEY;
}

NOINLINE static long
s_lookup(unsigned k, long v, int set)
{
	long r;

	pthread_mutex_lock(&lock);
	if (set)
		table[s_hash(k)] = v;
	r = table[s_hash(k)];
	pthread_mutex_unlock(&lock);
	return r;
}

NOINLINE static void *
s_worker(void *arg)
{
	int fd = *(int *)arg;
	unsigned req[3];
	long ans;

	while (read(fd, req, sizeof(req)) == sizeof(req)) {
		ans = s_lookup(req[0], req[1], req[2]);
		if (write(fd, &ans, sizeof(ans)) != sizeof(ans))
			break;
	}
	return NULL;
}

NOINLINE static void *
s_client(void *arg)
{
	int fd = *(int *)arg;
	unsigned long i, sum = 0;
	unsigned req[3];
	long ans;

	for (i = 0; i < nreq; i++) {
		req[0] = (unsigned)i * 7;
		req[1] = (unsigned)i;
		req[2] = (i & 3) == 0;
		if (write(fd, req, sizeof(req)) != sizeof(req) ||
		    read(fd, &ans, sizeof(ans)) != sizeof(ans))
			abort();
		sum += (unsigned long)ans;
	}
	shutdown(fd, SHUT_WR);
	return (void *)sum;
}

/* The clients' process: argv = client NREQ FD... */
static int
clients(int argc, char **argv)
{
	pthread_t c[NPAIR];
	int fd[NPAIR], i, n = argc - 3;

	nreq = strtoul(argv[2], NULL, 10);
	for (i = 0; i < n && i < NPAIR; i++) {
		fd[i] = atoi(argv[3 + i]);
		pthread_create(&c[i], NULL, s_client, &fd[i]);
	}
	for (i = 0; i < n && i < NPAIR; i++)
		pthread_join(c[i], NULL);
	return 0;
}

int
main(int argc, char **argv)
{
	unsigned long pct, n, i;
	const char *cl = getenv("SERVER_CLIENT");
	char *args[NPAIR + 4], num[NPAIR + 1][24];
	pthread_t w[NPAIR], c[NPAIR];
	int sv[NPAIR][2], st;
	struct rusage ru;
	pid_t pid = -1;

	if (argc > 3 && strcmp(argv[1], "client") == 0)
		return clients(argc, argv);
	pct = argc > 1 ? strtoul(argv[1], NULL, 10) : 100;
	n = argc > 2 ? strtoul(argv[2], NULL, 10) : 4;
	if (n < 1 || n > NPAIR)
		return 2;
	nreq = 150000 * pct / 100;
	for (i = 0; i < n; i++) {
		if (socketpair(AF_UNIX, SOCK_STREAM, 0, sv[i]) != 0)
			return 1;
		pthread_create(&w[i], NULL, s_worker, &sv[i][0]);
	}
	if (cl != NULL) {
		/* The clients in a process of their own, not profiled. */
		args[0] = (char *)cl;
		args[1] = (char *)"client";
		snprintf(num[0], sizeof(num[0]), "%lu", nreq);
		args[2] = num[0];
		for (i = 0; i < n; i++) {
			snprintf(num[i + 1], sizeof(num[i + 1]), "%d", sv[i][1]);
			args[3 + i] = num[i + 1];
		}
		args[3 + n] = NULL;
		if ((pid = fork()) == 0) {
			execv(cl, args);
			_exit(127);
		}
		for (i = 0; i < n; i++)
			close(sv[i][1]);
	} else
		for (i = 0; i < n; i++)
			pthread_create(&c[i], NULL, s_client, &sv[i][1]);
	for (i = 0; i < n; i++) {
		if (cl == NULL)
			pthread_join(c[i], NULL);
		pthread_join(w[i], NULL);
	}
	if (pid > 0 && (waitpid(pid, &st, 0) != pid || st != 0))
		return 3;
	getrusage(RUSAGE_SELF, &ru);
	printf("%lu requests, cpu %.3f\n", n * nreq,
	    ru.ru_utime.tv_sec + ru.ru_utime.tv_usec / 1e6 +
	    ru.ru_stime.tv_sec + ru.ru_stime.tv_usec / 1e6);
	return 0;
}
