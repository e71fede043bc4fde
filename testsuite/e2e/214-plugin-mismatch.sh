# 214-plugin-mismatch: the plugin loaded into another GCC stops with one
# line naming the plugin and both versions.
PLUGIN=$(sed -n 's/.*-fplugin=\([^ ]*\).*/\1/p' "$SPECS" | head -n 1)
[ -f "$PLUGIN" ] || fail "no plugin path in $SPECS"
echo 'int main(void) { return 0; }' > m.c
# The plugin in another GCC: one line naming the plugin.  A different
# major version usually reaches plugin_init (our message); if the dynamic
# linker refuses it first, GCC says "cannot load plugin".
case $("$CC" -dumpversion) in
12*) OTHER=gcc-11 ;;
*) OTHER=gcc-12 ;;
esac
command -v $OTHER > /dev/null ||
    skip "$OTHER not installed: the mismatch is not tried"
if $OTHER -fplugin="$PLUGIN" -c m.c 2> err; then
	fail "$OTHER loaded a plugin built for $CC"
fi
cat err
grep -Eq "monprof: .*monprof.so was built for GCC [0-9.]+ and cannot run in GCC [0-9.]+; rebuild it with this compiler|cannot load plugin .*monprof.so" err ||
    fail "mismatch message"
