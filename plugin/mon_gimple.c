/* SPDX-License-Identifier: MIT */
/*
 * mon_gimple.c - what the plugin's passes share, below them all: the
 * options, which functions are left alone, the decls of the runtime's
 * symbols, and the pieces of GIMPLE that the -p entries (mon_instrument.c),
 * the -pg call sites (mon_sites.c) and the area words (mon_area.c) are
 * built from.  It calls none of them.
 */
#include "compat.h"

#include "mon_abi.h"
#include "mon_plugin.h"

struct mon_options mon_opt = { MON_UPDATE_THREAD, false, TLS_MODEL_NONE,
	false, false, false, -1 };

/* Set while the unit's constructor is built: not instrumented. */
bool mon_building_cdtor;

static tree	mon_rec_decl;
static tree	mon_exe_decl;
static tree	mon_mod_decl;
static tree	mon_sites_fn_decl[2];

const struct ggc_root_tab mon_gimple_roots[] = {
	{ &mon_rec_decl, 1, sizeof(mon_rec_decl), &gt_ggc_mx_tree_node,
	    &gt_pch_nx_tree_node },
	{ &mon_exe_decl, 1, sizeof(mon_exe_decl), &gt_ggc_mx_tree_node,
	    &gt_pch_nx_tree_node },
	{ &mon_mod_decl, 1, sizeof(mon_mod_decl), &gt_ggc_mx_tree_node,
	    &gt_pch_nx_tree_node },
	{ &mon_sites_fn_decl[0], 2, sizeof(mon_sites_fn_decl[0]),
	    &gt_ggc_mx_tree_node, &gt_pch_nx_tree_node },
	LAST_GGC_ROOT_TAB
};

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
const char *
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

/* An extern variable of the runtime's: NAME, of TYPE. */
static tree
mon_extern_var(const char *name, tree type)
{
	tree d;

	d = build_decl(BUILTINS_LOCATION, VAR_DECL, get_identifier(name), type);
	TREE_PUBLIC(d) = 1;
	DECL_EXTERNAL(d) = 1;
	DECL_ARTIFICIAL(d) = 1;
	return d;
}

/*
 * extern __thread void *volatile __mon_site_rec, the runtime's (hook
 * ABI 5), built once.  Initial-exec: valid in executables and in -fPIC
 * code alike, one load; volatile, as the optimizers do not know that
 * the callee reads it.
 */
tree
mon_site_rec(void)
{
	tree d;

	if (mon_rec_decl != NULL_TREE)
		return mon_rec_decl;
	d = mon_extern_var(MON_SITE_REC_VAR, build_qualified_type(
	    ptr_type_node, TYPE_QUAL_VOLATILE));
	TREE_THIS_VOLATILE(d) = 1;
	TREE_SIDE_EFFECTS(d) = 1;
	set_decl_tls_model(d, TLS_MODEL_INITIAL_EXEC);
	varpool_node::get_create(d);
	mon_rec_decl = d;
	return d;
}

/*
 * extern __thread TYPE NAME, the runtime's, initial-exec: valid in
 * executables and -fPIC code alike, one load.  Built once, into *slot.
 */
tree
mon_extern_tls(tree *slot, const char *name, tree type)
{
	if (*slot == NULL_TREE) {
		*slot = mon_extern_var(name, type);
		set_decl_tls_model(*slot, TLS_MODEL_INITIAL_EXEC);
		varpool_node::get_create(*slot);
	}
	return *slot;
}

/*
 * extern const char __mon_mcount_exe, weak and hidden, built once: the
 * runtime defines it in executables only (hook ABI 5), so its address
 * is 0 in a shared object, which the dynamic linker cannot change.
 */
tree
mon_exe(void)
{
	tree d;

	if (mon_exe_decl != NULL_TREE)
		return mon_exe_decl;
	d = mon_extern_var(MON_EXE_VAR, char_type_node);
	TREE_READONLY(d) = 1;
	DECL_VISIBILITY(d) = VISIBILITY_HIDDEN;
	DECL_VISIBILITY_SPECIFIED(d) = 1;
	declare_weak(d);		/* DECL_WEAK, and ".weak" emitted */
	varpool_node::get_create(d);
	mon_exe_decl = d;
	return d;
}

/*
 * long __mon_site_modoff, hidden and one-only: one per object, of the
 * object's own (hook ABI 6), built once.  Its registration sets it to the
 * offset of the object's mod in every thread's area (mon.h).
 */
tree
mon_site_modoff(void)
{
	tree d;

	if (mon_mod_decl != NULL_TREE)
		return mon_mod_decl;
	d = build_decl(BUILTINS_LOCATION, VAR_DECL,
	    get_identifier(MON_SITE_MODOFF_VAR), long_integer_type_node);
	TREE_PUBLIC(d) = 1;
	TREE_STATIC(d) = 1;
	DECL_ARTIFICIAL(d) = 1;
	DECL_IGNORED_P(d) = 1;
	TREE_USED(d) = 1;
	TREE_ADDRESSABLE(d) = 1;
	DECL_VISIBILITY(d) = VISIBILITY_HIDDEN;
	DECL_VISIBILITY_SPECIFIED(d) = 1;
	make_decl_one_only(d, DECL_ASSEMBLER_NAME(d));
	varpool_node::finalize_decl(d);
	mon_mod_decl = d;
	return d;
}

/*
 * The runtime's registration of an object's records (hook ABI 5), weak,
 * built once: void __mon_sites_add(long *, long *, long *), or with del
 * void __mon_sites_del(long *).
 */
tree
mon_sites_fn(bool del)
{
	tree lp = build_pointer_type(long_integer_type_node), type, d;

	if (mon_sites_fn_decl[del] != NULL_TREE)
		return mon_sites_fn_decl[del];
	type = del ? build_function_type_list(void_type_node, lp, NULL_TREE) :
	    build_function_type_list(void_type_node, lp, lp, lp, NULL_TREE);
	d = build_fn_decl(del ? MON_SITES_DEL_NAME : MON_SITES_ADD_NAME, type);
	TREE_PUBLIC(d) = 1;
	DECL_EXTERNAL(d) = 1;
	DECL_ARTIFICIAL(d) = 1;
	TREE_NOTHROW(d) = 1;
	declare_weak(d);
	DECL_ASSEMBLER_NAME(d);
	mon_sites_fn_decl[del] = d;
	return d;
}

/*
 * The TLS model of a thread-local word.  x86-64 -fPIC code has none
 * (mon_area.c) but where tls= asks for one, or past a unit's words:
 * there, and on other targets, a shared object's words are
 * global-dynamic (a call of __tls_get_addr on every entry), as
 * initial-exec would take static TLS, of which glibc keeps only a few
 * hundred bytes for every object a program dlopen()s.  TLS descriptors
 * (-mtls-dialect=gnu2) would be cheaper, but before glibc 2.40 (bug
 * 31372) their first use in a thread clobbers the vector registers that
 * hold the function's floating-point arguments, so they are left to the
 * user's choice.
 */
static enum tls_model
mon_tls_model(tree var)
{
	if (mon_opt.tls != TLS_MODEL_NONE)
		return mon_opt.tls;
	if (flag_shlib)
		return TLS_MODEL_GLOBAL_DYNAMIC;
	return decl_default_tls_model(var);
}

/* A file-local static named PREFIX.N, whose address goes to the runtime. */
static tree
mon_static(const char *prefix, tree type)
{
	tree v;

	v = build_decl(DECL_SOURCE_LOCATION(current_function_decl), VAR_DECL,
	    create_tmp_var_name(prefix), type);
	TREE_STATIC(v) = 1;
	TREE_PUBLIC(v) = 0;
	DECL_ARTIFICIAL(v) = 1;
	DECL_IGNORED_P(v) = 1;		/* no debug info */
	TREE_USED(v) = 1;
	TREE_ADDRESSABLE(v) = 1;
	return v;
}

/* A zeroed one (in .bss, or .tbss if tls). */
tree
mon_new_var(const char *prefix, tree type, bool tls)
{
	tree v = mon_static(prefix, type);

	if (tls)
		set_decl_tls_model(v, mon_tls_model(v));
	varpool_node::finalize_decl(v);
	return v;
}

/*
 * A zeroed one in section name, kept.  The section is set before the
 * decl is finalized: without toplevel reorder (-O0) it is written out
 * then, and a name set later is lost.
 */
tree
mon_new_var_in(const char *prefix, tree type, const char *name)
{
	tree v = mon_static(prefix, type);

	set_decl_section_name(v, name);
	varpool_node::get_create(v)->force_output = 1;
	varpool_node::finalize_decl(v);
	return v;
}

/*
 * x86-64, code of an executable (hook ABI 7): whether its thread-local
 * words are words of the executable's span, which each thread reads and
 * writes at its %gs base (mon_gs_word, mon_gs_load), rather than
 * __thread ones.  An explicit tls= keeps them thread-local.
 */
bool
mon_gs_ok(void)
{
	return mon_x86_64() && mon_in_executable() &&
	    mon_opt.tls == TLS_MODEL_NONE;
}

/*
 * Whether this unit's -p code counts with one instruction in the span
 * (mon_instrument_static): %gs words, update=thread.
 */
bool
mon_static_ok(void)
{
	return !mon_opt.pg && mon_gs_ok() &&
	    mon_opt.update == MON_UPDATE_THREAD;
}

/*
 * A zeroed word of the span (MON_PCTRS_SECTION): each thread's copy is
 * at its %gs base from it (mon_gs_load), and every function that uses
 * it records it (mon_gs_record).
 */
tree
mon_gs_word(const char *prefix, tree type)
{
	return mon_new_var_in(prefix, type, MON_PCTRS_SECTION);
}

/*
 * The asm of a record of var in MON_PCELLS_SECTION (struct mon_pcell),
 * its pc field pc: "1b - ." for a counter, "0" for a -pg word.  "?" puts
 * it in the function's section group, if any: a COMDAT copy the linker
 * drops takes its record with it.  The local-exec reference makes ld
 * refuse the code in a shared object, where the %gs base would not
 * reach var.
 */
const char *
mon_pcell_text(const char *pc, tree var)
{
	const char *name = IDENTIFIER_POINTER(DECL_ASSEMBLER_NAME(var));

	return ggc_strdup(ACONCAT((
	    ".pushsection " MON_PCELLS_SECTION ",\"a?\",@progbits\n\t"
	    ".balign 8\n\t"
	    ".long ", pc, "\n\t"
	    ".long " MON_AREA_VAR "@tpoff\n\t"
	    ".quad ", name, " - .\n\t"
	    ".popsection", NULL)));
}

/*
 * At gsi, var's record with pc 0: a word that the runtime zeroes in a
 * window another thread held (its arc or counter pointer is that
 * thread's), not a counter.
 */
static void
mon_gs_record(gimple_stmt_iterator *gsi, tree var)
{
	gasm *stmt;

	stmt = gimple_build_asm_vec(mon_pcell_text("0", var), NULL, NULL,
	    NULL, NULL);
	gimple_asm_set_volatile(stmt, true);
	gsi_insert_after(gsi, stmt, GSI_NEW_STMT);
}

/* x86's __seg_gs (ADDR_SPACE_SEG_GS of i386-protos.h, not a plugin header). */
#define MON_SEG_GS	((addr_space_t)2)

/*
 * At gsi: p = var, an SSA name of var's type, from this thread's copy
 * if var is a word of the span (mon_gs_word: *(TYPE __seg_gs *)&var,
 * which GCC makes one %gs:var(%rip) operand), else var itself.
 */
tree
mon_gs_load(gimple_stmt_iterator *gsi, tree var)
{
	tree qt, pt, i, a, p = make_ssa_name(TREE_TYPE(var));

	if (DECL_THREAD_LOCAL_P(var)) {
		gsi_insert_after(gsi, gimple_build_assign(p, var),
		    GSI_NEW_STMT);
		return p;
	}
	mon_gs_record(gsi, var);
	qt = build_qualified_type(TREE_TYPE(var),
	    ENCODE_QUAL_ADDR_SPACE(MON_SEG_GS));
	pt = build_pointer_type(qt);
	i = make_ssa_name(pointer_sized_int_node);
	gsi_insert_after(gsi, gimple_build_assign(i, NOP_EXPR,
	    build_fold_addr_expr(var)), GSI_NEW_STMT);
	a = make_ssa_name(pt);
	gsi_insert_after(gsi, gimple_build_assign(a, NOP_EXPR, i),
	    GSI_NEW_STMT);
	gsi_insert_after(gsi, gimple_build_assign(p,
	    build2(MEM_REF, qt, a, build_int_cst(pt, 0))), GSI_NEW_STMT);
	return p;
}

/* An SSA name holding &var (not an invariant when var is thread-local). */
tree
mon_addr_of(gimple_stmt_iterator *gsi, tree var)
{
	tree p = make_ssa_name(build_pointer_type(TREE_TYPE(var)));

	gsi_insert_after(gsi, gimple_build_assign(p, build_fold_addr_expr(var)),
	    GSI_NEW_STMT);
	return p;
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
 * Operands: %0 = %rax, %1 for %r11, %2 (-pg) pushed above the return
 * address, and %3 above it.
 */
void
mon_stub_call(gimple_stmt_iterator *gsi, const char *text, tree rax,
    const char *r11_constraint, tree r11, tree pushed, tree pushed2)
{
	vec<tree, va_gc> *in = NULL, *clobbers = NULL;
	gasm *stmt;

	vec_safe_push(in, mon_asm_operand("a", rax));
	vec_safe_push(in, mon_asm_operand(r11_constraint, r11));
	if (pushed != NULL_TREE)
		vec_safe_push(in, mon_asm_operand("r", pushed));
	if (pushed2 != NULL_TREE)
		vec_safe_push(in, mon_asm_operand("r", pushed2));
	vec_safe_push(clobbers, mon_asm_clobber("memory"));
	vec_safe_push(clobbers, mon_asm_clobber("cc"));
	vec_safe_push(clobbers, mon_asm_clobber("r11"));
	/* No hint in shared objects: the executable's runtime serves them. */
	if (!flag_shlib)
		text = ACONCAT((".reloc .,R_X86_64_NONE,\"" MON_LINK_HINT "\"\n\t",
		    text, NULL));
	stmt = gimple_build_asm_vec(text, in, NULL, clobbers, NULL);
	gimple_asm_set_volatile(stmt, true);
	gsi_insert_after(gsi, stmt, GSI_NEW_STMT);
}

/*
 * Put the blocks of a test on edge e (the entry edge: not the first
 * block, which after tail-recursion elimination may be a loop header with
 * PHIs).  Branch prediction has already run, so the edge probabilities
 * are set here; __builtin_expect would have no effect this late.
 */
void
mon_split_edge(function *fun, edge e, int ntest, struct mon_blocks *b)
{
	edge hot, cold;
	int k;

	b->test[0] = split_edge(e);
	for (k = 1; k < ntest; k++)
		b->test[k] = split_edge(single_succ_edge(b->test[k - 1]));
	b->hot = split_edge(single_succ_edge(b->test[ntest - 1]));
	b->join = split_edge(single_succ_edge(b->hot));
	b->slow = create_empty_bb(EXIT_BLOCK_PTR_FOR_FN(fun)->prev_bb);
	if (current_loops != NULL)
		add_bb_to_loop(b->slow, b->test[0]->loop_father);
	b->slow->count = profile_count::zero();
	for (k = 0; k < ntest; k++) {
		hot = single_succ_edge(b->test[k]);
		hot->flags = (hot->flags & ~EDGE_FALLTHRU) | EDGE_TRUE_VALUE;
		hot->probability = profile_probability::very_likely();
		cold = make_edge(b->test[k], b->slow, EDGE_FALSE_VALUE);
		cold->probability = hot->probability.invert();
		b->slow->count += cold->count();
		if (k + 1 < ntest)
			b->test[k + 1]->count = hot->count();
		else
			b->hot->count = hot->count();
	}
	make_single_succ_edge(b->slow, b->join, EDGE_FALLTHRU);
}

/* b (of ntest tests) without its slow block: a failed test goes to join. */
void
mon_drop_slow(struct mon_blocks *b, int ntest)
{
	int k;

	for (k = 0; k < ntest; k++)
		redirect_edge_succ(find_edge(b->test[k], b->slow), b->join);
	delete_basic_block(b->slow);
}

/* At gsi: if (a CODE b), the test ending a block of mon_split_entry. */
void
mon_test(gimple_stmt_iterator *gsi, enum tree_code code, tree a, tree b)
{
	gsi_insert_after(gsi, gimple_build_cond(code, a, b, NULL_TREE,
	    NULL_TREE), GSI_NEW_STMT);
}

/*
 * Whether this function's thread-local state sits behind the guard of
 * threads the C library did not start (guard=; by default code built
 * -fPIC is guarded, an executable's one-instruction counter is not).
 * A raw clone(CLONE_SETTLS) thread's thread pointer need not have the
 * C library's TCB behind it: below it, where every thread-local word
 * lives, may be unmapped memory or another object's.  glibc's TCB
 * points at itself twice, header.tcb at 0 and header.self at 16, and
 * both lie above the thread pointer, in any block a raw clone maps.
 */
bool
mon_guarded(void)
{
	return mon_x86_64() && (mon_opt.guard > 0 ||
	    (mon_opt.guard < 0 && !mon_in_executable()));
}

/*
 * At gsi: if (((void **)tp)[2] == tp), tp the thread pointer, true on
 * the C library's threads (mov %fs:0; cmp 16(tp); jne: three
 * instructions, none of them below the thread pointer).
 */
void
mon_guard_test(gimple_stmt_iterator *gsi)
{
	tree tp = make_ssa_name(ptr_type_node), self;
	gcall *call;

	call = gimple_build_call(builtin_decl_explicit(BUILT_IN_THREAD_POINTER),
	    0);
	gimple_call_set_lhs(call, tp);
	gsi_insert_after(gsi, call, GSI_NEW_STMT);
	self = make_ssa_name(ptr_type_node);
	gsi_insert_after(gsi, gimple_build_assign(self, build2(MEM_REF,
	    ptr_type_node, tp, build_int_cst(build_pointer_type(
	    ptr_type_node), 2 * int_size_in_bytes(ptr_type_node)))),
	    GSI_NEW_STMT);
	mon_test(gsi, EQ_EXPR, self, tp);
}

/*
 * Put the guard in front of first, whose only predecessor leads to it:
 * a thread that fails it goes on to skip, past all the blocks that
 * touch thread-local state.  skip must have no PHIs (a join block).
 */
void
mon_guard(basic_block first, basic_block skip)
{
	basic_block test = split_edge(single_pred_edge(first));
	gimple_stmt_iterator gsi = gsi_start_bb(test);
	edge yes = single_succ_edge(test), no;

	mon_guard_test(&gsi);
	yes->flags = (yes->flags & ~EDGE_FALLTHRU) | EDGE_TRUE_VALUE;
	yes->probability = profile_probability::very_likely();
	no = make_edge(test, skip, EDGE_FALSE_VALUE);
	no->probability = yes->probability.invert();
	first->count = yes->count();
}

/*
 * At gsi: an SSA name of p's type (or pointer type) holding p + off, off
 * an integer (converted to sizetype first: an operand must be a value).
 */
tree
mon_pointer_plus(gimple_stmt_iterator *gsi, tree p, tree off)
{
	tree o = make_ssa_name(sizetype), r;

	gsi_insert_after(gsi, gimple_build_assign(o, NOP_EXPR, off),
	    GSI_NEW_STMT);
	r = make_ssa_name(TREE_CODE(p) == ADDR_EXPR ? ptr_type_node :
	    TREE_TYPE(p));
	gsi_insert_after(gsi, gimple_build_assign(r, POINTER_PLUS_EXPR, p, o),
	    GSI_NEW_STMT);
	return r;
}

/* At gsi: *(long *)(p + offset) += 1, a plain increment. */
void
mon_increment(gimple_stmt_iterator *gsi, tree p, HOST_WIDE_INT offset)
{
	tree ref, t1, t2;

	ref = build2(MEM_REF, long_integer_type_node, p,
	    build_int_cst(TREE_TYPE(p), offset));
	t1 = make_ssa_name(long_integer_type_node);
	t2 = make_ssa_name(long_integer_type_node);
	gsi_insert_after(gsi, gimple_build_assign(t1, ref), GSI_NEW_STMT);
	gsi_insert_after(gsi, gimple_build_assign(t2, PLUS_EXPR, t1,
	    build_int_cst(long_integer_type_node, 1)), GSI_NEW_STMT);
	gsi_insert_after(gsi, gimple_build_assign(unshare_expr(ref), t2),
	    GSI_NEW_STMT);
}

bool
mon_x86_64(void)
{
	return TARGET_64BIT && TARGET_LP64;
}

/*
 * Whether this code can only be in an executable: not -fPIC, or an LTO
 * link's for an executable (GCC sets flag_pic there, not flag_pie; an
 * ltrans process that is not told the output compiles as -fPIC).
 */
bool
mon_in_executable(void)
{
	if (in_lto_p)
		return flag_lto_linker_output == LTO_LINKER_OUTPUT_EXEC ||
		    flag_lto_linker_output == LTO_LINKER_OUTPUT_PIE;
	return !flag_shlib;
}

/*
 * if (fn != 0) fn(args...), fn a weak function of the runtime's.  GCC
 * writes its .weak and .hidden directives before a unit's constructors,
 * and only for symbols already referenced: the body says them itself,
 * for fn and, in more, whatever else it names.
 */
tree
mon_weak_call(tree fn, int n, tree *args, const char *more)
{
	const char *text = ACONCAT((".weak ",
	    IDENTIFIER_POINTER(DECL_ASSEMBLER_NAME(fn)), more, NULL));
	tree body = NULL_TREE, dir;

	dir = build5(ASM_EXPR, void_type_node, build_string(strlen(text) + 1,
	    text), NULL_TREE, NULL_TREE, NULL_TREE, NULL_TREE);
	ASM_VOLATILE_P(dir) = 1;
	append_to_statement_list(dir, &body);
	append_to_statement_list(build3(COND_EXPR, void_type_node,
	    build2(NE_EXPR, boolean_type_node, build_fold_addr_expr(fn),
	    null_pointer_node), build_call_expr_loc_array(BUILTINS_LOCATION,
	    fn, n, args), build_empty_stmt(BUILTINS_LOCATION)), &body);
	return body;
}
