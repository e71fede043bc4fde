# 209-install: `make install PREFIX=...` gives a working tree: the
# installed specs file builds with the installed plugin and runtime (the
# build tree may be gone), the installed prof reads the result, and the
# header and man pages are in place.
P=$T/prefix
make -s -C "$SRCDIR" O="$O" PREFIX="$P" install > install.log 2>&1 ||
    { cat install.log; fail "make install"; }
for f in bin/prof lib/libmonprof.a lib/libmonprof.so lib/monprof/monprof.so \
    lib/monprof/monprof.specs include/mon.h share/man/man1/prof.1 \
    share/man/man3/monitor.3 share/man/man3/moncontrol.3 \
    share/man/man3/monstartup.3 share/man/man3/monitor_signal.3 \
    share/man/man3/profil.3; do
	[ -e "$P/$f" ] || fail "not installed: $f"
done
grep -q "$O" "$P/lib/monprof/monprof.specs" && fail "installed specs names the build tree"
# The shared runtime as ldconfig and -lmonprof expect it: a versioned
# file with its SONAME, and the links to it.
V=$(sed -n 's/^VERSION[[:space:]]*:=[[:space:]]*//p' "$SRCDIR/Makefile")
readelf -d "$P/lib/libmonprof.so.$V" |
    grep -q "(SONAME).*\[libmonprof\.so\.${V%%.*}\]" || fail "no SONAME"
expect_eq "$(readlink "$P/lib/libmonprof.so")" "libmonprof.so.${V%%.*}" \
    "libmonprof.so link"
"$CC" -specs="$P/lib/monprof/monprof.specs" -p -O2 "$E2E/201-counts.c" \
    -o a.out
./a.out > /dev/null
counts ./a.out > got
diff -u "$E2E/201-counts.expect" got || fail "counts with the installed specs"
"$P/bin/prof" -g a.out > report || fail "installed prof"
awk '$NF == "leaf" { print $4 }' report > leaf
expect_eq "$(cat leaf)" 1000 "prof: calls of leaf"
# A program using the API compiles against the installed header.
printf '#include <mon.h>\nint main(void) { return moncontrol(1) != 1; }\n' > api.c
"$CC" -I"$P/include" api.c "$P/lib/libmonprof.a" -pthread -o api
./api || fail "moncontrol(1) through the installed header and archive"
