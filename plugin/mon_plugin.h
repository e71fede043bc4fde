/* SPDX-License-Identifier: MIT */
/*
 * mon_plugin.h - what the plugin's argument parsing (mon_plugin.c) hands
 * to the instrumentation (mon_instrument.c).
 */
#ifndef MON_PLUGIN_H
#define MON_PLUGIN_H

enum mon_update {
	MON_UPDATE_THREAD,
	MON_UPDATE_SINGLE,
	MON_UPDATE_ATOMIC,
};

extern enum mon_update	mon_update_mode;
extern enum tls_model	mon_tls;	/* TLS_MODEL_NONE: automatic */
extern bool		mon_verbose;
extern bool		mon_pg;		/* -pg: call-graph arcs */

/* The runtime hooks' decls, which the garbage collector must not free. */
extern const struct ggc_root_tab mon_roots[];

unsigned int	mon_instrument(function *fun);

#endif
