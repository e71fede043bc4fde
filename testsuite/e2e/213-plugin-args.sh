# 213-plugin-args: a bad key or value gives one clear error naming the
# valid ones, the reference with another update mode says which to drop,
# verbose lists what is instrumented, gcc -v shows the plugin's version,
# -fdump-passes works.
echo 'int main(void) { return 0; }' > m.c
if mp_cc -p -fplugin-arg-monprof-bogus=1 -c m.c 2> err; then
	fail "bad key accepted"
fi
grep -q "unknown argument '-fplugin-arg-monprof-bogus'; valid keys: update=, tls=, guard=, reference, verbose, p, pg" err ||
    { cat err; fail "bad key message"; }
if mp_cc -p -fplugin-arg-monprof-update=fast -c m.c 2> err; then
	fail "bad value accepted"
fi
grep -q "bad value 'fast' for '-fplugin-arg-monprof-update'; valid: thread, single, atomic" err ||
    { cat err; fail "bad value message"; }
if mp_cc -p -fplugin-arg-monprof-guard=maybe -c m.c 2> err; then
	fail "bad guard value accepted"
fi
grep -q "bad value 'maybe' for '-fplugin-arg-monprof-guard'; valid: yes, no" err ||
    { cat err; fail "bad guard message"; }
if mp_cc -p -fplugin-arg-monprof-reference -fplugin-arg-monprof-update=thread \
    -c m.c 2> err; then
	fail "the reference with update=thread accepted"
fi
grep -q "monprof: '-fplugin-arg-monprof-reference' counts with update=atomic; drop update=thread" err ||
    { cat err; fail "reference and update message"; }
mp_cc -p -fplugin-arg-monprof-reference -fplugin-arg-monprof-update=atomic \
    -fplugin-arg-monprof-verbose -c m.c 2> err ||
    fail "the reference with update=atomic: $(cat err)"
grep -q "^monprof: [0-9.]*, update=atomic, reference$" err ||
    { cat err; fail "the reference's verbose line"; }
mp_cc -p -v -c m.c 2>&1 | grep -A1 'Versions of loaded plugins' |
    grep -q 'monprof: [0-9]' || fail "no plugin version in gcc -v"
mp_cc -p -fplugin-arg-monprof-verbose -O2 -c m.c 2>&1 |
    grep -q 'monprof: main: instrumented' || fail "verbose"

# -fdump-passes calls the gate on a nameless function.
mp_cc -p -O2 -fdump-passes -c m.c 2> passes || fail "-fdump-passes"
grep -q 'tree-monprof' passes || fail "pass not registered"
true
