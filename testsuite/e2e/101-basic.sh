# 101-basic: a program linked with the runtime writes ./mon.out at exit
# with exact counts (a constructor's call included) and link-time fnpc
# (PIE and non-PIE), and no temporary file left.  What else the file
# holds: 150 (metadata), 151 (histogram range and bins).
for pie in -pie -no-pie; do
	basic $pie
	expect_eq "$(count_of leaf)" 1235 "$pie leaf"
	expect_eq "$(count_of caller)" 2 "$pie caller"
	expect_eq "$(count_of main)" 1 "$pie main"
	expect_eq "$(counts a.out | grep -c '^?')" 0 "$pie unmapped cells"
	left=$(ls -A | grep -e '^mon\.out\.' -e '^\.monprof\.' || true)
	[ -z "$left" ] || fail "$pie temporary file left: $left"
done
exit 0
