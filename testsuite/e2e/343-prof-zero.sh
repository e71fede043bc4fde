# 343-prof-zero: -z also lists functions with neither time nor calls,
# clones too, with 22 blanks in place of the calls.
. "$E2E/300-prof.subr"
sample
standard | "$MKMON" mon.out

"$PROF" -z sample > out
expect_eq "$(grep ' _start$' out)" \
    "   0.0    0.00    5.50                      _start" "-z"
expect_eq "$(grep ' orphan.isra.0$' out)" \
    "   0.0    0.00    5.50                      orphan.isra.0" "-z clone"
