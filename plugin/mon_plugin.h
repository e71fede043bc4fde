/* SPDX-License-Identifier: MIT */
/*
 * mon_plugin.h - what the plugin's files give each other.  Each uses
 * only those below it (testsuite/tools/plugin-layers.sh checks it):
 *
 *	mon_plugin.c		plugin_init: the arguments, the pass
 *	mon_instrument.c	the function entries (-p, -pg)
 *	mon_sites.c		-pg call sites announced to their callees
 *	mon_area.c		-fPIC code's words in the runtime's area
 *	mon_gimple.c		the options, the runtime's decls, GIMPLE pieces
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
	bool		 reference;	/* one locked count at each entry */
	int		 guard;		/* guard=: 1 yes, 0 no, -1 -fPIC code */
};

extern struct mon_options mon_opt;

/* The runtime hooks' decls, which the garbage collector must not free. */
extern const struct ggc_root_tab mon_roots[];
extern const struct ggc_root_tab mon_gimple_roots[];

/* mon_gimple.c (the rest of it below) */
const char	*mon_skip_reason(tree fndecl);

/*
 * The blocks of a test: test[0] .. test[ntest - 1] each fall through
 * (likely) to the next and on to hot; each false edge goes to slow
 * (unlikely, placed last); hot and slow meet in join, which goes on to
 * the code that was there.
 */
struct mon_blocks {
	basic_block	test[4];
	basic_block	hot;
	basic_block	slow;
	basic_block	join;
};

/* The x86-64 call of a register-preserving stub (mon_stub_call). */
#define MON_STUB_CALL(set_r11, push, name, pop)				\
	set_r11 "\n\t"							\
	"{lea\t-128(%%rsp), %%rsp|lea\trsp, [rsp-128]}\n\t"		\
	push								\
	"{call\t*" name "@GOTPCREL(%%rip)"				\
	"|call\t[QWORD PTR " name "@GOTPCREL[rip]]}\n\t"		\
	pop

/*
 * The stubs' two calls: a C-calling one told %rax and the address of
 * operand 1 in %r11 (-p, a call site), and the -pg one told the return
 * address in %r11 with operands 3 and 2 pushed.
 */
#define MON_LEA_STUB_CALL(name) MON_STUB_CALL(				\
	"{lea\t%1, %%r11|lea\tr11, %1}", "", name,			\
	"{lea\t128(%%rsp), %%rsp|lea\trsp, [rsp+128]}")
#define MON_ARC_STUB_CALL(name) MON_STUB_CALL(				\
	"{mov\t%1, %%r11|mov\tr11, %1}", "push\t%3\n\tpush\t%2\n\t", name,	\
	"{lea\t144(%%rsp), %%rsp|lea\trsp, [rsp+144]}")

/* mon_gimple.c */
tree		mon_extern_tls(tree *slot, const char *name, tree type);
tree		mon_new_var(const char *prefix, tree type, bool tls);
tree		mon_new_var_in(const char *prefix, tree type,
		    const char *name);
tree		mon_addr_of(gimple_stmt_iterator *gsi, tree var);
bool		mon_gs_ok(void);
bool		mon_static_ok(void);
tree		mon_gs_word(const char *prefix, tree type);
const char	*mon_pcell_text(const char *pc, tree var);
tree		mon_gs_load(gimple_stmt_iterator *gsi, tree var);
void		mon_split_edge(function *fun, edge e, int ntest,
		    struct mon_blocks *b);
void		mon_test(gimple_stmt_iterator *gsi, enum tree_code code,
		    tree a, tree b);
void		mon_drop_slow(struct mon_blocks *b, int ntest);
bool		mon_guarded(void);
void		mon_guard_test(gimple_stmt_iterator *gsi);
void		mon_guard(basic_block first, basic_block skip);
tree		mon_pointer_plus(gimple_stmt_iterator *gsi, tree p, tree off);
void		mon_increment(gimple_stmt_iterator *gsi, tree p,
		    HOST_WIDE_INT offset);
void		mon_stub_call(gimple_stmt_iterator *gsi, const char *text,
		    tree rax, const char *r11_constraint, tree r11, tree pushed,
		    tree pushed2);
tree		mon_site_rec(void);
tree		mon_exe(void);
tree		mon_site_modoff(void);
tree		mon_sites_fn(bool del);
bool		mon_x86_64(void);
bool		mon_in_executable(void);
tree		mon_weak_call(tree fn, int n, tree *args, const char *more);
extern bool	mon_building_cdtor;

/* mon_instrument.c */
unsigned int	mon_instrument(function *fun);

/* mon_area.c */
extern const struct ggc_root_tab mon_area_roots[];
bool		mon_area_ok(void);
HOST_WIDE_INT	mon_area_new_word(void);
tree		mon_area_ptr(gimple_stmt_iterator *gsi);
void		mon_area_test(gimple_stmt_iterator *gsi, HOST_WIDE_INT k,
		    tree *ap, tree *offp);
tree		mon_area_load(gimple_stmt_iterator *gsi, tree a, tree off,
		    tree type);
void		mon_area_finish(void *gcc_data, void *user_data);

/* mon_sites.c */
void		mon_announce_sites(function *fun);
void		mon_sites_finish(void *gcc_data, void *user_data);

#endif
