/* SPDX-License-Identifier: MIT */
/*
 * mon_returns.c - which functions of the unit always return to their
 * caller: no call that may not (a function of another unit that GCC
 * does not know for const, pure or a leaf builtin, exit, longjmp, a
 * throw), no indirect call, and every call of the unit's own to a
 * function that returns.  -p counts the calls of one straight run of
 * code at once before the first (mon_groups.c): exact only where each
 * call but the last returns.  Decided for the whole unit at once,
 * before its first function is compiled (and its call edges released),
 * from cgraph's edges, the bodies inlined included; a recursion counts
 * as returning (it ends or the stack does).
 */
#include "compat.h"

#include "calls.h"

#include "mon_plugin.h"

static hash_set<tree> *mon_returning;

/* A function of elsewhere that returns: GCC's facts about it. */
static bool
mon_returns_known(tree decl)
{
	int flags = flags_from_decl_or_type(decl);

	if (flags & (ECF_NORETURN | ECF_RETURNS_TWICE))
		return false;
	if ((flags & (ECF_CONST | ECF_PURE)) && (flags & ECF_NOTHROW))
		return true;
	return fndecl_built_in_p(decl, BUILT_IN_NORMAL) &&
	    (flags & ECF_NOTHROW) && (flags & ECF_LEAF);
}

/* Whether each call of node's body (inlined bodies too) returns. */
static bool
mon_body_returns(cgraph_node *node)
{
	cgraph_edge *e;
	tree decl;

	if (node->indirect_calls != NULL)
		return false;
	for (e = node->callees; e != NULL; e = e->next_callee) {
		if (!e->inline_failed) {
			if (!mon_body_returns(e->callee))
				return false;
			continue;
		}
		if (e->can_throw_external)
			return false;
		decl = e->callee->ultimate_alias_target()->decl;
		if (!mon_returning->contains(decl) && !mon_returns_known(decl))
			return false;
	}
	return true;
}

void
mon_returns_prepare(void)
{
	cgraph_node *node;
	bool changed;

	if (mon_returning != NULL || !mon_static_ok())
		return;
	mon_returning = new hash_set<tree>;
	FOR_EACH_FUNCTION_WITH_GIMPLE_BODY(node)
		if (node->inlined_to == NULL && !node->thunk)
			mon_returning->add(node->decl);
	/* Drop what calls what does not return, until nothing changes. */
	do {
		changed = false;
		FOR_EACH_FUNCTION_WITH_GIMPLE_BODY(node)
			if (node->inlined_to == NULL &&
			    mon_returning->contains(node->decl) &&
			    !mon_body_returns(node)) {
				mon_returning->remove(node->decl);
				changed = true;
			}
	} while (changed);
}

bool
mon_returns(tree fndecl)
{
	return mon_returning != NULL && mon_returning->contains(fndecl);
}
