# 218-pkgconfig: `make install` into a multiarch LIBDIR, as a Debian
# package lays it out: libmonprof.so is versioned (a real file, its
# SONAME and the -dev link), pkg-config finds monprof and names the
# installed files, the specs file it names profiles 201-counts exactly,
# a program built with its Cflags and Libs links libmonprof.so.1 and
# runs, no installed file names the build tree or a library directory
# other than LIBDIR, and `make uninstall` removes exactly the files
# install wrote (others' files beside them stay), also under DESTDIR.
command -v pkg-config > /dev/null || skip "no pkg-config"
P=$T/inst
L=$P/lib/x86_64-linux-gnu
V=$(sed -n 's/^VERSION[[:space:]]*:=[[:space:]]*//p' "$SRCDIR/Makefile")
S=${V%%.*}
minst() {
	make -s -C "$SRCDIR" O="$O" "$@" > make.log 2>&1 ||
	    { cat make.log; fail "make $*"; }
}
tree() {
	(cd "$1" && find . ! -type d | sort)
}

# The build tree's library, which the tests preload, is the same.
soname() {
	readelf -d "$1" | sed -n 's/.*(SONAME).*\[\(.*\)\]$/\1/p'
}
expect_eq "$(soname "$O/libmonprof.so")" "libmonprof.so.$S" "build tree SONAME"
expect_eq "$(readlink "$O/libmonprof.so")" "libmonprof.so.$S" "build tree link"
expect_eq "$(readlink "$O/libmonprof.so.$S")" "libmonprof.so.$V" \
    "build tree SONAME link"

# Others' files in the same directories, which uninstall leaves.
mkdir -p "$L/pkgconfig" "$P/bin" "$P/include"
echo other > "$L/pkgconfig/other.pc"
echo other > "$P/bin/other"
echo other > "$P/include/other.h"
tree "$P" > before
minst PREFIX="$P" LIBDIR="$L" install

expect_eq "$(soname "$L/libmonprof.so.$V")" "libmonprof.so.$S" SONAME
expect_eq "$(readlink "$L/libmonprof.so.$S")" "libmonprof.so.$V" "SONAME link"
expect_eq "$(readlink "$L/libmonprof.so")" "libmonprof.so.$S" "-dev link"
[ ! -e "$P/lib/monprof" ] && [ ! -e "$P/lib/libmonprof.a" ] ||
    fail "installed outside LIBDIR: $(ls "$P/lib")"
if grep -rlI -e "$O" -e "$P/lib/monprof" -e "$P/lib/lib" "$P"; then
	fail "an installed file names the build tree or $P/lib"
fi

PKG_CONFIG_PATH=$L/pkgconfig
export PKG_CONFIG_PATH
# pc ARGS: pkg-config's answer, its trailing blank removed.
pc() {
	_pc=$(pkg-config "$@" monprof) || fail "pkg-config $*"
	echo ${_pc}
}
expect_eq "$(pc --modversion)" "$V" "--modversion"
expect_eq "$(pc --variable=specs)" "$L/monprof/monprof.specs" specs
expect_eq "$(pc --variable=plugin)" "$L/monprof/monprof.so" plugin
expect_eq "$(pc --variable=cmakedir)" "$L/cmake/monprof" cmakedir
expect_eq "$(pc --variable=meson_native)" "$L/monprof/meson/monprof-p.ini" \
    meson_native
expect_eq "$(pc --variable=meson_native_pg)" \
    "$L/monprof/meson/monprof-pg.ini" meson_native_pg
expect_eq "$(pc --cflags)" "-I$P/include" --cflags
expect_eq "$(pc --libs)" "-L$L -lmonprof" --libs

"$CC" -specs="$(pc --variable=specs)" -p -O2 "$E2E/201-counts.c" -o a.out
./a.out > /dev/null
counts ./a.out > got
expect_file "$E2E/201-counts.expect" got

# A program that calls mon.h's functions, linked with the shared runtime.
printf '%s\n' '#include <mon.h>' \
    'int main(void) { return moncontrol(0) != 1 || moncontrol(1) != 0; }' \
    > api.c
# shellcheck disable=SC2046
"$CC" $(pc --cflags) api.c $(pc --libs) -o api
readelf -d api | grep -q "(NEEDED).*\[libmonprof\.so\.$S\]" ||
    fail "api does not need libmonprof.so.$S: $(readelf -d api)"
LD_LIBRARY_PATH=$L ./api || fail "api with the installed libmonprof.so"
"$CC" -I"$SRCDIR/include" api.c -L"$O" -lmonprof -o api
LD_LIBRARY_PATH=$O ./api || fail "api with the build tree's libmonprof.so"

minst PREFIX="$P" LIBDIR="$L" uninstall
tree "$P" > after
expect_file before after
[ ! -e "$L/monprof" ] && [ ! -e "$L/cmake/monprof" ] ||
    fail "monprof's directories left"

# Staged for a package: the same files, naming the final paths.
D=$T/stage
minst DESTDIR="$D" PREFIX=/usr LIBDIR=/usr/lib/x86_64-linux-gnu install
grep -q '^libdir=${prefix}/lib/x86_64-linux-gnu$' \
    "$D/usr/lib/x86_64-linux-gnu/pkgconfig/monprof.pc" ||
    fail "staged monprof.pc: $(cat "$D/usr/lib/x86_64-linux-gnu/pkgconfig/monprof.pc")"
grep -q " /usr/lib/x86_64-linux-gnu/libmonprof.a " \
    "$D/usr/lib/x86_64-linux-gnu/monprof/monprof.specs" ||
    fail "staged specs file does not name LIBDIR's archive"
if grep -rlI "$D" "$D"; then
	fail "a staged file names DESTDIR"
fi
minst DESTDIR="$D" PREFIX=/usr LIBDIR=/usr/lib/x86_64-linux-gnu uninstall
expect_eq "$(tree "$D")" "" "left after uninstall"
