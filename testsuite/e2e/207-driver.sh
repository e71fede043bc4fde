# 207-driver: what the user sees from the driver and the plugin: no
# mcount and no gcrt1.o on the link line, the runtime only in
# executables, a bad argument and a GCC version mismatch each give one
# clear error, -fdump-passes works, PLUGIN_INFO carries the version.
PLUGIN=$(sed -n 's/.*-fplugin=\([^ ]*\).*/\1/p' "$SPECS" | head -n 1)
[ -f "$PLUGIN" ] || fail "no plugin path in $SPECS"
echo 'int main(void) { return 0; }' > m.c
link_line() {
	mp_cc "$@" -v m.c -o m.out 2>&1 | grep collect2 | tr ' ' '\n'
}
for p in -p -pg "-pg -O2 -fomit-frame-pointer" "-p -static" "-p -flto"; do
	link_line $p > ll
	grep -Eq 'gcrt1|[^_]mcount|-lc_p' ll && fail "$p: glibc profiling linked"
	grep -q 'libmonprof\.a$' ll || fail "$p: no runtime"
	grep -q '^__mon_init$' ll || fail "$p: no -u __mon_init"
	mp_cc $p -S -o - m.c | grep -Eq '[^_]mcount|__fentry__' &&
	    fail "$p: mcount call"
done
link_line -p -shared -fPIC > ll
grep -q 'libmonprof' ll && fail "-shared: runtime linked"
mp_cc -p -c m.c -o m.o
mp_cc -p -r m.o -o r.o -v 2>&1 | grep collect2 | grep -q libmonprof &&
    fail "-r: runtime linked"
# Without -p the specs file does nothing.
mp_cc -v m.c -o m.out 2>&1 | grep -q 'fplugin=\|libmonprof' && fail "plugin without -p"

# Arguments.
if mp_cc -p -fplugin-arg-monprof-bogus=1 -c m.c 2> err; then
	fail "bad key accepted"
fi
grep -q "unknown argument '-fplugin-arg-monprof-bogus'; valid keys: update=, tls=, verbose, p, pg" err ||
    { cat err; fail "bad key message"; }
if mp_cc -p -fplugin-arg-monprof-update=fast -c m.c 2> err; then
	fail "bad value accepted"
fi
grep -q "bad value 'fast' for '-fplugin-arg-monprof-update'; valid: thread, single, atomic" err ||
    { cat err; fail "bad value message"; }
mp_cc -p -v -c m.c 2>&1 | grep -A1 'Versions of loaded plugins' |
    grep -q 'monprof: [0-9]' || fail "no plugin version in gcc -v"
mp_cc -p -fplugin-arg-monprof-verbose -O2 -c m.c 2>&1 |
    grep -q 'monprof: main: instrumented' || fail "verbose"

# -fdump-passes calls the gate on a nameless function.
mp_cc -p -O2 -fdump-passes -c m.c 2> passes || fail "-fdump-passes"
grep -q 'tree-monprof' passes || fail "pass not registered"

# The plugin in another GCC: one line naming the plugin.  A different
# major version usually reaches plugin_init (our message); if the dynamic
# linker refuses it first, GCC says "cannot load plugin".
case $("$CC" -dumpversion) in
12*) OTHER=gcc-11 ;;
*) OTHER=gcc-12 ;;
esac
if command -v $OTHER > /dev/null; then
	if $OTHER -fplugin="$PLUGIN" -c m.c 2> err; then
		fail "$OTHER loaded a plugin built for $CC"
	fi
	cat err
	grep -Eq "monprof: .*monprof.so was built for GCC [0-9.]+ and cannot run in GCC [0-9.]+; rebuild it with this compiler|cannot load plugin .*monprof.so" err ||
	    fail "mismatch message"
fi
true
