/* SPDX-License-Identifier: MIT */
/*
 * control.h - what starts, switches, dumps and stops profiling: the one
 * dump path (dump.c), the writer process of the last profile (final.c),
 * monitor(3) (monitor.c), profil(2) (profil.c),
 * signals (signal.c), automatic start and exit (init.c).  The public
 * names (mon.h) are weak aliases of the reserved names declared here.
 */
#ifndef MON_CONTROL_H
#define MON_CONTROL_H

#include "writer.h"

/* dump.c */
int	 __mon_dump_write(int) MON_HIDDEN;
void	 __mon_dump_thread(void) MON_HIDDEN;
void	 __mon_dump_reset(void) MON_HIDDEN;

/* forced.c */
void	 __mon_forced_disposed(int, void (*)(int)) MON_HIDDEN;
void	 __mon_forced_check(void) MON_HIDDEN;

/* gsbase.c */
int	 __mon_gsbase_refuse(long) MON_HIDDEN;

/* final.c */
int	 __mon_final_start(int (*)(void)) MON_HIDDEN;
int	 __mon_final_ready(void) MON_HIDDEN;
int	 __mon_final_finish(void) MON_HIDDEN;
void	 __mon_final_nap(long, int) MON_HIDDEN;
void	 __mon_final_reset(void) MON_HIDDEN;

/* monitor.c */
int	 __monitor(int (*)(void), int (*)(void), WORD *, size_t, size_t)
	    MON_HIDDEN;
int	 __monstartup(char *, char *) MON_HIDDEN;
int	 __moncontrol(int) MON_HIDDEN;
#define MON_STOP_QUIET	0	/* __mon_monitor_stop: write nothing */
#define MON_STOP_NOW	1	/* write the profile now (monitor(0)) */
#define MON_STOP_FINAL	2	/* the last profile (exit) */

void	 __mon_monitor_stop(int) MON_HIDDEN;
int	 __mon_monitor_dump(int) MON_HIDDEN;
int	 __mon_monitor_dump_interval(void) MON_HIDDEN;
void	 __mon_monitor_end(void) MON_HIDDEN;
int	 __mon_monitor_exiting(void) MON_HIDDEN;
int	 __mon_monitor_confine(void) MON_HIDDEN;
int	 __mon_monitor_forced(void) MON_HIDDEN;
int	 __mon_monitor_running(void) MON_HIDDEN;
void	 __mon_monitor_reset(void) MON_HIDDEN;

/* profil.c */
int	 __profil(unsigned short *, size_t, size_t, unsigned int) MON_HIDDEN;

/* signal.c */
void	 __monitor_signal(int) MON_HIDDEN;
void	 __mon_signal_setup(void) MON_HIDDEN;
void	 __mon_signal_check(void) MON_HIDDEN;
void	 __mon_signal_withdraw(void) MON_HIDDEN;
void	 __mon_signal_restore(void) MON_HIDDEN;

/* init.c */
void	 __mon_init(void) MON_EXPORT;

#endif /* MON_CONTROL_H */
