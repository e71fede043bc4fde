# 341-prof-heading: -h leaves out the heading line.
. "$E2E/300-prof.subr"
sample
standard | "$MKMON" mon.out

"$PROF" -h sample > out
expect_eq "$(head -n 1 out)" \
    "  63.6    3.50    3.50      15    233.3     alpha, alpha_alias" "-h"
