/* SPDX-License-Identifier: MIT */
/*
 * mon_sites.c - -pg call sites that announce themselves to their callee
 * (hook ABI 5, mon.h): before a direct call, the address of the site's
 * record, whose word in each thread's block of the runtime holds the arc
 * counted through the site; the callee's entry, which counts every call
 * itself, counts through that word if it is the same arc, whatever the
 * pattern of callers:
 *
 *	static long rec;		one per call site, in __mon_sites
 *
 *	__mon_site_rec = &rec;
 *	callee(...);
 *
 * The announcement only tells the entry which arc to count; the count is
 * the entry's (mon_instrument.c).  -fPIC code announces only once linked
 * into an executable, or through its object's mod (below).
 */
#include "compat.h"

#include "mon_abi.h"
#include "mon_plugin.h"

/* The blocks of an ntest-test check (mon_split_edge) right before call. */
static void
mon_split_before(function *fun, gcall *call, struct mon_blocks *b, int ntest)
{
	gimple_stmt_iterator gsi = gsi_for_stmt(call);
	basic_block bb = gimple_bb(call);
	edge e;

	gsi_prev(&gsi);
	e = gsi_end_p(gsi) ? split_block_after_labels(bb) :
	    split_block(bb, gsi_stmt(gsi));
	mon_split_edge(fun, e, ntest, b);
}

/*
 * Whether call announces its site: a direct call that stays a call and
 * whose return address is this site's (not a tail call), of a function
 * that may have the entry of hook ABI 5.  A callee that is not
 * instrumented (a library's) is harmless, but a builtin is a library
 * function or no call at all.  A returns_twice call must begin its block.
 */
static bool
mon_announced(gcall *call)
{
	tree callee = gimple_call_fndecl(call);

	return callee != NULL_TREE && !gimple_call_internal_p(call) &&
	    !gimple_call_tail_p(call) &&
	    !(gimple_call_flags(call) & ECF_RETURNS_TWICE) &&
	    !fndecl_built_in_p(callee) &&
	    mon_skip_reason(callee) == NULL;
}

/* A call site's record: 8 zero bytes of section MON_SITES_SECTION. */
static tree
mon_site_record(void)
{
	return mon_new_var_in("__mon_site_rec", long_integer_type_node,
	    MON_SITES_SECTION);
}

/* __mon_site_rec = &rec */
static gimple *
mon_announcement(tree rec)
{
	return gimple_build_assign(mon_site_rec(), build_fold_addr_expr(rec));
}

/*
 * Whether this unit's shared-object code announces through its object's
 * mod, and so registers its records (mon_sites_finish): not where the
 * user chose a TLS model (tls=).
 */
static bool mon_mod_used;

static bool
mon_mod_ok(void)
{
	return mon_opt.tls == TLS_MODEL_NONE ||
	    mon_opt.tls == TLS_MODEL_INITIAL_EXEC;
}

/*
 * Block test ends in a test whose one edge falls through: that edge
 * becomes its likely true edge, to a new block (returned) that falls
 * through to where it went, and its false edge goes to join.
 */
static basic_block
mon_then(basic_block test, basic_block join)
{
	basic_block then = split_edge(single_succ_edge(test));
	edge yes = single_succ_edge(test), no;

	yes->flags = (yes->flags & ~EDGE_FALLTHRU) | EDGE_TRUE_VALUE;
	yes->probability = profile_probability::likely();
	no = make_edge(test, join, EDGE_FALSE_VALUE);
	no->probability = yes->probability.invert();
	then->count = yes->count();
	return then;
}

/*
 * -fPIC code may end in a shared object, or in an executable (a static
 * library, or LTO's back end not told the output).  Only an executable
 * defines the runtime's mark; a shared object's records get blocks at
 * its mod, a word of each thread's area at __mon_site_modoff (mon.h):
 *
 *	if (&__mon_mcount_exe != 0)
 *		__mon_site_rec = &rec;
 *	else if ((a = __mon_area_mine) != 0 &&
 *	    (t = *(long *)(a + __mon_site_modoff)) != 0)
 *		__mon_site_rec = (char *)&rec + t;
 *
 * The first test the loop optimizers take out of loops.
 */
static void
mon_announce_guarded(function *fun, gcall *call, tree rec)
{
	struct mon_blocks b;
	gimple_stmt_iterator gsi;
	basic_block area, mod;
	edge yes, no;
	tree a, off, t, v;

	mon_split_before(fun, call, &b, 1);
	gsi = gsi_start_bb(b.test[0]);
	mon_test(&gsi, NE_EXPR, build_fold_addr_expr(mon_exe()),
	    null_pointer_node);
	gsi = gsi_start_bb(b.hot);
	gsi_insert_after(&gsi, mon_announcement(rec), GSI_NEW_STMT);
	if (mon_guarded())
		mon_guard(b.test[0], b.join);
	if (!mon_mod_ok()) {
		/* No slow block: a shared object jumps over it. */
		mon_drop_slow(&b, 1);
		return;
	}
	mon_mod_used = true;

	/* Either way may be the common one. */
	yes = find_edge(b.test[0], b.hot);
	no = find_edge(b.test[0], b.slow);
	yes->probability = profile_probability::even();
	no->probability = profile_probability::even();
	b.hot->count = yes->count();
	b.slow->count = no->count();

	/* slow: a = __mon_area_mine; if (a != 0) */
	gsi = gsi_start_bb(b.slow);
	a = mon_area_ptr(&gsi);
	mon_test(&gsi, NE_EXPR, a, build_int_cst(ptr_type_node, 0));
	area = mon_then(b.slow, b.join);

	/* area: t = *(long *)(a + __mon_site_modoff); if (t != 0) */
	gsi = gsi_start_bb(area);
	off = make_ssa_name(long_integer_type_node);
	gsi_insert_after(&gsi, gimple_build_assign(off, mon_site_modoff()),
	    GSI_NEW_STMT);
	t = mon_area_load(&gsi, a, off, long_integer_type_node);
	mon_test(&gsi, NE_EXPR, t, build_int_cst(long_integer_type_node, 0));
	mod = mon_then(area, b.join);

	/* mod: __mon_site_rec = (char *)&rec + t */
	gsi = gsi_start_bb(mod);
	v = mon_pointer_plus(&gsi, build_fold_addr_expr(rec), t);
	gsi_insert_after(&gsi, gimple_build_assign(mon_site_rec(), v),
	    GSI_NEW_STMT);
}

/* extern long NAME, hidden: a symbol of the object's own. */
static tree
mon_hidden_var(const char *name)
{
	tree d;

	d = build_decl(BUILTINS_LOCATION, VAR_DECL, get_identifier(name),
	    long_integer_type_node);
	TREE_PUBLIC(d) = 1;
	DECL_EXTERNAL(d) = 1;
	DECL_ARTIFICIAL(d) = 1;
	DECL_VISIBILITY(d) = VISIBILITY_HIDDEN;
	DECL_VISIBILITY_SPECIFIED(d) = 1;
	return d;
}

/*
 * At the end of a unit whose code announces through its object's mod: a
 * constructor that registers the object's records and word with the
 * runtime, and a destructor that unregisters them (mon.h).  Each unit
 * of an object registers the same; the runtime keeps one.
 */
void
mon_sites_finish(void *gcc_data, void *user_data)
{
	static const char bounds[] = "\n\t.hidden __start_" MON_SITES_SECTION
	    "\n\t.hidden __stop_" MON_SITES_SECTION;
	tree args[3];

	(void)gcc_data;
	(void)user_data;
	if (!mon_mod_used || seen_error())
		return;
	mon_mod_used = false;
	mon_building_cdtor = true;
	args[0] = build_fold_addr_expr(mon_hidden_var(
	    "__start_" MON_SITES_SECTION));
	args[1] = build_fold_addr_expr(mon_hidden_var(
	    "__stop_" MON_SITES_SECTION));
	args[2] = build_fold_addr_expr(mon_site_modoff());
	/* The section's bounds: not hidden, a shared object exports them. */
	cgraph_build_static_cdtor('I', mon_weak_call(mon_sites_fn(false), 3,
	    args, bounds), MAX_RESERVED_INIT_PRIORITY + 1);
	cgraph_build_static_cdtor('D', mon_weak_call(mon_sites_fn(true), 1,
	    args, bounds), MAX_RESERVED_INIT_PRIORITY + 1);
	mon_building_cdtor = false;
}

/* An executable's announcement behind the guard (mon_guarded). */
static void
mon_announce_if(function *fun, gcall *call, tree rec)
{
	struct mon_blocks b;
	gimple_stmt_iterator gsi;

	mon_split_before(fun, call, &b, 1);
	gsi = gsi_start_bb(b.test[0]);
	mon_guard_test(&gsi);
	gsi = gsi_start_bb(b.hot);
	gsi_insert_after(&gsi, mon_announcement(rec), GSI_NEW_STMT);
	mon_drop_slow(&b, 1);
}

/* Announce, before each of fun's calls that it may, the call's site. */
void
mon_announce_sites(function *fun)
{
	auto_vec<gcall *> calls;
	basic_block bb;
	gimple_stmt_iterator gsi;
	gcall *call;
	tree rec;
	bool exe = mon_in_executable();
	unsigned i;

	if (!mon_x86_64())
		return;
	FOR_EACH_BB_FN(bb, fun)
		for (gsi = gsi_start_bb(bb); !gsi_end_p(gsi); gsi_next(&gsi))
			if ((call = dyn_cast<gcall *>(gsi_stmt(gsi))) != NULL &&
			    mon_announced(call))
				calls.safe_push(call);
	FOR_EACH_VEC_ELT(calls, i, call) {
		rec = mon_site_record();
		if (!exe)
			mon_announce_guarded(fun, call, rec);
		else if (mon_guarded())
			mon_announce_if(fun, call, rec);
		else {
			gsi = gsi_for_stmt(call);
			gsi_insert_before(&gsi, mon_announcement(rec),
			    GSI_SAME_STMT);
		}
		if (mon_opt.verbose)
			fprintf(stderr, "monprof: %s: call of %s announced%s\n",
			    function_name(fun), IDENTIFIER_POINTER(DECL_NAME(
			    gimple_call_fndecl(call))), exe ? "" :
			    mon_mod_ok() ? " (-fPIC)" : " (in an executable)");
	}
}
