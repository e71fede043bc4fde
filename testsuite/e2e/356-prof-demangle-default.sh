# 356-prof-demangle-default: names are demangled by default, C++ and
# Rust's v0 alike, in the report, CSV, JSON, -G, the flame graph,
# callgrind and pprof; --no-demangle gives the symbols in each, and -C,
# now the default, is still accepted.
. "$E2E/300-prof.subr"
mp_cc -p -O1 -o prog "$E2E/356-prof-demangle-default.c"
./prog
"$PROF" -c prog | sed -n 2,3p > out
cat > want <<'END'
   0.0    0.00    0.00       5      0.      ns::foo(int)
   0.0    0.00    0.00       3      0.      mycrate::spin
END
expect_file want out
"$PROF" -C -c prog | sed -n 2,3p > out
expect_file want out
"$PROF" --no-demangle -c prog | sed -n 2,3p | awk '{ print $NF }' > out
printf '%s\n' _ZN2ns3fooEi _RNvCs15kBYyAo9fc_7mycrate4spin > want
expect_file want out
"$PROF" -c --format=csv prog | sed -n 2,3p | cut -d, -f1 > out
printf '%s\n' 'ns::foo(int)' mycrate::spin > want
expect_file want out
"$PROF" -c --format=json prog | grep -o '"name": "[^"]*"' | sed -n 1,2p > out
printf '%s\n' '"name": "ns::foo(int)"' '"name": "mycrate::spin"' > want
expect_file want out

# The files and -G, from the reference profile with stacks: main ->
# ns::foo 5 samples.
sample
frame() { echo "meta 29 $(($(addr "$1") + 8))"; }
leaf() { echo "meta 29 $(($(addr "$1") + 1))"; }
{ standard; echo "meta 27 0"; echo "meta 28 $((5 << 8))"; frame main;
    leaf _ZN2ns3fooEi; } | "$MKMON" mon.out
# names MODE [OPTION]: the C++ name as each view writes it.
names() {
	"$PROF" ${2-} -G sample | grep -c "^$1: 7 calls" || true
	"$PROF" ${2-} --flame=f.svg --callgrind=cg.out --pprof=p.pb.gz sample \
	    > /dev/null
	grep -c "<title>$1 (0.05" f.svg || true
	grep -c "^fn=([0-9]*) $1\$" cg.out || true
	gzip -dc p.pb.gz | grep -ac "$1" || true
}
names 'ns::foo(int)' > out
printf '1\n1\n1\n1\n' > want
expect_file want out
names _ZN2ns3fooEi --no-demangle > out
expect_file want out
"$PROF" --no-demangle -G sample | grep -c 'ns::foo' > out || true
expect_eq "$(cat out)" 0 "--no-demangle -G"
