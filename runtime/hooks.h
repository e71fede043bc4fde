/* SPDX-License-Identifier: MIT */
/*
 * hooks.h - the hook ABI's entries (mon.h), on top of storage: mcount.c
 * in C, stub.c in x86-64 assembly, thread.c for the threads of ABI 3.
 */
#ifndef MON_HOOKS_H
#define MON_HOOKS_H

#include "storage.h"

/* mcount.c */
void	 __mon_mcount_slow_at(long **, struct cnt **, char *) MON_HIDDEN;
void	 __mon_mcount_disable(int) MON_HIDDEN;
int	 __mon_mcount_disabled(void) MON_HIDDEN;

/* thread.c: pthread_create, the threads it starts known to pcells.c */
#include <pthread.h>
int	 __mon_thread_create(pthread_t *, const pthread_attr_t *,
	    void *(*)(void *), void *) MON_EXPORT;
int	 __mon_thread_plain(pthread_t *, const pthread_attr_t *,
	    void *(*)(void *), void *) MON_HIDDEN;

#endif /* MON_HOOKS_H */
