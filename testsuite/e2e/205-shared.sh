# 205-shared: an instrumented -fPIC shared object and an instrumented
# executable share the executable's runtime, both are counted, and prof
# names the library's functions.  The
# .so does not contain the runtime; the executable exports the slow path.
cat > lib.c <<'X'
__attribute__((noinline, noclone)) int lib_f(int x) { asm volatile(""); return x + 1; }
__attribute__((noinline, noclone)) int lib_g(int x) { asm volatile(""); return lib_f(x) * 2; }
X
cat > main.c <<'X'
int lib_f(int), lib_g(int);
__attribute__((noinline, noclone)) int app(int x) { asm volatile(""); return lib_g(x); }
int main(void) { int i, s = 0; for (i = 0; i < 4; i++) s += lib_f(i);
	for (i = 0; i < 3; i++) s += app(i); return s != 22; }
X
for tls in "" -fplugin-arg-monprof-tls=global-dynamic \
    -fplugin-arg-monprof-update=atomic; do
	mp_cc -p -O2 -fchecking -fPIC -shared $tls lib.c -o libmp.so
	hook=__mon_mcount_stub
	[ -n "$tls" ] || hook=__mon_mcount_area_stub
	nm -u libmp.so | grep -q " $hook\$" || fail "$tls: no U hook"
	nm libmp.so | grep -q __mon_init && fail "$tls: runtime in the .so"
	mp_cc -p -O2 -fchecking main.c -L. -lmp -Wl,-rpath,"$T" -o a.out
	nm -D --defined-only a.out | grep -q " $hook\$" ||
	    fail "$tls: hook not exported"
	./a.out || fail "$tls: run"
	expect_eq "$(count_of app)" 3 "$tls: app"
	expect_eq "$(count_of main)" 1 "$tls: main"
	# The library's cells lie outside the executable's symbols: their
	# counts are lib_f 4 + 3 and lib_g 3.
	expect_eq "$(counts ./a.out | awk '/^\?/ { print $2 }' | sort -n |
	    tr '\n' ' ')" "3 7 " "$tls: library counts"
	# prof names them from the library mon.out records (MON_META_OBJECT).
	"$PROF" ./a.out > report || fail "$tls: prof"
	awk '$NF ~ /^(app|lib_f|lib_g|main)$/ { print $NF, $4 }' report |
	    sort > got
	printf '%s\n' "app 3" "lib_f 7" "lib_g 3" "main 1" > want
	expect_file want got
	"$PROF" -x ./a.out | awk '$NF == "lib_f" { print $1 }' > got
	nm libmp.so | awk '$3 == "lib_f" { sub(/^0+/, "", $1); print $1 }' > want
	expect_file want got
done
# A library that is gone: named as such, its calls not, the rest reported.
mv libmp.so libmp.gone
"$PROF" ./a.out > report 2> err || fail "prof without the library"
grep -q "libmp.so: No such file or directory: its functions are not named" \
    err || fail "no warning for the missing library: $(cat err)"
grep -qw lib_f report && fail "lib_f named without its library"
awk '$NF == "app" { print $4 }' report > got
echo 3 > want
expect_file want got
mv libmp.gone libmp.so
# A library rebuilt since the run (another build-id) is not trusted.
cp libmp.so libmp.keep
echo 'int lib_new(void) { return 1; }' >> lib.c
mp_cc -p -O2 -fPIC -shared lib.c -o libmp.so
"$PROF" ./a.out > report 2> err || fail "prof with a rebuilt library"
grep -q "libmp.so: not the file the profile was taken with (build-id)" err ||
    fail "no warning for the rebuilt library: $(cat err)"
grep -qw lib_f report && fail "lib_f named from the rebuilt library"
# Profiles of both builds summed: each record is matched with its own
# build, so the other build's calls are not named as this one's.
cp mon.out old.out
./a.out || fail "run with the rebuilt library"
"$PROF" ./a.out mon.out old.out > report 2> err || fail "prof of two builds"
grep -q "libmp.so: not the file the profile was taken with (build-id)" err ||
    fail "no warning for the old build: $(cat err)"
awk '$NF == "lib_f" { print $4 }' report > got
echo 7 > want
expect_file want got
mv libmp.keep libmp.so
"$PROF" ./a.out old.out 2> err | grep -qw lib_f || fail "lib_f not named again"
[ -s err ] && fail "warning for the right library: $(cat err)"
# A FIFO where the library was: refused at once, not read (it would block).
mv libmp.so libmp.keep
mkfifo libmp.so
timeout 10 "$PROF" ./a.out old.out > report 2> err ||
    fail "prof with a FIFO for the library"
grep -q "libmp.so: not a regular file: its functions are not named" err ||
    fail "no warning for the FIFO: $(cat err)"
rm libmp.so
mv libmp.keep libmp.so
# -fPIC code has no thread-local word of its own (hook ABI 6): it reads
# the runtime's area pointer, initial-exec (one load, no call);
# tls=global-dynamic calls __tls_get_addr for a word of its own, or
# uses descriptors with -mtls-dialect=gnu2: the dialect is the user's.
mp_cc -p -O2 -fPIC -S -o - lib.c > s
grep -q '__mon_area_mine@gottpoff' s || fail "not initial-exec by default"
grep -q '__mon_word' s && fail "a thread-local word of its own"
grep -q '__tls_get_addr\|TLSDESC' s && fail "a TLS call in the default code"
mp_cc -p -O2 -fPIC -fplugin-arg-monprof-tls=global-dynamic -S -o - lib.c |
    grep -q '__tls_get_addr' || fail "tls=global-dynamic ignored"
mp_cc -p -O2 -fPIC -fplugin-arg-monprof-tls=global-dynamic \
    -mtls-dialect=gnu2 -S -o - lib.c | grep -q '__mon_word[.0-9]*@TLSDESC' ||
    fail "-mtls-dialect=gnu2 not used"
true
