/* SPDX-License-Identifier: MIT */
/*
 * mon_instrument.c - what the monprof pass inserts.  Run just before
 * "optimized" (so after inlining, cloning and tail-recursion elimination,
 * at every -O level), it gives each function zeroed file-local words and
 * an entry test.  -p in an executable: one increment of a thread-local
 * counter (mon_instrument_static).  Other -p code:
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
 * -pg: the same shape, with a thread-local cache of the arc the function
 * was last called through, tested against the return address:
 *
 *	static __thread long *arc;
 *
 *	ra = __builtin_return_address(0);
 *	p = arc;
 *	if (p != 0 && p[MON_ARC_FROM] == ra)
 *		p[MON_ARC_COUNT] += 1;
 *	else
 *		__mon_mcount_arc_cache(&cell, ra, &arc);
 *
 * On x86-64 the out-of-line calls go through the runtime's
 * register-preserving stubs (mon_stub_call), and when the cache misses
 * the entry reads the call site its caller announced (hook ABI 5,
 * mon.h; mon_sites.c announces), instead of the hook:
 *
 *	else {
 *		w = __mon_site_rec;
 *		__mon_site_rec = 0;
 *		if (w != 0 && (q = *(w + __mon_site_bias)) != 0 &&
 *		    q[MON_ARC_FROM] == ra && q[MON_ARC_CELL] == cell)
 *			q[MON_ARC_COUNT] += 1;
 *		else
 *			the stub, told w
 *	}
 */
#include "compat.h"

#include "mon_abi.h"
#include "mon_plugin.h"

static tree	mon_slow_decl;
static tree	mon_arc_decl;
static tree	mon_bias_decl;

const struct ggc_root_tab mon_roots[] = {
	{ &mon_slow_decl, 1, sizeof(mon_slow_decl), &gt_ggc_mx_tree_node,
	    &gt_pch_nx_tree_node },
	{ &mon_arc_decl, 1, sizeof(mon_arc_decl), &gt_ggc_mx_tree_node,
	    &gt_pch_nx_tree_node },
	{ &mon_bias_decl, 1, sizeof(mon_bias_decl), &gt_ggc_mx_tree_node,
	    &gt_pch_nx_tree_node },
	LAST_GGC_ROOT_TAB
};

/* The decl of a runtime hook: void NAME(ARG1, ARG2[, ARG3]), nothrow, leaf. */
static tree
mon_hook_decl(const char *name, tree arg1, tree arg2, tree arg3)
{
	tree type, d;

	type = build_function_type_list(void_type_node, arg1, arg2, arg3,
	    NULL_TREE);
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
		    long_integer_type_node)), build_pointer_type(ptr_type_node),
		    NULL_TREE);
	return mon_slow_decl;
}

/* void __mon_mcount_arc_cache(struct cnt **, void *, long **), once. */
static tree
mon_arc(void)
{
	if (mon_arc_decl == NULL_TREE)
		mon_arc_decl = mon_hook_decl(MON_MCOUNT_ARC_NAME,
		    build_pointer_type(ptr_type_node), ptr_type_node,
		    build_pointer_type(build_pointer_type(
		    long_integer_type_node)));
	return mon_arc_decl;
}

/* extern __thread long __mon_site_bias, the runtime's. */
static tree
mon_site_bias(void)
{
	return mon_extern_tls(&mon_bias_decl, MON_SITE_BIAS_VAR,
	    long_integer_type_node);
}

static void
mon_add_call(function *fun, gcall *call, basic_block bb)
{
	cgraph_node::get(fun->decl)->create_edge(
	    cgraph_node::get_create(gimple_call_fndecl(call)), call, bb->count);
}

static void
mon_split_entry(function *fun, int ntest, struct mon_blocks *b)
{
	mon_split_edge(fun, single_succ_edge(ENTRY_BLOCK_PTR_FOR_FN(fun)),
	    ntest, b);
}

/*
 * -p in an executable (x86-64, update=thread, code not built -fPIC): the
 * function's counter is a static of the executable in section
 * MON_PCTRS_SECTION, counted at the %gs base plus its address, so the
 * entry is one instruction and needs no runtime call, no test, no word,
 * and no thread-local storage (whose block every thread would carry and
 * glibc clear at every thread's start, however few functions it calls):
 *
 *	static long ctr;		.lbss: no bytes in the file
 *
 *	addq $1, %gs:ctr(%rip)
 *
 * and a record in section MON_PCELLS_SECTION, { pc - &record,
 * __mon_area_mine@tpoff, &ctr - &field }, from which the runtime finds
 * the counter in each thread's window (mon_abi.h).  The local-exec
 * reference makes ld refuse the code in a shared object, where the base
 * would not reach the counter.  -fPIC code may end up in a shared
 * object: it keeps the area's word.  An explicit tls= or another update
 * mode keeps the word of version 2.  No guard: the instruction never
 * reads the thread pointer, and a thread the runtime did not start
 * counts in its creator's window.  Whether a unit counts so is
 * mon_static_ok's (mon_gimple.c).
 */
static void
mon_instrument_static(function *fun)
{
	gimple_stmt_iterator gsi;
	basic_block bb;
	tree ctr;
	gasm *stmt;
	const char *name, *text, *record;

	ctr = mon_new_var_in("__mon_ctr", long_integer_type_node,
	    MON_PCTRS_SECTION);
	/* A block of its own: the first may be a loop header (tail calls). */
	bb = split_edge(single_succ_edge(ENTRY_BLOCK_PTR_FOR_FN(fun)));
	gsi = gsi_start_bb(bb);

	/*
	 * The count, the record and the link hint, in one asm: an optimizer
	 * that copies it copies the record, and the runtime keeps one per
	 * counter (adjacent, as a function's asm is emitted in one piece).
	 */
	name = IDENTIFIER_POINTER(DECL_ASSEMBLER_NAME(ctr));
	record = mon_pcell_text("1b - .", ctr);	/* ACONCAT nests not */
	text = ACONCAT(("addq $1, %%gs:", name, "(%%rip)\n1:\n\t"
	    ".reloc 1b,R_X86_64_NONE,\"" MON_LINK_HINT "\"\n\t",
	    record, NULL));
	stmt = gimple_build_asm_vec(text, NULL, NULL, NULL, NULL);
	gimple_asm_set_volatile(stmt, true);
	gsi_insert_after(&gsi, stmt, GSI_NEW_STMT);
}

/*
 * -p in -fPIC code (hook ABI 6): the word is one of this thread's area
 * (mon_area.c), k of the unit's:
 *
 *	a = __mon_area_mine; off = base + 8 * k;
 *	if (a != 0 && (p = *(long **)(a + off)) != 0)
 *		*p += 1;
 *	else
 *		__mon_mcount_area_stub, %rax = off, %r11 = &cell
 */
static void
mon_instrument_area(function *fun, HOST_WIDE_INT k)
{
	static const char stub[] = MON_LEA_STUB_CALL(MON_MCOUNT_AREA_STUB_NAME);
	struct mon_blocks b;
	gimple_stmt_iterator gsi;
	tree cell, wordp, a, off, p;

	wordp = build_pointer_type(long_integer_type_node);
	cell = mon_new_var("__mon_cell", ptr_type_node, false);
	mon_split_entry(fun, 2, &b);

	gsi = gsi_start_bb(b.test[0]);
	mon_area_test(&gsi, k, &a, &off);
	gsi = gsi_start_bb(b.test[1]);
	p = mon_area_load(&gsi, a, off, wordp);
	mon_test(&gsi, NE_EXPR, p, build_int_cst(wordp, 0));

	gsi = gsi_start_bb(b.hot);
	mon_increment(&gsi, p, 0);

	gsi = gsi_start_bb(b.slow);
	mon_stub_call(&gsi, stub, off, "m", cell, NULL_TREE, NULL_TREE);
	if (mon_guarded())
		mon_guard(b.test[0], b.join);
}

/* -p: see the top of the file. */
static void
mon_instrument_count(function *fun)
{
	static const char stub[] = MON_LEA_STUB_CALL(MON_MCOUNT_STUB_NAME);
	struct mon_blocks b;
	gimple_stmt_iterator gsi;
	tree word, cell, wordp, p, fn;
	HOST_WIDE_INT k;
	gcall *call;

	if (mon_area_ok() && mon_opt.update == MON_UPDATE_THREAD &&
	    (k = mon_area_new_word()) >= 0) {
		mon_instrument_area(fun, k);
		return;
	}
	wordp = build_pointer_type(long_integer_type_node);
	word = mon_new_var("__mon_word", wordp,
	    mon_opt.update == MON_UPDATE_THREAD);
	cell = mon_new_var("__mon_cell", ptr_type_node, false);
	mon_split_entry(fun, 1, &b);

	/* test: p = word; if (p != 0) */
	p = make_ssa_name(wordp);
	gsi = gsi_start_bb(b.test[0]);
	gsi_insert_after(&gsi, gimple_build_assign(p, word), GSI_NEW_STMT);
	mon_test(&gsi, NE_EXPR, p, build_int_cst(wordp, 0));

	/* hot: *p += 1 */
	gsi = gsi_start_bb(b.hot);
	if (mon_opt.update == MON_UPDATE_ATOMIC) {
		fn = builtin_decl_explicit(
		    TYPE_PRECISION(long_integer_type_node) > 32 ?
		    BUILT_IN_ATOMIC_FETCH_ADD_8 : BUILT_IN_ATOMIC_FETCH_ADD_4);
		call = gimple_build_call(fn, 3, p,
		    build_int_cst(long_integer_type_node, 1),
		    build_int_cst(integer_type_node, MEMMODEL_RELAXED));
		gsi_insert_after(&gsi, call, GSI_NEW_STMT);
		mon_add_call(fun, call, b.hot);
	} else
		mon_increment(&gsi, p, 0);

	/* slow: __mon_mcount_slow(&word, &cell), or the x86-64 stub */
	gsi = gsi_start_bb(b.slow);
	if (mon_x86_64())
		mon_stub_call(&gsi, stub, mon_addr_of(&gsi, word), "m", cell,
		    NULL_TREE, NULL_TREE);
	else {
		call = gimple_build_call(mon_slow(), 2,
		    build_fold_addr_expr(word), build_fold_addr_expr(cell));
		gsi_insert_after(&gsi, call, GSI_NEW_STMT);
		mon_add_call(fun, call, b.slow);
	}
	if (mon_guarded())
		mon_guard(b.test[0], b.join);
}

/*
 * Put ntest tests a in front of the tests b: a miss goes on to b, a hit
 * (a->hot) past b, to b->join.  a->slow is b's.
 */
static void
mon_split_ahead(function *fun, struct mon_blocks *b, int ntest,
    struct mon_blocks *a)
{
	int k;

	mon_split_edge(fun, single_pred_edge(b->test[0]), ntest, a);
	redirect_edge_succ(single_succ_edge(a->hot), b->join);
	for (k = 0; k < ntest; k++)
		redirect_edge_succ(find_edge(a->test[k], a->slow), a->join);
	delete_basic_block(a->slow);
	a->slow = b->slow;
}

/* At gsi: if (((long *)p)[index] == (long)v) */
static void
mon_test_field(gimple_stmt_iterator *gsi, tree p, int index, tree v)
{
	HOST_WIDE_INT size = int_size_in_bytes(long_integer_type_node);
	tree field, vl;

	field = make_ssa_name(long_integer_type_node);
	gsi_insert_after(gsi, gimple_build_assign(field,
	    build2(MEM_REF, long_integer_type_node, p,
	    build_int_cst(TREE_TYPE(p), index * size))), GSI_NEW_STMT);
	vl = make_ssa_name(long_integer_type_node);
	gsi_insert_after(gsi, gimple_build_assign(vl, NOP_EXPR, v),
	    GSI_NEW_STMT);
	mon_test(gsi, EQ_EXPR, field, vl);
}

/*
 * The arc cache's tests in t, and its count in t->hot: two for a
 * __thread cache arc, three for word k of the area (arc NULL_TREE; *offp
 * gets the word's offset, for the stub).
 */
static void
mon_cache_tests(struct mon_blocks *t, tree arc, HOST_WIDE_INT k, tree ra,
    tree *offp)
{
	HOST_WIDE_INT size = int_size_in_bytes(long_integer_type_node);
	gimple_stmt_iterator gsi;
	tree arcp = build_pointer_type(long_integer_type_node), p, a;
	int i = 0;

	if (arc == NULL_TREE) {
		/* test 0: a = __mon_area_mine; if (a != 0) */
		gsi = gsi_start_bb(t->test[i++]);
		mon_area_test(&gsi, k, &a, offp);
		/* test 1: p = *(a + off); if (p != 0) */
		gsi = gsi_start_bb(t->test[i++]);
		p = mon_area_load(&gsi, a, *offp, arcp);
	} else {
		/* test 0: p = arc (this thread's); if (p != 0) */
		gsi = gsi_start_bb(t->test[i++]);
		p = mon_gs_load(&gsi, arc);
	}
	mon_test(&gsi, NE_EXPR, p, build_int_cst(arcp, 0));

	/* then: if (p[MON_ARC_FROM] == (long)ra) */
	gsi = gsi_start_bb(t->test[i]);
	mon_test_field(&gsi, p, MON_ARC_FROM, ra);

	/* hot: p[MON_ARC_COUNT] += 1 */
	gsi = gsi_start_bb(t->hot);
	mon_increment(&gsi, p, MON_ARC_COUNT * size);
}

/*
 * x86-64: the four tests of the announced site in t (mon.h, hook ABI 5),
 * which read and clear it, and the count through its word in t->hot.
 * The site's record, or 0, for the stub.
 */
static tree
mon_site_tests(struct mon_blocks *t, tree cell, tree ra)
{
	HOST_WIDE_INT size = int_size_in_bytes(long_integer_type_node);
	gimple_stmt_iterator gsi;
	tree rec = mon_site_rec(), arcp, wordp, w, b, s, q, c;

	arcp = build_pointer_type(long_integer_type_node);
	wordp = build_pointer_type(arcp);

	/* test 0: w = __mon_site_rec; __mon_site_rec = 0; if (w != 0) */
	gsi = gsi_start_bb(t->test[0]);
	w = make_ssa_name(ptr_type_node);
	gsi_insert_after(&gsi, gimple_build_assign(w, rec), GSI_NEW_STMT);
	gsi_insert_after(&gsi, gimple_build_assign(rec,
	    build_int_cst(ptr_type_node, 0)), GSI_NEW_STMT);
	mon_test(&gsi, NE_EXPR, w, build_int_cst(ptr_type_node, 0));

	/* test 1: q = *(long **)(w + __mon_site_bias); if (q != 0) */
	gsi = gsi_start_bb(t->test[1]);
	b = make_ssa_name(long_integer_type_node);
	gsi_insert_after(&gsi, gimple_build_assign(b, mon_site_bias()),
	    GSI_NEW_STMT);
	s = mon_pointer_plus(&gsi, w, b);
	q = make_ssa_name(arcp);
	gsi_insert_after(&gsi, gimple_build_assign(q, build2(MEM_REF, arcp, s,
	    build_int_cst(wordp, 0))), GSI_NEW_STMT);
	mon_test(&gsi, NE_EXPR, q, build_int_cst(arcp, 0));

	/* test 2: if (q[MON_ARC_FROM] == (long)ra) */
	gsi = gsi_start_bb(t->test[2]);
	mon_test_field(&gsi, q, MON_ARC_FROM, ra);

	/* test 3: if (q[MON_ARC_CELL] == (long)cell) */
	gsi = gsi_start_bb(t->test[3]);
	c = make_ssa_name(ptr_type_node);
	gsi_insert_after(&gsi, gimple_build_assign(c, cell), GSI_NEW_STMT);
	mon_test_field(&gsi, q, MON_ARC_CELL, c);

	/* hot: q[MON_ARC_COUNT] += 1 */
	gsi = gsi_start_bb(t->hot);
	mon_increment(&gsi, q, MON_ARC_COUNT * size);
	return w;
}

/* -pg: see the top of the file. */
static void
mon_instrument_arc(function *fun)
{
	static const char stub[] = MON_ARC_STUB_CALL(MON_MCOUNT_ARC_REC_STUB_NAME);
	static const char area_stub[] = MON_ARC_STUB_CALL(MON_MCOUNT_ARC_AREA_STUB_NAME);
	struct mon_blocks b, a;
	gimple_stmt_iterator gsi;
	tree arc = NULL_TREE, cell, arcp, ra, w, off = NULL_TREE;
	HOST_WIDE_INT k = -1;
	gcall *call;

	arcp = build_pointer_type(long_integer_type_node);
	if (mon_gs_ok())
		arc = mon_gs_word("__mon_arc", arcp);
	else if (!mon_area_ok() || (k = mon_area_new_word()) < 0)
		arc = mon_new_var("__mon_arc", arcp, true);
	cell = mon_new_var("__mon_cell", ptr_type_node, false);
	ra = make_ssa_name(ptr_type_node);
	if (!mon_x86_64()) {
		/* __mon_mcount_arc_cache(&cell, ra, &arc) */
		mon_split_entry(fun, 2, &b);
		mon_cache_tests(&b, arc, -1, ra, NULL);
		gsi = gsi_start_bb(b.slow);
		call = gimple_build_call(mon_arc(), 3,
		    build_fold_addr_expr(cell), ra, mon_addr_of(&gsi, arc));
		gsi_insert_after(&gsi, call, GSI_NEW_STMT);
		mon_add_call(fun, call, b.slow);
	} else {
		/*
		 * The cache first, then the site: a function called from
		 * one place at a time costs what it cost before; measured,
		 * the other order costs 4 to 14 more instructions a call.
		 */
		if (!mon_opt.reference) {
			mon_split_entry(fun, 4, &b);
			w = mon_site_tests(&b, cell, ra);
			mon_split_ahead(fun, &b, arc != NULL_TREE ? 2 : 3, &a);
			mon_cache_tests(&a, arc, k, ra, &off);
		} else {
			/* The reference: no announced site to read. */
			mon_split_entry(fun, arc != NULL_TREE ? 2 : 3, &b);
			mon_cache_tests(&b, arc, k, ra, &off);
			a = b;
			w = build_int_cst(ptr_type_node, 0);
		}
		gsi = gsi_start_bb(b.slow);
		if (arc != NULL_TREE)
			mon_stub_call(&gsi, stub, build_fold_addr_expr(cell),
			    "r", ra, mon_addr_of(&gsi, arc), w);
		else
			mon_stub_call(&gsi, area_stub,
			    build_fold_addr_expr(cell), "r", ra, off, w);
		if (mon_guarded())
			mon_guard(a.test[0], b.join);
	}

	/* ra = return address, first */
	call = gimple_build_call(builtin_decl_explicit(BUILT_IN_RETURN_ADDRESS),
	    1, integer_zero_node);
	gimple_call_set_lhs(call, ra);
	gsi = gsi_start_bb(single_succ(ENTRY_BLOCK_PTR_FOR_FN(fun)));
	gsi_insert_before(&gsi, call, GSI_NEW_STMT);
}

unsigned int
mon_instrument(function *fun)
{
	const char *how = "";		/* for verbose */

	if (mon_opt.pg) {
		/* The reference counts at the entry alone. */
		if (!mon_opt.reference)
			mon_announce_sites(fun);
		mon_instrument_arc(fun);
		how = " (arcs)";
	} else if (mon_static_ok())
		mon_instrument_static(fun);
	else
		mon_instrument_count(fun);
	free_dominance_info(CDI_DOMINATORS);
	free_dominance_info(CDI_POST_DOMINATORS);
	if (mon_opt.verbose)
		fprintf(stderr, "monprof: %s: instrumented%s\n",
		    function_name(fun), how);
	return 0;
}
