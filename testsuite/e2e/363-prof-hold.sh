# 363-prof-hold: prof summing more profiles than it may hold (PROFILES_HOLD,
# 32 MB of what they recorded) reads the rest again to add them: its
# memory stays bounded however many files there are, and the report is
# the exact sum.  A library that only a later profile samples is still
# named.
. "$E2E/300-prof.subr"
sample
# A profile that recorded 64 KB: 32,768 bins in a row that are not
# zero, beside the sample's ticks and cells.
{
	standard | sed "s/^range .*/range $LPC $((LPC + 4000000))/;
	    s/^bins .*/bins 2000000/"
	awk 'BEGIN { for (i = 100000; i < 132768; i++) print "bin", i, 1 }'
} | "$MKMON" one.mon
few_many one.mon 1000
# Exact sums: 1,000 profiles of 1,000 calls of gamma_w and 3331.80 s
# (the 32,768 bins, and the sample's ticks, none in a function of this
# range), the half read again.
sums() {
	awk '$NF == "gamma_w" { g = $4 } $NF == "<unknown>" { u = $2 }
	    END { print g, u }' "$1"
}
expect_eq "$(sums many.out)" "1000000 333180.00" "1,000 profiles summed"
expect_eq "$(sums few.out)" "10000 3331.80" "10 profiles summed"
# 64 MB recorded: at most the 32 MB held, and slack.
[ "$m" -lt $((f + 40960)) ] ||
    fail "1,000 profiles of 64 KB take $m KiB, 10 take $f KiB:" \
	"more than 32 MB held"

# A shared object that the first profile records without a sample, the
# second with 30 in beta (a copy of the sample program stands in for a
# library, mapped at file offset 0): its functions are named, as with
# the second profile alone.
beta=$(addr beta)
base=139637976727552			# 0x7f0000000000
cp sample libsample.so
lib="object $base $((base + 1048576)) 0 $PWD/libsample.so"
v2 "meta unknown 0" "$lib" | "$MKMON" a.mon
v2 "meta unknown 0" "$lib" "meta object_samples 30" \
    "meta object_sample $(((beta + 2) * 65536 + 30))" | "$MKMON" b.mon
"$PROF" sample b.mon > b.out 2> err || fail "b: status $?"
"$PROF" sample a.mon b.mon > ab.out 2> err || fail "a b: status $?"
row() {
	awk '$NF == "<libsample.so>" && $(NF - 1) == "beta" { print $2 }' "$1"
}
expect_eq "$(row b.out)" "0.30" "the library's beta in the second profile"
expect_eq "$(row ab.out)" "0.30" "the library's beta in both"
