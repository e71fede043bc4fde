# 220-meson: the installed Meson native files (multiarch LIBDIR), named
# by pkg-config: a project that knows nothing of monprof, set up with
# --native-file "$(pkg-config --variable=meson_native monprof)", profiles
# 201-counts exactly, and with meson_native_pg as well with -pg (and
# writes gmon.out); a program that calls mon.h's functions takes the
# header from dependency('monprof') (found by pkg-config) and the
# runtime from the profiled link.
command -v meson > /dev/null || skip "no meson (apt-get install meson)"
command -v ninja > /dev/null || skip "no ninja (apt-get install ninja-build)"
command -v pkg-config > /dev/null || skip "no pkg-config"
P=$T/inst
L=$P/lib/x86_64-linux-gnu
make -s -C "$SRCDIR" O="$O" PREFIX="$P" LIBDIR="$L" install > make.log 2>&1 ||
    { cat make.log; fail "make install"; }
PKG_CONFIG_PATH=$L/pkgconfig
export PKG_CONFIG_PATH
mkdir src
cp "$E2E/201-counts.c" src/counts.c
printf '%s\n' '#include <mon.h>' \
    'int main(void) { return moncontrol(0) != 1 || moncontrol(1) != 0; }' \
    > src/api.c
cat > src/meson.build <<'MB'
project('tiny', 'c')
executable('counts', 'counts.c')
# A profiled program has the runtime: the header alone.
mon = dependency('monprof', version: '>=1.0').partial_dependency(
    compile_args: true)
executable('api', 'api.c', dependencies: mon)
MB
for v in meson_native meson_native_pg; do
	nf=$(pkg-config --variable=$v monprof) || fail "pkg-config $v"
	[ -f "$nf" ] || fail "$v: no $nf"
	PROFDIR= meson setup "$v" src --native-file "$nf" > "$v.log" 2>&1 ||
	    { cat "$v.log"; fail "meson setup $v"; }
	ninja -C "$v" >> "$v.log" 2>&1 || { cat "$v.log"; fail "ninja $v"; }
	(cd "$v" && ./counts > out && counts ./counts > got) ||
	    fail "$v: counts"
	expect_file "$E2E/201-counts.expect" "$v/got"
	(cd "$v" && rm -f mon.out && ./api) || fail "$v: api"
	expect_eq "$(count_of main "$v/api" "$v/mon.out")" 1 "$v: api's main"
done
[ -f meson_native_pg/gmon.out ] || fail "-pg wrote no gmon.out"
[ ! -f meson_native/gmon.out ] || fail "-p wrote gmon.out"
