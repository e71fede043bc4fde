# 345-prof-demangle: -C gives each row its demangled C++ name, one name
# per row.
. "$E2E/300-prof.subr"
sample
standard | "$MKMON" mon.out

"$PROF" -C sample > out
printf '   0.9    0.05    5.50       7      7.      ns::foo(int)\n' > want
grep "ns::foo" out > got
expect_file want got
