# 340-prof-address: -x and -o add an address column (hex, octal; -o
# wins), 8 digits for the reference profile's small addresses; the
# <unknown> row has none.
. "$E2E/300-prof.subr"
sample
standard | "$MKMON" mon.out

a=$(addr alpha)
"$PROF" -x sample > out
expect_eq "$(head -n 1 out)" \
    " Address  %Time Seconds Cumsecs  #Calls   msec/call  Name" "-x header"
expect_eq "$(sed -n 2p out)" \
    "$(printf '%8x   63.6    3.50    3.50      15    233.3     alpha, alpha_alias' $a)" \
    "-x line"
expect_eq "$(grep unknown out)" \
    "            4.5    0.25    5.15       3     83.      <unknown>" \
    "-x: no address for <unknown>"
"$PROF" -x -o sample > out
expect_eq "$(sed -n 2p out | cut -c1-9)" "$(printf '%8o ' $a)" "-o wins"
