# 212-specs-forms: the specs file works however a build system passes
# it: once or many times, before or after the files, with -p/-pg
# repeated, in CC, CFLAGS, CPPFLAGS and LDFLAGS together, through
# libtool; with -static, -static-pie, -shared, -r, -fPIC, -flto.  Every
# form builds the same bytes as the specs given once, and the program
# counts exactly.  A link without the runtime says what to add.
cat > m.c <<'X'
static __attribute__((noinline, noclone)) int f(int x) { asm volatile(""); return x + 1; }
int main(void) { int i, s = 0; for (i = 0; i < 7; i++) s += f(i); return s != 28; }
X
S="-specs=$SPECS"

# same REF OUT WHAT: the two files have the same bytes.
same() {
	cmp -s "$1" "$2" || fail "$3: differs from the specs given once"
}

# counted EXE WHAT: EXE runs and mon.out has f 7, main 1.
counted() {
	rm -f mon.out
	"./$1" || fail "$2: exit status"
	expect_eq "$(count_of f "./$1")" 7 "$2: f"
	expect_eq "$(count_of main "./$1")" 1 "$2: main"
}

for p in -p -pg; do
	# Compile only: the forms give the same object.
	"$CC" $S $p -O2 -c m.c -o once.o
	for form in "$S $p $S $p" "$S $S $S $p $p" "$p $S $S" \
	    "$S $p $p $p $S $S"; do
		"$CC" $form -O2 -c m.c -o twice.o || fail "$p: cc $form"
		same once.o twice.o "$p: cc $form"
	done
	"$CC" -O2 -c m.c $S $p -o after.o
	same once.o after.o "$p: specs after the file"

	# CC="gcc -specs -p", CFLAGS and LDFLAGS with it again: a link
	# reads the file three times.
	"$CC" $S $p -O2 m.c -o once
	counted once "$p: once"
	"$CC" $S $p $S $p -O2 -c m.c -o cf.o
	"$CC" $S $p $S $p -O2 $S $p cf.o -o cf
	same once cf "$p: CC + CFLAGS + LDFLAGS"
	counted cf "$p: CC + CFLAGS + LDFLAGS"

	# CPPFLAGS: preprocessing sees no difference.
	"$CC" -E m.c > plain.i
	"$CC" $S $p $S -E m.c > mp.i || fail "$p: -E"
	same plain.i mp.i "$p: -E"

	# -static, -static-pie, -flto: built twice over, the same program.
	for kind in -static -static-pie "-flto -O2"; do
		"$CC" $S $p $kind m.c -o k1 || fail "$p $kind: once"
		"$CC" $S $p $S $p $kind m.c $S -o k2 || fail "$p $kind: twice"
		same k1 k2 "$p $kind"
		counted k2 "$p $kind"
	done

	# -shared -fPIC (no runtime in it, even when the build insists on
	# --no-undefined) and -r (no runtime either).
	echo 'int g(int x) { return x * 2; }' > g.c
	"$CC" $S $p -fPIC -shared g.c -o g1.so
	"$CC" $S $p $S $p -fPIC -shared -Wl,--no-undefined g.c -o g2.so ||
	    fail "$p: -shared --no-undefined"
	nm g2.so | grep -q __mon_init && fail "$p: runtime in a .so"
	"$CC" $S $p -c m.c -o r.o
	"$CC" $S $p $S $p -r r.o -o r2.o || fail "$p: -r"
	nm r2.o | grep -q __mon_init && fail "$p: runtime in -r output"
	"$CC" $S $p r2.o -o rr
	counted rr "$p: -r"
done

# A link without the runtime names what to add.
"$CC" $S -p -O2 -c m.c -o n.o
"$CC" n.o -o n 2> err && fail "linked without the runtime"
grep -q "undefined reference to .monprof: compiled with -p or -pg (hook ABI [0-9]*); link with -specs=monprof.specs -p too, or add libmonprof.a" err ||
    { cat err; fail "no hint in the link error"; }
# The runtime serves one hook ABI: an object of hook ABI 2 to 9 (an
# older plugin's) does not link, and the error says to rebuild it.
for abi in 2 3 4 5 6 7 8 9; do
	printf '%s\n' '.text' ".globl abi$abi" "abi$abi:" \
	    ".reloc .,R_X86_64_NONE,\"monprof: compiled with -p or -pg (hook ABI $abi); link with -specs=monprof.specs -p too, or add libmonprof.a\"" \
	    'ret' '.section .note.GNU-stack,"",@progbits' > abi$abi.s
	"$CC" -c abi$abi.s -o abi$abi.o
	"$CC" $S -p -O2 m.c abi$abi.o -o abi$abi 2> err &&
	    fail "an ABI $abi object linked"
	grep -q "undefined reference to .monprof: an object was compiled with -p or -pg by an older monprof (hook ABI 2 to 9); rebuild it with this one (hook ABI 10)" err ||
	    { cat err; fail "ABI $abi: no word of rebuilding"; }
	grep -q "(hook ABI $abi); link with" err &&
	    fail "ABI $abi: told to link with the specs file"
done

# libtool passes -specs=* and -p/-pg on to the compiler; a libtool
# library and a program linked against it with the flags in CFLAGS and
# LDFLAGS, as automake does it.
if command -v libtool > /dev/null 2>&1; then
	cat > lib.c <<'X'
__attribute__((noinline)) int lib_h(int x) { asm volatile(""); return x - 1; }
X
	cat > prog.c <<'X'
int lib_h(int);
int main(void) { int i, s = 0; for (i = 0; i < 5; i++) s += lib_h(i); return s != 5; }
X
	LT="libtool --quiet --tag=CC"
	$LT --mode=compile "$CC" $S -p -O2 -c lib.c -o lib.lo ||
	    fail "libtool compile"
	$LT --mode=link "$CC" $S -p -O2 $S -p -rpath "$T/inst" lib.lo \
	    -o libh.la || fail "libtool link library"
	$LT --mode=compile "$CC" $S -p -O2 -c prog.c -o prog.lo
	$LT --mode=link "$CC" $S -p -O2 $S -p prog.lo libh.la -o prog ||
	    fail "libtool link program"
	rm -f mon.out
	./prog || fail "libtool program: exit status"
	"$PROF" .libs/prog mon.out > report || fail "prof on the libtool program"
	grep -q ' 5 .* lib_h$' report || { cat report; fail "lib_h not 5"; }
else
	skip "libtool not installed (make deps installs libtool-bin): libtool form not run"
fi

true
