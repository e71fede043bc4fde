/* SPDX-License-Identifier: MIT */
/*
 * mon_groups.c - -p calls counted where they are made, once per group
 * (hook ABI 9, mon_abi.h).  A local function whose calls are all
 * direct calls of the unit (mon_sites.c decides) has no entry code;
 * an RTL pass, the last before the branches are shortened, counts its
 * calls instead: the calls of one straight run of code (no label, jump,
 * volatile asm or other call between them), each but the last to a
 * function that always returns (mon_returns.c), are one group, counted
 * by one instruction before the first,
 *
 *	addq	$1, %gs:slot(%rip)
 *
 * with a record per callee of the group: its entry, its calls in the
 * group, the slot, and the unit's word for its cell.  A recursive
 * function's two calls and its leaf's, or a loop body's three, cost one
 * instruction where each entry cost one.  RTL, as mon_calls.c: after
 * every pass that moves or copies insns, so a record is never copied.
 *
 * A global function whose code is surely this unit's wherever the unit
 * calls it (not weak, COMDAT or interposable) keeps its count for the
 * calls from elsewhere, but as its first instruction, before the
 * prologue, printed by the target's prologue hook; a label after it is
 * a second entry, which the unit's groups call instead:
 *
 *	f:	addq	$1, %gs:ctr(%rip)	calls from elsewhere
 *	.Lmon_nc_f:				calls of the unit's groups
 *		...the prologue and body
 */
#include "compat.h"

#include "rtl.h"
#include "emit-rtl.h"
#include "target.h"
#include "output.h"

#include "mon_abi.h"
#include "mon_plugin.h"

/*
 * Global functions with a second entry: their count at the first
 * instruction (mon_groups_prologue), their unit's groups calling past
 * it (.Lmon_nc_NAME), as a local function's calls are counted.
 */
static hash_set<tree> *mon_entry2_fns;
static unsigned int mon_entry2_n;
static void (*mon_prologue_next)(FILE *);

/* Labels of this unit: .Lmon_gslotN, and .Lmon_gcellN per callee. */
static unsigned int mon_groups_n;
static hash_map<tree, unsigned int> *mon_group_cells;

/* A group: its first call and, per callee, how many of its calls are. */
struct mon_group {
	rtx_insn	*first;
	auto_vec<tree>	 callee;
	auto_vec<int>	 calls;
};

/* The number of callee's cell word in the unit; *fresh: made now. */
static unsigned int
mon_group_cell(tree callee, bool *fresh)
{
	bool existed;
	unsigned int *v;

	if (mon_group_cells == NULL)
		mon_group_cells = new hash_map<tree, unsigned int>;
	v = &mon_group_cells->get_or_insert(callee, &existed);
	if (!existed)
		*v = mon_group_cells->elements() - 1;
	*fresh = !existed;
	return *v;
}

/* text, then more (freed: both malloc's). */
static char *
mon_group_cat(char *text, const char *more)
{
	char *t = concat(text, more, NULL);

	free(text);
	return t;
}

/* Count grp: the slot's increment and the records, before its first. */
static void
mon_group_emit(struct mon_group *grp)
{
	unsigned int n = mon_groups_n++, k, i;
	char buf[512], *text;
	bool fresh;

	snprintf(buf, sizeof(buf),
	    ".pushsection " MON_PCTRS_SECTION ",\"aw\"\n\t"
	    ".balign 8\n"
	    ".Lmon_gslot%u:\n\t"
	    ".zero 8\n\t"
	    ".popsection\n\t"
	    "addq $1, %%gs:.Lmon_gslot%u(%%rip)", n, n);
	text = xstrdup(buf);
	for (i = 0; i < grp->callee.length(); i++) {
		k = mon_group_cell(grp->callee[i], &fresh);
		if (fresh) {
			snprintf(buf, sizeof(buf),
			    "\n\t.pushsection .bss,\"aw\",@nobits\n\t"
			    ".balign 8\n"
			    ".Lmon_gcell%u:\n\t"
			    ".zero 8\n\t"
			    ".popsection", k);
			text = mon_group_cat(text, buf);
		}
		snprintf(buf, sizeof(buf),
		    "\n\t.pushsection " MON_PBLOCKS_SECTION
		    ",\"a?\",@progbits\n\t"
		    ".balign 8\n\t"
		    ".long \"%s\" + 1 - .\n\t"
		    ".long %d\n\t"
		    ".quad .Lmon_gslot%u - .\n\t"
		    ".quad .Lmon_gcell%u - .\n\t"
		    ".popsection", mon_calls_asm_name(grp->callee[i]),
		    grp->calls[i], n, k);
		text = mon_group_cat(text, buf);
	}
	emit_insn_before(mon_calls_asm(text, grp->first), grp->first);
	free(text);
	if (mon_opt.verbose) {
		fprintf(stderr, "monprof: %s: calls counted in one group:",
		    function_name(cfun));
		for (i = 0; i < grp->callee.length(); i++)
			fprintf(stderr, " %s x%d", mon_calls_asm_name(
			    grp->callee[i]), grp->calls[i]);
		fputc('\n', stderr);
	}
	grp->first = NULL;
	grp->callee.truncate(0);
	grp->calls.truncate(0);
}

/* Add insn, a call of callee, to grp. */
static void
mon_group_add(struct mon_group *grp, rtx_insn *insn, tree callee)
{
	unsigned int i;

	if (grp->first == NULL)
		grp->first = insn;
	for (i = 0; i < grp->callee.length(); i++)
		if (grp->callee[i] == callee) {
			grp->calls[i]++;
			return;
		}
	grp->callee.safe_push(callee);
	grp->calls.safe_push(1);
}

/*
 * Whether node, a global function of the unit, gets a second entry: its
 * code is this unit's wherever it is called from here (not weak, not
 * COMDAT, not interposable), its first instruction can be the count
 * (no endbr64, no patchable entry, no attribute that shapes the entry),
 * and a function that runs the pass calls it.
 */
static bool
mon_entry2_ok(cgraph_node *node)
{
	tree d = node->decl;
	cgraph_edge *e;

	if (node->inlined_to != NULL || node->thunk || node->alias ||
	    !TREE_PUBLIC(d) || DECL_EXTERNAL(d) || DECL_WEAK(d) ||
	    DECL_COMDAT(d) || DECL_ONE_ONLY(d) ||
	    node->get_comdat_group() != NULL || node->ifunc_resolver ||
	    !decl_binds_to_current_def_p(d) || mon_site_counted(d) ||
	    DECL_STATIC_CONSTRUCTOR(d) || DECL_STATIC_DESTRUCTOR(d) ||
	    lookup_attribute("ms_hook_prologue", DECL_ATTRIBUTES(d)) ||
	    mon_skip_reason(d) != NULL)
		return false;
	for (e = node->callers; e != NULL; e = e->next_caller)
		if (e->inline_failed && !e->caller->thunk &&
		    mon_skip_reason((e->caller->inlined_to != NULL ?
		    e->caller->inlined_to : e->caller)->decl) == NULL)
			return true;
	return false;
}

/* Decide for the whole unit at once, as mon_sites_prepare. */
void
mon_groups_prepare(void)
{
	cgraph_node *node;

	if (mon_entry2_fns != NULL || !mon_static_ok() || !mon_x86_64())
		return;
	mon_entry2_fns = new hash_set<tree>;
	if ((flag_cf_protection & CF_BRANCH) ||
	    (flag_patchable_function_entry != NULL &&
	    *flag_patchable_function_entry != '\0'))
		return;
	FOR_EACH_FUNCTION_WITH_GIMPLE_BODY(node)
		if (mon_entry2_ok(node))
			mon_entry2_fns->add(node->decl);
}

bool
mon_groups_entry2(tree fndecl)
{
	return mon_entry2_fns != NULL && mon_entry2_fns->contains(fndecl);
}

/* The label of fndecl's second entry, past its count. */
static const char *
mon_entry2_label(tree fndecl)
{
	return ggc_strdup(ACONCAT((".Lmon_nc_", mon_calls_asm_name(fndecl),
	    NULL)));
}

/*
 * The first instructions of a function with a second entry, before its
 * prologue: the count, as mon_instrument_static's, then the label.
 */
static void
mon_groups_prologue(FILE *f)
{
	tree d = current_function_decl;
	const char *label;
	char ctr[64], *pc;

	if (d != NULL_TREE && mon_groups_entry2(d)) {
		snprintf(ctr, sizeof(ctr), ".Lmon_ectr%u", mon_entry2_n++);
		label = mon_entry2_label(d);
		pc = concat(label, " - .", NULL);	/* ACONCAT nests not */
		fprintf(f, "\t.pushsection " MON_PCTRS_SECTION ",\"aw\"\n"
		    "\t.balign 8\n%s:\n\t.zero 8\n\t.popsection\n"
		    "\taddq $1, %%gs:%s(%%rip)\n%s:\n"
		    "\t.reloc %s,R_X86_64_NONE,\"" MON_LINK_HINT "\"\n\t%s\n",
		    ctr, ctr, label, label, mon_pcell_text_of(pc, ctr));
		free(pc);
	}
	if (mon_prologue_next != NULL)
		mon_prologue_next(f);
}

/* Put mon_groups_prologue before the target's prologue text. */
void
mon_groups_prologue_hook(void)
{
	if (mon_prologue_next != NULL)
		return;
	mon_prologue_next = targetm.asm_out.function_prologue;
	targetm.asm_out.function_prologue = mon_groups_prologue;
}

/* Call the second entry of insn's callee, a global function. */
static void
mon_call_entry2(rtx_insn *insn, tree callee)
{
	rtx call = get_call_rtx_from(insn), mem = XEXP(call, 0), sym;

	sym = gen_rtx_SYMBOL_REF(Pmode, mon_entry2_label(callee));
	SYMBOL_REF_FLAGS(sym) = SYMBOL_FLAG_LOCAL | SYMBOL_FLAG_FUNCTION;
	mem = shallow_copy_rtx(mem);
	XEXP(mem, 0) = sym;
	XEXP(call, 0) = mem;
}

/* Whether insn ends the straight run a group is made of. */
static bool
mon_group_breaks(rtx_insn *insn)
{
	return LABEL_P(insn) || JUMP_P(insn) || BARRIER_P(insn) ||
	    (NONJUMP_INSN_P(insn) && volatile_insn_p(PATTERN(insn)));
}

/* Count fun's groups (mon_plugin.c's RTL pass). */
unsigned int
mon_groups_count(function *fun)
{
	struct mon_group grp;
	rtx_insn *insn;
	tree callee;
	bool open = false;	/* the group's last call returns */
	bool entry2;

	(void)fun;
	grp.first = NULL;
	for (insn = get_insns(); insn != NULL; insn = NEXT_INSN(insn)) {
		if (CALL_P(insn)) {
			callee = mon_calls_callee(insn);
			/*
			 * Not one whose body is only available here (an
			 * extern template's): its code is elsewhere's.
			 */
			entry2 = callee != NULL_TREE &&
			    mon_groups_entry2(callee);
			if (callee == NULL_TREE || DECL_EXTERNAL(callee) ||
			    (!mon_site_counted(callee) && !entry2)) {
				if (grp.first != NULL)
					mon_group_emit(&grp);
				open = false;
				continue;
			}
			if (grp.first != NULL && !open)
				mon_group_emit(&grp);
			mon_group_add(&grp, insn, callee);
			if (entry2)
				mon_call_entry2(insn, callee);
			open = mon_returns(callee) && !SIBLING_CALL_P(insn);
		} else if (mon_group_breaks(insn)) {
			if (grp.first != NULL)
				mon_group_emit(&grp);
			open = false;
		}
	}
	if (grp.first != NULL)
		mon_group_emit(&grp);
	return 0;
}
