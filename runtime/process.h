/* SPDX-License-Identifier: MIT */
/*
 * process.h - facts about the process: which process it is (self.c),
 * a thread of its own that glibc does not count (rawthread.c), glibc's
 * word that it is single-threaded after one that glibc counts (single.c), the main
 * executable (exe.c), the mappings of every object (maps.c) and the
 * environment (env.c).
 */
#ifndef MON_PROCESS_H
#define MON_PROCESS_H

#include "base.h"

/* self.c */
#define MON_SELF_SAME	0	/* the process set up */
#define MON_SELF_COPY	1	/* a raw fork's child: a copy of its memory */
#define MON_SELF_SHARED	2	/* vfork's child: its memory, not to touch */

void	 __mon_self_record(void) MON_HIDDEN;
int	 __mon_self_which(void) MON_HIDDEN;
long	 __mon_self_pid(void) MON_HIDDEN;
int	 __mon_self_tid(void) MON_HIDDEN;
void	 __mon_self_renew(void) MON_HIDDEN;
int	 __mon_self_take(long *) MON_HIDDEN;

/* rawthread.c: a thread of the runtime's that glibc does not count */
struct __mon_rawthread {
	void	*stack;		/* its mapping, a guard page first */
	size_t	 stacklen;
	void	*tcb;		/* its thread pointer: glibc's TLS and head */
	int	*tid;		/* in tcb: the kernel sets it, clears it at the end */
	int	 running;	/* started in this process, not joined */
	void	*(*fn)(void *);
	void	*arg;
};

uint32_t __mon_rawthread_field(const char *, uint32_t *) MON_HIDDEN;
int	 __mon_rawthread_possible(void) MON_HIDDEN;
int	 __mon_rawthread_start(struct __mon_rawthread *, size_t,
	    void *(*)(void *), void *) MON_HIDDEN;
void	 __mon_rawthread_join(struct __mon_rawthread *) MON_HIDDEN;
void	 __mon_rawthread_forget(struct __mon_rawthread *) MON_HIDDEN;

/* single.c: glibc's single-threaded flag, after the runtime's thread */
void	 __mon_single_runtime(void) MON_HIDDEN;
void	 __mon_single_program(void) MON_HIDDEN;
void	 __mon_single_again(void) MON_HIDDEN;

/* exit.c: the program's exit(), one thread at a time */
void	 __mon_exit_reached(void (*)(void)) MON_HIDDEN;
void	 __mon_exit_busy(int) MON_HIDDEN;
void	 __mon_exit_started(void) MON_HIDDEN;
uintptr_t __mon_exit_caller(uintptr_t) MON_HIDDEN;

/* exe.c: the main executable, as loaded */
void	 __mon_exe_find(void) MON_HIDDEN;
void	 __mon_exe_text(uintptr_t *, uintptr_t *) MON_HIDDEN;
void	 __mon_exe_runtime(uintptr_t *, uintptr_t *) MON_HIDDEN;
int	 __mon_exe_in_text(uintptr_t) MON_HIDDEN;
int	 __mon_exe_overlaps(uintptr_t, uintptr_t) MON_HIDDEN;
uintptr_t __mon_exe_linktime(uintptr_t) MON_HIDDEN;
uintptr_t __mon_exe_bias(void) MON_HIDDEN;
long	 __mon_exe_buildid(void) MON_HIDDEN;
const char *__mon_exe_progname(void) MON_HIDDEN;
const char *__mon_exe_path(void) MON_HIDDEN;

/* maps.c: executable file mappings */
#define MON_MAPS_PAGE	4096	/* an ELF header's notes lie in it */

struct __mon_maps {
	char		 buf[2 * (PATH_MAX + 128)];	/* two lines */
	unsigned char	 page[MON_MAPS_PAGE];
	uintptr_t	 headlo, headhi;
	char		 head[PATH_MAX];
};

struct __mon_mapping {
	uintptr_t	 lo, hi;
	uintptr_t	 off;		/* the file offset mapped at lo */
	long		 buildid;	/* first 8 bytes, 0: none found */
	const char	*path;
};

void	 __mon_maps_each(struct __mon_maps *,
	    void (*)(const struct __mon_mapping *, void *), void *) MON_HIDDEN;

/* env.c: PROFDIR, PROFFLAGS and GMON_OUT_PREFIX, parsed */
#define MON_RATE_DEFAULT	1000	/* Hz, PROFFLAGS -rate's default */
#define MON_RATE_MAX		100000	/* the kernel's default sample cap */

struct __mon_env {
	int		 disabled;	/* PROFDIR set and empty */
	int		 disable_default;
	int		 pids;		/* <pid>.<prog> names */
	int		 itimer;	/* force the CPU-time timer sampler */
	int		 cpuwide;	/* perf scope: 1 cpu, 0 task then cpu, -1 task */
	int		 nofatal;	/* no write when a signal kills us */
	int		 secure;	/* setuid/setgid: AT_SECURE */
	long		 rate;		/* Hz requested, 0: default */
	int		 sigdump;	/* signal number, 0: none */
	char		 sigdump_arg[32];	/* -sigdump's word, as written */
	int		 stride;	/* -stride: bytes per bin, 0: one per object */
	int		 all;		/* -all: every object's functions */
	int		 threads;	/* -threads: a file per thread */
	int		 nostacks;	/* -nostacks: samples without stacks */
	int		 kernel;	/* -kernel: kernel-mode time too (perf) */
	int		 classic;	/* -classic: the classic mon.out, not compact */
	int		 merge;		/* -merge: added into the program's one */
	long		 stackcopy;	/* -stackcopy: bytes, 0: the default */
	size_t		 nobjs;		/* -incobj and -excobj names */
	char		 objs[PATH_MAX];	/* each "+name" or "-name", NUL-ended */
	char		 dir[PATH_MAX];	/* "" : current directory */
	char		 gmon_prefix[PATH_MAX];	/* GMON_OUT_PREFIX, "": unset */
};

#define MON_STRIDE_DEFAULT	BARSIZE

int	 __mon_env_parse(struct __mon_env *, const char *, const char *)
	    MON_HIDDEN;
int	 __mon_env_selects(const char *, int) MON_HIDDEN;
void	 __mon_env_load(void) MON_HIDDEN;
const struct __mon_env *__mon_env_get(void) MON_HIDDEN;
int	 __mon_env_profile_path(char *, size_t) MON_HIDDEN;
int	 __mon_env_gmon_path(char *, size_t) MON_HIDDEN;
int	 __mon_env_merged_path(char *, size_t, long) MON_HIDDEN;
int	 __mon_env_own_path(char *, size_t) MON_HIDDEN;
int	 __mon_env_thread_path(char *, size_t, long) MON_HIDDEN;
size_t	 __mon_env_signame(int, char *, size_t) MON_HIDDEN;

#endif /* MON_PROCESS_H */
