/* SPDX-License-Identifier: MIT */
/*
 * mon_plugin.c - monprof.so, the GCC plugin behind "cc -p" (an exact
 * call count for every function, at the cost of one memory increment)
 * and "cc -pg" (exact caller -> callee arcs for gprof).
 *
 * Arguments, the functions left alone, and where the pass runs; what
 * it inserts is in mon_instrument.c.
 *
 * Update modes (-fplugin-arg-monprof-update=):
 *	thread	default: every thread has its own counter, so counts are
 *		exact and threads share no cache line.  On x86-64, code
 *		not built -fPIC (so in an executable) counts in a
 *		local-exec __thread counter per function, one instruction
 *		(mon_instrument.c); other code has a thread-local word.
 *		TLS model of the word: the compiler's default for a local static in
 *		executables (local-exec), initial-exec in -fPIC code so no
 *		__tls_get_addr call is made (tls= overrides this; see
 *		mon_tls_model).  -pg's arc cache is the same.
 *	single	a plain shared increment: loses counts under threads.
 *	atomic	a shared relaxed atomic increment (lock add).
 * Without update=, -fprofile-update=single|atomic|prefer-atomic given to
 * GCC selects single|atomic|thread.  -fplugin-arg-monprof-reference is
 * atomic, and -pg's entries then read no announced call site: the
 * plainest entry counter, which make check and check-real compare the
 * default's counts with.
 *
 * Skipped: functions marked no_instrument_function,
 * no_profile_instrument_function, naked or interrupt; ifunc and
 * target_clones resolvers; names starting __mon_ or __monprof_.
 *
 * With -p or -pg on the command line the plugin clears profile_flag, so
 * neither an mcount call nor a forced frame pointer remains.
 *
 * Threads (-fplugin-arg-monprof-guard=): a thread started by a raw
 * clone() with a TLS block of its own may have nothing, or another
 * thread's data, below its thread pointer, where thread-local words
 * live.  guard=yes puts a test of the C library's TCB (mon_guarded) in
 * front of every block that touches thread-local state; such a thread
 * is not counted.  Default: yes in -fPIC code (8 instructions a call
 * become 11), no in an executable's.  An executable's -p counter (one
 * addq at the %gs base) never reads the thread pointer: never guarded.
 *
 * Debugging: -fplugin-arg-monprof-verbose lists what is instrumented;
 * -fdump-tree-all writes NNNt.monprof (GCC 11 and 12 reject
 * -fdump-tree-monprof); -fchecking verifies the CFG and SSA we build.
 */
#include "compat.h"

#include "mon_abi.h"
#include "mon_plugin.h"

/* The only exports: everything else is hidden (-fvisibility=hidden). */
#define MON_PLUGIN_EXPORT	__attribute__((__visibility__("default")))

MON_PLUGIN_EXPORT int plugin_is_GPL_compatible;

#define MON_VERSION	"0.1"

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
    "  TLS model of thread-local words of the code's own (default:"
    " local-exec in executables; -fPIC code has none, its words are in"
    " the runtime's per-thread area)\n"
    "guard=yes|no  skip counting in threads the C library did not start"
    " (raw clone()), 3 instructions a call (default: yes in -fPIC code,"
    " no in an executable's)\n"
    "reference  the reference count, to check the others against: a"
    " locked add at each out-of-line entry (update=atomic); -pg's arcs"
    " without announced call sites\n"
    "verbose  report each function instrumented or skipped\n"
    "p, pg  markers added by monprof.specs for -p and -pg\n";

static const char mon_keys[] =
    "update=, tls=, guard=, reference, verbose, p, pg";

static const char *const mon_guard_names[] = { "no", "yes" };

static struct plugin_info mon_plugin_info = { MON_VERSION, mon_help };


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

		if (fun == NULL || mon_building_cdtor)
			return false;
		why = mon_skip_reason(fun->decl);
		if (why != NULL && mon_opt.verbose && DECL_NAME(fun->decl) != NULL)
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
				mon_opt.update = (enum mon_update)n;
				mon_opt.update_given = true;
			}
		} else if (strcmp(key, "tls") == 0) {
			if (!mon_parse_value(info->base_name, key, value,
			    tls_names, ARRAY_SIZE(tls_names), &n,
			    "global-dynamic, local-dynamic, initial-exec,"
			    " local-exec"))
				ok = false;
			else
				mon_opt.tls = mon_tls_names[n].model;
		} else if (strcmp(key, "guard") == 0) {
			if (!mon_parse_value(info->base_name, key, value,
			    mon_guard_names, ARRAY_SIZE(mon_guard_names), &n,
			    "yes, no"))
				ok = false;
			else
				mon_opt.guard = n;
		} else if (strcmp(key, "reference") == 0)
			mon_opt.reference = true;
		else if (strcmp(key, "verbose") == 0)
			mon_opt.verbose = true;
		else if (strcmp(key, "pg") == 0)
			mon_opt.pg = true;
		else if (strcmp(key, "p") != 0) {
			error("monprof: unknown argument "
			    "%<-fplugin-arg-%s-%s%>; valid keys: %s",
			    info->base_name, key, mon_keys);
			ok = false;
		}
	}
	return ok;
}

MON_PLUGIN_EXPORT int
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
	if (mon_opt.reference) {
		if (mon_opt.update_given && mon_opt.update != MON_UPDATE_ATOMIC) {
			error("monprof: %<-fplugin-arg-%s-reference%> counts "
			    "with update=atomic; drop update=%s",
			    info->base_name, mon_update_names[mon_opt.update]);
			return 1;
		}
		mon_opt.update = MON_UPDATE_ATOMIC;
		mon_opt.update_given = true;
	}
	if (!mon_opt.update_given && OPTION_SET_P(flag_profile_update)) {
		switch (flag_profile_update) {
		case PROFILE_UPDATE_SINGLE:
			mon_opt.update = MON_UPDATE_SINGLE;
			break;
		case PROFILE_UPDATE_ATOMIC:
			mon_opt.update = MON_UPDATE_ATOMIC;
			break;
		default:
			mon_opt.update = MON_UPDATE_THREAD;
			break;
		}
	}
	/* -p/-pg would also add an mcount call and force a frame pointer. */
	profile_flag = 0;
	if (mon_opt.verbose)
		fprintf(stderr, "monprof: %s, update=%s%s%s\n", MON_VERSION,
		    mon_update_names[mon_opt.update], mon_opt.pg ? ", -pg" : "",
		    mon_opt.reference ? ", reference" : "");

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
	register_callback(info->base_name, PLUGIN_REGISTER_GGC_ROOTS, NULL,
	    (void *)mon_area_roots);
	register_callback(info->base_name, PLUGIN_REGISTER_GGC_ROOTS, NULL,
	    (void *)mon_gimple_roots);
	register_callback(info->base_name, PLUGIN_PASS_MANAGER_SETUP, NULL,
	    &pass);
	register_callback(info->base_name, PLUGIN_FINISH_UNIT,
	    mon_area_finish, NULL);
	register_callback(info->base_name, PLUGIN_FINISH_UNIT,
	    mon_sites_finish, NULL);
	return 0;
}
