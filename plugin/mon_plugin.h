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

/* The plugin's arguments, as parsed once in plugin_init. */
struct mon_options {
	enum mon_update	 update;
	bool		 update_given;	/* update= (else -fprofile-update) */
	enum tls_model	 tls;		/* TLS_MODEL_NONE: automatic */
	bool		 verbose;
	bool		 pg;		/* -pg: call-graph arcs */
};

extern struct mon_options mon_opt;

/* The runtime hooks' decls, which the garbage collector must not free. */
extern const struct ggc_root_tab mon_roots[];

unsigned int	mon_instrument(function *fun);

#endif
