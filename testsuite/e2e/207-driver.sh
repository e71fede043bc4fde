# 207-driver: the link line of -p and -pg: no gcrt1.o and no glibc
# mcount (the program's mcount, for objects built by GCC's own -p, is the
# runtime's: e2e 215), the runtime only in executables, nothing without
# -p.
PLUGIN=$(sed -n 's/.*-fplugin=\([^ ]*\).*/\1/p' "$SPECS" | head -n 1)
[ -f "$PLUGIN" ] || fail "no plugin path in $SPECS"
echo 'int main(void) { return 0; }' > m.c
link_line() {
	mp_cc "$@" -v m.c -o m.out 2>&1 | grep collect2 | tr ' ' '\n'
}
for p in -p -pg "-pg -O2 -fomit-frame-pointer" "-p -static" "-p -flto"; do
	link_line $p > ll
	grep -Eq 'gcrt1|-lc_p' ll && fail "$p: glibc profiling linked"
	nm m.out | grep -Eq ' T _?mcount$' || fail "$p: not the runtime's mcount"
	nm m.out | grep -q __mcount_internal && fail "$p: glibc's mcount linked"
	grep -q 'libmonprof\.a$' ll || fail "$p: no runtime"
	grep -q '^__mon_init$' ll || fail "$p: no -u __mon_init"
	mp_cc $p -S -o - m.c | grep -Eq '[^_]mcount|__fentry__' &&
	    fail "$p: mcount call"
done
link_line -p -shared -fPIC > ll
grep -q 'libmonprof\.a' ll && fail "-shared: runtime linked"
grep -q '/libmonprof-null\.so$' ll || fail "-shared: no libmonprof-null.so"
mp_cc -p -c m.c -o m.o
mp_cc -p -r m.o -o r.o -v 2>&1 | grep collect2 | grep -q libmonprof &&
    fail "-r: runtime linked"
# Without -p the specs file does nothing.
mp_cc -v m.c -o m.out 2>&1 | grep -q 'fplugin=\|libmonprof' && fail "plugin without -p"
true
