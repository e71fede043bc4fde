/* SPDX-License-Identifier: MIT */
/*
 * mon_area.c - the thread-local words of -fPIC code (hook ABI 6, mon.h).
 * Such code may end in a shared object that a host dlopen()s among
 * hundreds, and every byte of thread-local storage an object defines
 * there comes out of the few hundred bytes of static TLS that glibc
 * keeps for all of them.  So it defines none: its words (-p: the word;
 * -pg: the arc cache and the words of call sites) are words of an area
 * the runtime maps for each thread, reached through the runtime's one
 * thread-local pointer, at the unit's base (which its constructor
 * registers) plus 8 * k:
 *
 *	a = __mon_area_mine;		initial-exec, the runtime's
 *	off = base + 8 * k;
 *	if (a != 0)
 *		p = *(a + off) ...
 *
 * The stubs are told off, where version 5 told the word's address.
 */
#include "compat.h"

#include "mon_abi.h"
#include "mon_plugin.h"

static tree	mon_area_decl;		/* extern __thread char *__mon_area_mine */
static tree	mon_base_decl;		/* this unit's base */
static tree	mon_add_decl;		/* void __mon_area_add(long *, long) */

/* Words handed out in this unit. */
static HOST_WIDE_INT mon_words;

const struct ggc_root_tab mon_area_roots[] = {
	{ &mon_area_decl, 1, sizeof(mon_area_decl), &gt_ggc_mx_tree_node,
	    &gt_pch_nx_tree_node },
	{ &mon_base_decl, 1, sizeof(mon_base_decl), &gt_ggc_mx_tree_node,
	    &gt_pch_nx_tree_node },
	{ &mon_add_decl, 1, sizeof(mon_add_decl), &gt_ggc_mx_tree_node,
	    &gt_pch_nx_tree_node },
	LAST_GGC_ROOT_TAB
};

/*
 * Whether this function's thread-local words are area words: x86-64
 * code built -fPIC (it may end in a shared object), with no TLS model
 * asked for (tls= keeps a __thread word of that model).
 */
bool
mon_area_ok(void)
{
	return mon_x86_64() && !mon_in_executable() &&
	    mon_opt.tls == TLS_MODEL_NONE;
}

/*
 * The index of a new word of this unit, or -1 past MON_AREA_UNIT_MAX
 * (the runtime registers no more; the caller keeps a __thread word).
 */
HOST_WIDE_INT
mon_area_new_word(void)
{
	if (mon_words >= MON_AREA_UNIT_MAX)
		return -1;
	return mon_words++;
}

/* extern __thread char *__mon_area_mine, the runtime's. */
static tree
mon_area(void)
{
	return mon_extern_tls(&mon_area_decl, MON_AREA_VAR, ptr_type_node);
}

/* static long base, this unit's: 0 until its constructor registers it. */
static tree
mon_base(void)
{
	if (mon_base_decl == NULL_TREE)
		mon_base_decl = mon_new_var("__mon_unit_base",
		    long_integer_type_node, false);
	return mon_base_decl;
}

/* At gsi: a = __mon_area_mine, an SSA name. */
tree
mon_area_ptr(gimple_stmt_iterator *gsi)
{
	tree a = make_ssa_name(ptr_type_node);

	gsi_insert_after(gsi, gimple_build_assign(a, mon_area()),
	    GSI_NEW_STMT);
	return a;
}

/*
 * At gsi, the test that opens an area word's blocks: a = the area, off =
 * base + 8 * k; if (a != 0).  *offp for the stub, *ap for mon_area_load.
 */
void
mon_area_test(gimple_stmt_iterator *gsi, HOST_WIDE_INT k, tree *ap,
    tree *offp)
{
	tree a, b, off;

	a = mon_area_ptr(gsi);
	b = make_ssa_name(long_integer_type_node);
	gsi_insert_after(gsi, gimple_build_assign(b, mon_base()),
	    GSI_NEW_STMT);
	off = make_ssa_name(long_integer_type_node);
	gsi_insert_after(gsi, gimple_build_assign(off, PLUS_EXPR, b,
	    build_int_cst(long_integer_type_node,
	    k * int_size_in_bytes(long_integer_type_node))), GSI_NEW_STMT);
	mon_test(gsi, NE_EXPR, a, build_int_cst(ptr_type_node, 0));
	*ap = a;
	*offp = off;
}

/* At gsi: the word, p = *(type *)(a + off), an SSA name of type. */
tree
mon_area_load(gimple_stmt_iterator *gsi, tree a, tree off, tree type)
{
	tree w, p;

	w = mon_pointer_plus(gsi, a, off);
	p = make_ssa_name(type);
	gsi_insert_after(gsi, gimple_build_assign(p, build2(MEM_REF, type, w,
	    build_int_cst(build_pointer_type(type), 0))), GSI_NEW_STMT);
	return p;
}

/* void __mon_area_add(long *, long), weak, built once. */
static tree
mon_area_add(void)
{
	tree lp = build_pointer_type(long_integer_type_node), d;

	if (mon_add_decl != NULL_TREE)
		return mon_add_decl;
	d = build_fn_decl(MON_AREA_ADD_NAME, build_function_type_list(
	    void_type_node, lp, long_integer_type_node, NULL_TREE));
	TREE_PUBLIC(d) = 1;
	DECL_EXTERNAL(d) = 1;
	DECL_ARTIFICIAL(d) = 1;
	TREE_NOTHROW(d) = 1;
	declare_weak(d);
	DECL_ASSEMBLER_NAME(d);
	mon_add_decl = d;
	return d;
}

/*
 * At the end of a unit that used area words: a constructor that
 * registers them, if the runtime is there.  Before the program's own
 * constructors (the reserved priorities, as gcov's), so that the
 * unit's first calls find their words; code run before it still counts,
 * through the scratch words, uncached.
 */
void
mon_area_finish(void *gcc_data, void *user_data)
{
	tree args[2];

	(void)gcc_data;
	(void)user_data;
	if (mon_base_decl != NULL_TREE && mon_words > 0 && !seen_error()) {
		args[0] = build_fold_addr_expr(mon_base_decl);
		args[1] = build_int_cst(long_integer_type_node, mon_words);
		mon_building_cdtor = true;
		cgraph_build_static_cdtor('I', mon_weak_call(mon_area_add(), 2,
		    args, ""), MAX_RESERVED_INIT_PRIORITY - 1);
		mon_building_cdtor = false;
	}
	mon_base_decl = NULL_TREE;
	mon_words = 0;
}
