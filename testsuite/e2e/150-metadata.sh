# 150-metadata: the mon.out of 101-basic's program carries the format
# marker (magic and mon.h's version), the sampling rate, the pid and
# the number of threads that ran counted code (PIE and non-PIE).
version=$(awk '$1 == "#define" && $2 == "MON_FORMAT_VERSION" { print $3 }' \
    "$SRCDIR/include/mon.h")
for pie in -pie -no-pie; do
	basic $pie
	expect_eq "$(meta 1)" 3559655092786196333 "$pie magic"
	expect_eq "$(meta 2)" "$version" "$pie version"
	expect_eq "$(meta 9)" "$pid" "$pie pid"
	[ "$(meta 3)" -ge 100 ] || fail "$pie rate $(meta 3)"
	expect_eq "$(meta 12)" 1 "$pie threads"
done
exit 0
