# 312-prof-objects: shared-object records cost time and memory linear in
# their number: 20,000 records of one object and 400,000 cells in them
# (2,000 and 200,000 took 14.7 s before; a record found by a linear scan
# for each cell, not a binary search, takes 10 s for these, 0.1 s now),
# and 50,000 records of objects that do not exist, each with a call (21 s
# and 206 MB before: each is one warning), each in under 5 s and 256 MB.
. "$E2E/300-prof.subr"
sample
"$CC" -shared -fPIC -o lib.so "$E2E/300-prof.c"
alpha=$(addr alpha lib.so)

# Record i maps lib.so at 0x7f0000000000 + i MB from offset 0, where the
# text's file offsets are its addresses; cell j is in alpha of record
# j % 20000.
awk -v lib="$PWD/lib.so" -v alpha=$alpha 'BEGIN {
	base = 139637976727552			# 0x7f0000000000
	print "meta magic ok"
	for (i = 0; i < 20000; i++)
		printf "object %.0f %.0f 0 %s\n", base + i * 1048576,
		    base + (i + 1) * 1048576, lib
	for (j = 0; j < 400000; j++)
		printf "cell %.0f 1\n", base + (j % 20000) * 1048576 + alpha + 4
}' | "$MKMON" mon.out
bounded out err sample
expect_eq $st 0 "20,000 records: exit status"
expect_file /dev/null err
expect_eq "$(sed -n 2p out)" \
    '   0.0    0.00    0.00  400000      0.0000  alpha, alpha_alias' \
    "20,000 records: every cell named"

awk -v beta=$(($(addr beta) + 4)) 'BEGIN {
	base = 139637976727552
	print "meta magic ok"
	for (i = 0; i < 50000; i++)
		printf "object %.0f %.0f 0 /nonexistent/lib%05d.so\n",
		    base + i * 1048576, base + (i + 1) * 1048576, i
	printf "cell %d 7\n", beta
	for (i = 0; i < 50000; i++)
		printf "cell %.0f 1\n", base + i * 1048576 + 16
}' | "$MKMON" mon.out
bounded out err sample
expect_eq $st 0 "50,000 records: exit status"
expect_eq "$(wc -l < err)" 50000 "50,000 records: one warning each"
expect_eq "$(sed -n 50000p err)" "prof: /nonexistent/lib49999.so: No such file or directory: its functions are not named (its samples stay in its own row); to name them, make the object the program ran with readable at that path" \
    "50,000 records: the warning"
expect_eq "$(sed -n 2,3p out)" \
    '   0.0    0.00    0.00   50000      0.0000  <unknown>
   0.0    0.00    0.00       7      0.      beta' "50,000 records: report"
