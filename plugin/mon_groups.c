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
 */
#include "compat.h"

#include "rtl.h"
#include "emit-rtl.h"

#include "mon_abi.h"
#include "mon_plugin.h"

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

/* Whether insn ends the straight run a group is made of. */
static bool
mon_group_breaks(rtx_insn *insn)
{
	return LABEL_P(insn) || JUMP_P(insn) || BARRIER_P(insn) ||
	    (NONJUMP_INSN_P(insn) && volatile_insn_p(PATTERN(insn)));
}

static unsigned int
mon_count_groups(function *fun)
{
	struct mon_group grp;
	rtx_insn *insn;
	tree callee;
	bool open = false;	/* the group's last call returns */

	(void)fun;
	grp.first = NULL;
	for (insn = get_insns(); insn != NULL; insn = NEXT_INSN(insn)) {
		if (CALL_P(insn)) {
			callee = mon_calls_callee(insn);
			/*
			 * Not one whose body is only available here (an
			 * extern template's): its code is elsewhere's.
			 */
			if (callee == NULL_TREE || DECL_EXTERNAL(callee) ||
			    !mon_site_counted(callee)) {
				if (grp.first != NULL)
					mon_group_emit(&grp);
				open = false;
				continue;
			}
			if (grp.first != NULL && !open)
				mon_group_emit(&grp);
			mon_group_add(&grp, insn, callee);
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

namespace {

const pass_data mon_groups_pass_data = {
	RTL_PASS,		/* type */
	"monprof_groups",	/* name */
	OPTGROUP_NONE,		/* optinfo_flags */
	TV_NONE,		/* tv_id */
	0,			/* properties_required */
	0,			/* properties_provided */
	0,			/* properties_destroyed */
	0,			/* todo_flags_start */
	0,			/* todo_flags_finish */
};

class mon_groups_pass : public rtl_opt_pass {
public:
	mon_groups_pass(gcc::context *ctxt) :
	    rtl_opt_pass(mon_groups_pass_data, ctxt) {}

	bool
	gate(function *fun) override
	{
		return fun != NULL && !mon_building_cdtor && mon_static_ok() &&
		    mon_skip_reason(fun->decl) == NULL;
	}

	unsigned int
	execute(function *fun) override
	{
		return mon_count_groups(fun);
	}

	opt_pass *
	clone() override
	{
		return new mon_groups_pass(m_ctxt);
	}
};

} /* namespace */

/* The pass, for plugin_init to insert before "shorten". */
opt_pass *
mon_groups_pass_new(void)
{
	return new mon_groups_pass(g);
}
