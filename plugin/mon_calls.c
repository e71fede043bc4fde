/* SPDX-License-Identifier: MIT */
/*
 * mon_calls.c - -pg arcs of an executable counted where the calls are
 * made (hook ABI 8, mon_abi.h).  An RTL pass, the last before the
 * branches are shortened, puts around each direct call of an
 * instrumented function
 *
 *	addq	$1, %gs:slot(%rip)		the arc's counter, one per site
 *	movl	$tag, %gs:__mon_pend(%rip)	"counted": the callee skips it
 *	call	callee
 *   ret:					a record: ret, tag, slot
 *
 * so that a call costs two instructions here and two at the callee's
 * entry (mon_instrument.c), whatever the pattern of callers, where the
 * arc cache of version 2 missed on every call of a function called from
 * two places in turn.  RTL, not GIMPLE: the record needs the return
 * address, which only a label right after the call instruction gives,
 * and the runtime needs it to tell a call counted here from one that is
 * not (mon_abi.h).
 *
 * Local functions whose calls are all counted at their sites
 * (mon_sites.c decides) have no entry code: their sites, tail calls too,
 * only count (tag 0).  Builtins, functions declared in system headers
 * and not defined in the unit (a library's: their tag would only be
 * left behind) and the runtime's are not sites; nor are tail calls and
 * returns_twice calls of functions that have entry code, which count
 * them themselves.
 */
#include "compat.h"

#include "rtl.h"
#include "emit-rtl.h"
#include "calls.h"
#include "target.h"

#include "mon_abi.h"
#include "mon_plugin.h"

/* Labels of this unit's sites: .Lmon_slotN, .Lmon_retN. */
static unsigned int mon_calls_n;

/*
 * Whether this unit's -pg code counts its calls here: as -p's counters,
 * x86-64 code of an executable, update=thread, no explicit tls=.
 */
bool
mon_calls_ok(void)
{
	return mon_opt.pg && mon_gs_ok() &&
	    mon_opt.update == MON_UPDATE_THREAD;
}

/* The name decl is assembled under, without the target's marks. */
const char *
mon_calls_asm_name(tree decl)
{
	return targetm.strip_name_encoding(
	    IDENTIFIER_POINTER(DECL_ASSEMBLER_NAME(decl)));
}

/* The tag of fndecl's entry, and of the sites that call it. */
unsigned int
mon_calls_tag(tree fndecl)
{
	return MON_TAG(mon_calls_asm_name(fndecl));
}

/*
 * The asm of fndecl's record in MON_PFNS_SECTION: its entry and its
 * cell.  In its section group, as mon_pcell_text's.
 */
const char *
mon_calls_pfn_text(tree fndecl, tree cell)
{
	/* Named by the asm alone: kept, as the optimizers cannot see it. */
	DECL_PRESERVE_P(cell) = 1;
	varpool_node::get_create(cell)->force_output = 1;
	return ggc_strdup(ACONCAT((
	    ".pushsection " MON_PFNS_SECTION ",\"a?\",@progbits\n\t"
	    ".balign 8\n\t"
	    ".long \"", mon_calls_asm_name(fndecl), "\" - .\n\t"
	    ".long " MON_AREA_VAR "@tpoff\n\t"
	    ".quad ", IDENTIFIER_POINTER(DECL_ASSEMBLER_NAME(cell)), " - .\n\t"
	    ".popsection", NULL)));
}

/*
 * A basic asm of text, volatile, on insn's line, or the function's if
 * insn has none, or <built-in>'s: final reads an asm's file name
 * unchecked (a call without a line crashed GCC on zstd's pool.c).
 */
rtx
mon_calls_asm(const char *text, rtx_insn *insn)
{
	location_t loc = INSN_LOCATION(insn);
	rtx body;

	if (LOCATION_LOCUS(loc) == UNKNOWN_LOCATION)
		loc = DECL_SOURCE_LOCATION(current_function_decl);
	if (LOCATION_LOCUS(loc) == UNKNOWN_LOCATION)
		loc = BUILTINS_LOCATION;
	body = gen_rtx_ASM_INPUT_loc(VOIDmode, ggc_strdup(text), loc);

	MEM_VOLATILE_P(body) = 1;
	return body;
}

/* The function call insn calls directly, if any. */
tree
mon_calls_callee(rtx_insn *insn)
{
	rtx call = get_call_rtx_from(insn), addr;
	tree decl;

	if (call == NULL_RTX || !MEM_P(XEXP(call, 0)))
		return NULL_TREE;
	addr = XEXP(XEXP(call, 0), 0);
	if (GET_CODE(addr) != SYMBOL_REF ||
	    (decl = SYMBOL_REF_DECL(addr)) == NULL_TREE ||
	    TREE_CODE(decl) != FUNCTION_DECL)
		return NULL_TREE;
	return decl;
}

/*
 * The tag insn's call of callee stores, 0 if it only counts, or -1 if
 * it is no site.
 */
static long
mon_site_tag(rtx_insn *insn, tree callee)
{
	cgraph_node *node;

	if (mon_site_counted(callee))
		return 0;	/* every call counts here, tail calls too */
	node = cgraph_node::get(callee);
	if (SIBLING_CALL_P(insn) || fndecl_built_in_p(callee) ||
	    (DECL_IN_SYSTEM_HEADER(callee) &&
	    (node == NULL || !node->definition)) ||
	    (flags_from_decl_or_type(callee) & ECF_RETURNS_TWICE) ||
	    mon_skip_reason(callee) != NULL)
		return -1;
	return (long)mon_calls_tag(callee);
}

/* Count insn's call of callee where it is made. */
static void
mon_count_call(rtx_insn *insn, tree callee, long tag)
{
	unsigned int n = mon_calls_n++;
	bool jmp = SIBLING_CALL_P(insn);
	char slot[256], pend[128] = "", rec[384];

	snprintf(slot, sizeof(slot),
	    ".pushsection " MON_PCTRS_SECTION ",\"aw\"\n\t"
	    ".balign 8\n"
	    ".Lmon_slot%u:\n\t"
	    ".zero 8\n\t"
	    ".popsection\n\t"
	    "addq $1, %%gs:.Lmon_slot%u(%%rip)", n, n);
	if (tag != 0)
		snprintf(pend, sizeof(pend), "\n\tmovl $%lu, %%gs:"
		    MON_PEND_VAR "(%%rip)", (unsigned long)tag);
	/* The record, at the return, or at a tail call's jmp: no return. */
	snprintf(rec, sizeof(rec),
	    ".Lmon_ret%u:\n\t"
	    ".pushsection " MON_PSITES_SECTION ",\"a?\",@progbits\n\t"
	    ".balign 8\n\t"
	    ".long .Lmon_ret%u - .\n\t"
	    ".long %lu\n\t"
	    ".quad .Lmon_slot%u - .\n\t"
	    ".popsection", n, n,
	    (unsigned long)(jmp ? MON_TAG_JMP : tag), n);
	if (jmp)
		emit_insn_before(mon_calls_asm(ACONCAT((slot, "\n", rec, NULL)), insn),
		    insn);
	else {
		emit_insn_before(mon_calls_asm(ACONCAT((slot, pend, NULL)), insn),
		    insn);
		emit_insn_after(mon_calls_asm(rec, insn), insn);
	}
	if (mon_opt.verbose)
		fprintf(stderr, "monprof: %s: call of %s counted at its site%s\n",
		    function_name(cfun), mon_calls_asm_name(callee),
		    tag != 0 ? "" : jmp ? " (a tail call, no entry code)" :
		    " (no entry code)");
}

/* Count fun's calls where they are made (mon_plugin.c's RTL pass). */
unsigned int
mon_calls_count(function *fun)
{
	rtx_insn *insn;
	tree callee;
	long tag;

	(void)fun;
	for (insn = get_insns(); insn != NULL; insn = NEXT_INSN(insn))
		if (CALL_P(insn) && (callee = mon_calls_callee(insn)) != NULL_TREE &&
		    (tag = mon_site_tag(insn, callee)) >= 0)
			mon_count_call(insn, callee, tag);
	return 0;
}
