/* SPDX-License-Identifier: MIT */
/*
 * mon_plugin.c - monprof.so, the GCC plugin behind "cc -p": an exact
 * call count for every function, at the cost of one memory increment.
 *
 * What it inserts.  A GIMPLE pass, run just before "optimized" (so after
 * inlining, cloning and tail-recursion elimination, at every -O level),
 * gives each function two zeroed file-local words and an entry test:
 *
 *	static struct cnt *cell;	the function's cell, shared
 *	static long *word;		__thread in update=thread mode
 *
 *	p = word;
 *	if (p != 0)			likely: the fall-through
 *		*p += 1;		lock add in update=atomic mode
 *	else				out of line
 *		__mon_mcount_slow(&word, &cell);
 *
 * The runtime's slow path (include/mon.h, "Hook ABI") allocates the cell
 * and a counter and publishes it in word.  Counts are therefore mcount's:
 * one per out-of-line entry; clones count as themselves.
 *
 * Update modes (-fplugin-arg-monprof-update=):
 *	thread	default: word is thread-local, every thread has its own
 *		counter, so counts are exact and threads share no cache line.
 *		TLS model: the compiler's default for a local static in
 *		executables (local-exec), initial-exec in -fPIC code so no
 *		__tls_get_addr call is made (tls= overrides this).
 *	single	a plain shared increment: loses counts under threads.
 *	atomic	a shared relaxed atomic increment (lock add).
 * Without update=, -fprofile-update=single|atomic|prefer-atomic given to
 * GCC selects single|atomic|thread.
 *
 * Skipped: functions marked no_instrument_function,
 * no_profile_instrument_function, naked or interrupt; ifunc and
 * target_clones resolvers; names starting __mon_ or __monprof_.
 *
 * With -p or -pg on the command line the plugin clears profile_flag, so
 * neither an mcount call nor a forced frame pointer remains.
 *
 * Debugging: -fplugin-arg-monprof-verbose lists what is instrumented;
 * -fdump-tree-all writes NNNt.monprof (GCC 11 and 12 reject
 * -fdump-tree-monprof); -fchecking verifies the CFG and SSA we build.
 */
#include "compat.h"

#include "mon.h"

int plugin_is_GPL_compatible;

#define MON_VERSION	"0.1"

enum mon_update {
	MON_UPDATE_THREAD,
	MON_UPDATE_SINGLE,
	MON_UPDATE_ATOMIC,
};

static const char *const mon_update_names[] = { "thread", "single", "atomic" };

static const struct mon_tls_name {
	const char	*name;
	enum tls_model	 model;
} mon_tls_names[] = {
	{ "global-dynamic",	TLS_MODEL_GLOBAL_DYNAMIC },
	{ "local-dynamic",	TLS_MODEL_LOCAL_DYNAMIC },
	{ "initial-exec",	TLS_MODEL_INITIAL_EXEC },
	{ "local-exec",		TLS_MODEL_LOCAL_EXEC },
};

static const char mon_help[] =
    "update=thread|single|atomic  counter update mode (default thread:"
    " per-thread counters, exact and contention-free)\n"
    "tls=global-dynamic|local-dynamic|initial-exec|local-exec"
    "  TLS model of the thread mode's word (default: local-exec in"
    " executables, initial-exec with -fPIC)\n"
    "verbose  report each function instrumented or skipped\n"
    "p, pg  markers added by monprof.specs for -p and -pg\n";

static const char mon_keys[] = "update=, tls=, verbose, p, pg";

static enum mon_update	mon_update_mode = MON_UPDATE_THREAD;
static bool		mon_update_given;
static enum tls_model	mon_tls = TLS_MODEL_NONE;	/* NONE: automatic */
static bool		mon_verbose;
static bool		mon_pg;		/* -pg: call-graph arcs */
static tree		mon_slow_decl;
static tree		mon_arc_decl;

static const struct ggc_root_tab mon_roots[] = {
	{ &mon_slow_decl, 1, sizeof(mon_slow_decl), &gt_ggc_mx_tree_node,
	    &gt_pch_nx_tree_node },
	{ &mon_arc_decl, 1, sizeof(mon_arc_decl), &gt_ggc_mx_tree_node,
	    &gt_pch_nx_tree_node },
	LAST_GGC_ROOT_TAB
};

static struct plugin_info mon_plugin_info = { MON_VERSION, mon_help };

/* Attributes that exclude a function, as they exclude it from -pg. */
static const char *const mon_skip_attrs[] = {
	"no_instrument_function",
	"no_profile_instrument_function",
	"naked",
	"interrupt",
};

/*
 * Why fndecl is left alone, or NULL to instrument it.  The front ends'
 * DECL_NO_INSTRUMENT_FUNCTION_ENTRY_EXIT is useless here: without -p it
 * is set on every function, so the attributes are looked up directly.
 */
static const char *
mon_skip_reason(tree fndecl)
{
	cgraph_node *node;
	ipa_ref *ref;
	const char *name;
	size_t i;

	/* -fdump-passes asks every gate about a nameless dummy. */
	if (fndecl == NULL_TREE || DECL_NAME(fndecl) == NULL_TREE)
		return "no name";
	/* x86 "interrupt" is a type attribute, the others decl ones. */
	for (i = 0; i < ARRAY_SIZE(mon_skip_attrs); i++)
		if (lookup_attribute(mon_skip_attrs[i],
		    DECL_ATTRIBUTES(fndecl)) != NULL_TREE ||
		    lookup_attribute(mon_skip_attrs[i],
		    TYPE_ATTRIBUTES(TREE_TYPE(fndecl))) != NULL_TREE)
			return mon_skip_attrs[i];
	name = IDENTIFIER_POINTER(DECL_NAME(fndecl));
	if (strncmp(name, "__mon_", 6) == 0 ||
	    strncmp(name, "__monprof_", 10) == 0)
		return "runtime";
	/*
	 * An ifunc resolver (also a target_clones "f.resolver") runs while
	 * the dynamic linker relocates, before TLS and the runtime exist.
	 * The ifunc symbol is an alias of its resolver.
	 */
	if ((node = cgraph_node::get(fndecl)) != NULL) {
		FOR_EACH_ALIAS(node, ref)
			if (lookup_attribute("ifunc",
			    DECL_ATTRIBUTES(ref->referring->decl)) != NULL_TREE)
				return "ifunc resolver";
	}
	return NULL;
}

/* The decl of a runtime hook: void NAME(ARG1, ARG2), nothrow, leaf. */
static tree
mon_hook_decl(const char *name, tree arg1, tree arg2)
{
	tree type, d;

	type = build_function_type_list(void_type_node, arg1, arg2, NULL_TREE);
	d = build_fn_decl(name, type);
	TREE_PUBLIC(d) = 1;
	DECL_EXTERNAL(d) = 1;
	DECL_ARTIFICIAL(d) = 1;
	TREE_NOTHROW(d) = 1;		/* no EH edges */
	DECL_ATTRIBUTES(d) = tree_cons(get_identifier("leaf"), NULL_TREE,
	    DECL_ATTRIBUTES(d));
	/*
	 * Not "cold": that would move the call into f.cold, and the return
	 * address the runtime records as fnpc must lie inside f.
	 */
	DECL_ASSEMBLER_NAME(d);		/* the LTO streamer needs it */
	return d;
}

/* void __mon_mcount_slow(long **word, struct cnt **cell), built once. */
static tree
mon_slow(void)
{
	if (mon_slow_decl == NULL_TREE)
		mon_slow_decl = mon_hook_decl(MON_MCOUNT_SLOW_NAME,
		    build_pointer_type(build_pointer_type(
		    long_integer_type_node)), build_pointer_type(ptr_type_node));
	return mon_slow_decl;
}

/* void __mon_mcount_arc(struct cnt **cell, void *frompc), built once. */
static tree
mon_arc(void)
{
	if (mon_arc_decl == NULL_TREE)
		mon_arc_decl = mon_hook_decl(MON_MCOUNT_ARC_NAME,
		    build_pointer_type(ptr_type_node), ptr_type_node);
	return mon_arc_decl;
}

/*
 * The TLS model of a thread-mode word.  In a shared object the default
 * (local-dynamic) calls __tls_get_addr on every entry; initial-exec is one
 * load, at the price of static TLS: a library that is dlopen()ed rather
 * than linked may then fail to load ("cannot allocate memory in static
 * TLS block"); build such a library with tls=global-dynamic.
 */
static enum tls_model
mon_tls_model(tree var)
{
	if (mon_tls != TLS_MODEL_NONE)
		return mon_tls;
	if (flag_shlib)
		return TLS_MODEL_INITIAL_EXEC;
	return decl_default_tls_model(var);
}

/* A zeroed file-local static (in .bss, or .tbss if tls), named PREFIX.N. */
static tree
mon_new_var(const char *prefix, tree type, bool tls)
{
	tree v;

	v = build_decl(DECL_SOURCE_LOCATION(current_function_decl), VAR_DECL,
	    create_tmp_var_name(prefix), type);
	TREE_STATIC(v) = 1;
	TREE_PUBLIC(v) = 0;
	DECL_ARTIFICIAL(v) = 1;
	DECL_IGNORED_P(v) = 1;		/* no debug info */
	TREE_USED(v) = 1;
	TREE_ADDRESSABLE(v) = 1;	/* its address goes to the runtime */
	if (tls)
		set_decl_tls_model(v, mon_tls_model(v));
	varpool_node::finalize_decl(v);
	return v;
}

static void
mon_add_call(function *fun, gcall *call, basic_block bb)
{
	cgraph_node::get(fun->decl)->create_edge(
	    cgraph_node::get_create(gimple_call_fndecl(call)), call, bb->count);
}

static tree
mon_asm_operand(const char *constraint, tree value)
{
	return build_tree_list(build_tree_list(NULL_TREE,
	    build_string(strlen(constraint) + 1, constraint)), value);
}

static tree
mon_asm_clobber(const char *reg)
{
	return build_tree_list(NULL_TREE, build_string(strlen(reg) + 1, reg));
}

/*
 * x86-64: call a stub of the runtime, which preserves every register,
 * from an asm that clobbers only %r11.  A plain call would make GCC keep
 * the function's arguments in callee-saved registers across it, so even
 * a leaf function would push and pop them on every call.  The asm steps
 * over the red zone, which a leaf function may be using, and calls
 * through the GOT: a lazily bound PLT entry would clobber %r11.
 * set_r11 loads %r11 from operand %1; %rax = rax.
 */
#define MON_STUB_CALL(set_r11, name)					\
	set_r11 "\n\t"							\
	"{lea\t-128(%%rsp), %%rsp|lea\trsp, [rsp-128]}\n\t"		\
	"{call\t*" name "@GOTPCREL(%%rip)"				\
	"|call\t[QWORD PTR " name "@GOTPCREL[rip]]}\n\t"		\
	"{lea\t128(%%rsp), %%rsp|lea\trsp, [rsp+128]}"

static void
mon_stub_call(gimple_stmt_iterator *gsi, const char *text, tree rax,
    const char *r11_constraint, tree r11)
{
	vec<tree, va_gc> *in = NULL, *clobbers = NULL;
	gasm *stmt;

	vec_safe_push(in, mon_asm_operand("a", rax));
	vec_safe_push(in, mon_asm_operand(r11_constraint, r11));
	vec_safe_push(clobbers, mon_asm_clobber("memory"));
	vec_safe_push(clobbers, mon_asm_clobber("cc"));
	vec_safe_push(clobbers, mon_asm_clobber("r11"));
	stmt = gimple_build_asm_vec(text, in, NULL, clobbers, NULL);
	gimple_asm_set_volatile(stmt, true);
	gsi_insert_after(gsi, stmt, GSI_NEW_STMT);
}

/* -p slow path: %rax = &word, %r11 = &cell. */
static void
mon_slow_stub(gimple_stmt_iterator *gsi, tree word, tree cell)
{
	static const char text[] = MON_STUB_CALL(
	    "{lea\t%1, %%r11|lea\tr11, %1}", MON_MCOUNT_STUB_NAME);
	tree wordp;

	wordp = make_ssa_name(build_pointer_type(TREE_TYPE(word)));
	gsi_insert_after(gsi, gimple_build_assign(wordp,
	    build_fold_addr_expr(word)), GSI_NEW_STMT);
	mon_stub_call(gsi, text, wordp, "m", cell);
}

/* -pg: %rax = &cell, %r11 = the function's return address. */
static void
mon_arc_stub(gimple_stmt_iterator *gsi, tree cell, tree ra)
{
	static const char text[] = MON_STUB_CALL(
	    "{mov\t%1, %%r11|mov\tr11, %1}", MON_MCOUNT_ARC_STUB_NAME);

	mon_stub_call(gsi, text, build_fold_addr_expr(cell), "r", ra);
}

/*
 * -pg: on entry, __mon_mcount_arc(&cell, __builtin_return_address(0)),
 * or the x86-64 stub.  Every call goes to the runtime, which counts the
 * caller -> callee arc.
 */
static unsigned int
mon_instrument_arc(function *fun)
{
	gimple_stmt_iterator gsi;
	basic_block bb;
	tree cell, ra;
	gcall *call;

	cell = mon_new_var("__mon_cell", ptr_type_node, false);
	bb = split_edge(single_succ_edge(ENTRY_BLOCK_PTR_FOR_FN(fun)));
	gsi = gsi_start_bb(bb);
	ra = make_ssa_name(ptr_type_node);
	call = gimple_build_call(builtin_decl_explicit(BUILT_IN_RETURN_ADDRESS),
	    1, integer_zero_node);
	gimple_call_set_lhs(call, ra);
	gsi_insert_after(&gsi, call, GSI_NEW_STMT);
	if (TARGET_64BIT && TARGET_LP64)
		mon_arc_stub(&gsi, cell, ra);
	else {
		call = gimple_build_call(mon_arc(), 2,
		    build_fold_addr_expr(cell), ra);
		gsi_insert_after(&gsi, call, GSI_NEW_STMT);
		mon_add_call(fun, call, bb);
	}
	if (mon_verbose)
		fprintf(stderr, "monprof: %s: instrumented (arcs)\n",
		    function_name(fun));
	return 0;
}

/*
 * Split the entry edge (not the first block: after tail-recursion
 * elimination it may be a loop header with PHIs) into
 *
 *	cond -> hot -> join -> (old body)	likely, the fall-through
 *	cond -> slow -> join			unlikely, placed last
 *
 * Branch prediction has already run, so the edge probabilities are set
 * here; __builtin_expect would have no effect this late.
 */
static unsigned int
mon_instrument(function *fun)
{
	basic_block cond_bb, hot_bb, join_bb, slow_bb;
	gimple_stmt_iterator gsi;
	tree word, cell, wordp, p, t1, t2, ref, one, fn;
	edge hot, cold;
	gcall *call;

	if (mon_pg)
		return mon_instrument_arc(fun);
	wordp = build_pointer_type(long_integer_type_node);
	word = mon_new_var("__mon_word", wordp,
	    mon_update_mode == MON_UPDATE_THREAD);
	cell = mon_new_var("__mon_cell", ptr_type_node, false);

	cond_bb = split_edge(single_succ_edge(ENTRY_BLOCK_PTR_FOR_FN(fun)));
	hot_bb = split_edge(single_succ_edge(cond_bb));
	join_bb = split_edge(single_succ_edge(hot_bb));
	slow_bb = create_empty_bb(EXIT_BLOCK_PTR_FOR_FN(fun)->prev_bb);
	if (current_loops != NULL)
		add_bb_to_loop(slow_bb, cond_bb->loop_father);

	hot = single_succ_edge(cond_bb);
	hot->flags = (hot->flags & ~EDGE_FALLTHRU) | EDGE_TRUE_VALUE;
	hot->probability = profile_probability::very_likely();
	cold = make_edge(cond_bb, slow_bb, EDGE_FALSE_VALUE);
	cold->probability = hot->probability.invert();
	make_single_succ_edge(slow_bb, join_bb, EDGE_FALLTHRU);
	hot_bb->count = hot->count();
	slow_bb->count = cold->count();

	/* cond: p = word; if (p != 0) */
	p = make_ssa_name(wordp);
	gsi = gsi_start_bb(cond_bb);
	gsi_insert_after(&gsi, gimple_build_assign(p, word), GSI_NEW_STMT);
	gsi_insert_after(&gsi, gimple_build_cond(NE_EXPR, p,
	    build_int_cst(wordp, 0), NULL_TREE, NULL_TREE), GSI_NEW_STMT);

	/* hot: *p += 1 */
	gsi = gsi_start_bb(hot_bb);
	one = build_int_cst(long_integer_type_node, 1);
	if (mon_update_mode == MON_UPDATE_ATOMIC) {
		fn = builtin_decl_explicit(
		    TYPE_PRECISION(long_integer_type_node) > 32 ?
		    BUILT_IN_ATOMIC_FETCH_ADD_8 : BUILT_IN_ATOMIC_FETCH_ADD_4);
		call = gimple_build_call(fn, 3, p, one,
		    build_int_cst(integer_type_node, MEMMODEL_RELAXED));
		gsi_insert_after(&gsi, call, GSI_NEW_STMT);
		mon_add_call(fun, call, hot_bb);
	} else {
		ref = build_simple_mem_ref(p);
		t1 = make_ssa_name(long_integer_type_node);
		t2 = make_ssa_name(long_integer_type_node);
		gsi_insert_after(&gsi, gimple_build_assign(t1, ref),
		    GSI_NEW_STMT);
		gsi_insert_after(&gsi, gimple_build_assign(t2, PLUS_EXPR, t1,
		    one), GSI_NEW_STMT);
		gsi_insert_after(&gsi, gimple_build_assign(unshare_expr(ref),
		    t2), GSI_NEW_STMT);
	}

	/* slow: __mon_mcount_slow(&word, &cell), or the x86-64 stub */
	gsi = gsi_start_bb(slow_bb);
	if (TARGET_64BIT && TARGET_LP64)
		mon_slow_stub(&gsi, word, cell);
	else {
		call = gimple_build_call(mon_slow(), 2,
		    build_fold_addr_expr(word), build_fold_addr_expr(cell));
		gsi_insert_after(&gsi, call, GSI_NEW_STMT);
		mon_add_call(fun, call, slow_bb);
	}

	free_dominance_info(CDI_DOMINATORS);
	free_dominance_info(CDI_POST_DOMINATORS);
	if (mon_verbose)
		fprintf(stderr, "monprof: %s: instrumented\n",
		    function_name(fun));
	return 0;
}

namespace {

const pass_data mon_pass_data = {
	GIMPLE_PASS,		/* type */
	"monprof",		/* name */
	OPTGROUP_NONE,		/* optinfo_flags */
	TV_NONE,		/* tv_id */
	PROP_cfg | PROP_ssa,	/* properties_required */
	0,			/* properties_provided */
	0,			/* properties_destroyed */
	0,			/* todo_flags_start */
	TODO_update_ssa,	/* todo_flags_finish: virtual operands */
};

class mon_pass : public gimple_opt_pass {
public:
	mon_pass(gcc::context *ctxt) : gimple_opt_pass(mon_pass_data, ctxt) {}

	bool
	gate(function *fun) override
	{
		const char *why;

		if (fun == NULL)
			return false;
		why = mon_skip_reason(fun->decl);
		if (why != NULL && mon_verbose && DECL_NAME(fun->decl) != NULL)
			fprintf(stderr, "monprof: %s: skipped (%s)\n",
			    function_name(fun), why);
		return why == NULL;
	}

	unsigned int
	execute(function *fun) override
	{
		return mon_instrument(fun);
	}

	opt_pass *
	clone() override
	{
		return new mon_pass(m_ctxt);
	}
};

} /* namespace */

/* Same GCC release and configuration; the build date may differ. */
static bool
mon_version_ok(const struct plugin_gcc_version *v)
{
	return strcmp(v->basever, gcc_version.basever) == 0 &&
	    strcmp(v->devphase, gcc_version.devphase) == 0 &&
	    strcmp(v->configuration_arguments,
	    gcc_version.configuration_arguments) == 0;
}

static bool
mon_parse_value(const char *plugin, const char *key, const char *value,
    const char *const *names, size_t n, int *out, const char *valid)
{
	size_t i;

	for (i = 0; value != NULL && i < n; i++)
		if (strcmp(value, names[i]) == 0) {
			*out = (int)i;
			return true;
		}
	error("monprof: bad value %qs for %<-fplugin-arg-%s-%s%>; valid: %s",
	    value != NULL ? value : "", plugin, key, valid);
	return false;
}

static bool
mon_parse_args(const struct plugin_name_args *info)
{
	const char *tls_names[ARRAY_SIZE(mon_tls_names)];
	const char *key, *value;
	bool ok = true;
	size_t i;
	int n;

	for (i = 0; i < ARRAY_SIZE(mon_tls_names); i++)
		tls_names[i] = mon_tls_names[i].name;
	for (i = 0; i < (size_t)info->argc; i++) {
		key = info->argv[i].key;
		value = info->argv[i].value;
		if (strcmp(key, "update") == 0) {
			if (!mon_parse_value(info->base_name, key, value,
			    mon_update_names, ARRAY_SIZE(mon_update_names), &n,
			    "thread, single, atomic"))
				ok = false;
			else {
				mon_update_mode = (enum mon_update)n;
				mon_update_given = true;
			}
		} else if (strcmp(key, "tls") == 0) {
			if (!mon_parse_value(info->base_name, key, value,
			    tls_names, ARRAY_SIZE(tls_names), &n,
			    "global-dynamic, local-dynamic, initial-exec,"
			    " local-exec"))
				ok = false;
			else
				mon_tls = mon_tls_names[n].model;
		} else if (strcmp(key, "verbose") == 0)
			mon_verbose = true;
		else if (strcmp(key, "pg") == 0)
			mon_pg = true;
		else if (strcmp(key, "p") != 0) {
			error("monprof: unknown argument "
			    "%<-fplugin-arg-%s-%s%>; valid keys: %s",
			    info->base_name, key, mon_keys);
			ok = false;
		}
	}
	return ok;
}

int
plugin_init(struct plugin_name_args *info, struct plugin_gcc_version *version)
{
	struct register_pass_info pass;

	if (!mon_version_ok(version)) {
		error("monprof: %s was built for GCC %s and cannot run in "
		    "GCC %s; rebuild it with this compiler",
		    info->full_name, gcc_version.basever, version->basever);
		return 1;
	}
	if (!mon_parse_args(info))
		return 1;
	if (!mon_update_given && OPTION_SET_P(flag_profile_update)) {
		switch (flag_profile_update) {
		case PROFILE_UPDATE_SINGLE:
			mon_update_mode = MON_UPDATE_SINGLE;
			break;
		case PROFILE_UPDATE_ATOMIC:
			mon_update_mode = MON_UPDATE_ATOMIC;
			break;
		default:
			mon_update_mode = MON_UPDATE_THREAD;
			break;
		}
	}
	/* -p/-pg would also add an mcount call and force a frame pointer. */
	profile_flag = 0;
	if (mon_verbose)
		fprintf(stderr, "monprof: %s, update=%s%s\n", MON_VERSION,
		    mon_update_names[mon_update_mode], mon_pg ? ", -pg" : "");

	/*
	 * Before "optimized": the last GIMPLE pass, run at every -O level,
	 * after all inlining, so the counts are those of out-of-line entries.
	 */
	pass.pass = new mon_pass(g);
	pass.reference_pass_name = "optimized";
	pass.ref_pass_instance_number = 1;
	pass.pos_op = PASS_POS_INSERT_BEFORE;

	register_callback(info->base_name, PLUGIN_INFO, NULL, &mon_plugin_info);
	register_callback(info->base_name, PLUGIN_REGISTER_GGC_ROOTS, NULL,
	    (void *)mon_roots);
	register_callback(info->base_name, PLUGIN_PASS_MANAGER_SETUP, NULL,
	    &pass);
	return 0;
}
