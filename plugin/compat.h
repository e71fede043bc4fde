/* SPDX-License-Identifier: MIT */
/*
 * compat.h - the GCC headers the monprof plugin needs, in an order that
 * compiles with every supported GCC, and the only place where the plugin
 * tests GCC's version.  Supported: GCC 11 and 12 (tested); 13 and 14
 * have the shims below but are untested.
 */
#ifndef MON_COMPAT_H
#define MON_COMPAT_H

#include "gcc-plugin.h"
/* gcc_version, a static only mon_plugin.c uses */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wunused-variable"
#include "plugin-version.h"
#pragma GCC diagnostic pop

#include "tree.h"
#include "gimple.h"
#include "tree-pass.h"
#include "context.h"
#include "ssa.h"
#include "cgraph.h"
#include "cfgloop.h"
#include "gimple-iterator.h"	/* GCC 13: before gimple-fold.h */
#include "gimplify.h"
#include "stringpool.h"		/* before attribs.h */
#include "attribs.h"
#include "varasm.h"
#include "diagnostic-core.h"
#include "builtins.h"
#include "memmodel.h"
#include "tree-cfg.h"
#include "tree-iterator.h"	/* append_to_statement_list */
#include "opts.h"
#include "flags.h"
#include "ggc.h"

#if GCCPLUGIN_VERSION_MAJOR < 11
#error "monprof: GCC 11 or newer is required"
#endif

/* GCC 12 names the "was this option given" test; GCC 11 spells it out. */
#ifndef OPTION_SET_P
#define OPTION_SET_P(opt)	(global_options_set.x_ ## opt)
#endif

/* GCC 14 removed last_stmt(); the plugin does not use it, kept for edits. */
#if GCCPLUGIN_VERSION_MAJOR >= 14
#define last_stmt(bb)		last_nondebug_stmt(bb)
#endif

#endif /* MON_COMPAT_H */
