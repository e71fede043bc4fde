# 422-address-space: a program under RLIMIT_AS can allocate what it can
# plain, less at most 4 MB, profiled with stacks (-p, -pg): the runtime
# maps its stack table and the pool's chunks as stacks come, the perf
# helper has a 256 KB stack, and the rings hold 1 MB in all.  Before:
# 9 MB of malloc under a 60 MB limit, against 46 MB plain, and under 30
# MB pthread_create failed (EAGAIN).  The profile is whole and counts
# blocks() once.
plain_cc -O2 -o plain "$E2E/422-address-space.c" -pthread
mp_cc -p -O2 -o a.out "$E2E/422-address-space.c" -pthread
mp_cc -pg -O2 -o pg.out "$E2E/422-address-space.c" -pthread
for lim in 61440 30720; do
	want=$(ulimit -v $lim && ./plain) ||
	    fail "plain under $lim KB: status $?"
	mb=$(echo "$want" | awk '$1 == "MB" { print $2 }')
	for how in a.out pg.out; do
		rm -f mon.out gmon.out
		got=$(ulimit -v $lim && ./$how) ||
		    fail "$how under $lim KB: status $?"
		echo "$how under $lim KB: $(echo $got), plain $(echo $want)"
		expect_eq "$(echo "$got" | sed -n 's/^thread //p')" ok \
		    "$how under $lim KB: the last thread"
		echo "$got" | awk -v mb="$mb" '$1 == "MB" {
		    exit !($2 >= mb - 4) }' ||
		    fail "$how under $lim KB: $(echo $got), plain $mb MB"
		expect_eq "$(count_of blocks ./$how)" 1 "$how: blocks"
		[ "$(meta 4)" = 2 ] || expect_eq "$(meta 27)" 0 \
		    "$how: samples whose stack was lost"
	done
done
exit 0
