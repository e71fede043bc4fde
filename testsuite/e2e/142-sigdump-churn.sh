# 142-sigdump-churn: -sigdump dumps while thousands of short threads
# start and end: the numbered dumps and the exit profile sum exactly to
# the calls made, in mon.out (prof over the directory) under -p and -pg
# and in gmon.out (gprof, each file) under -pg, in every run.  Before,
# the calls made while a dump was written were zeroed unwritten (whole
# threads lost: 5,000 of 2,000,000 in a run), and a second dump between
# another's write and its zeroing wrote the same calls twice (50,000
# too many).
. "$E2E/300-prof.subr"
for p in -p -pg; do
	mp_cc $p -O2 -o prog "$E2E/142-sigdump-churn.c" -pthread
	r=0
	while [ $r -lt 8 ]; do
		rm -rf d
		mkdir d
		want=$(PROFDIR=d PROFFLAGS="-sigdump USR1" ./prog 2000) ||
		    fail "$p run $r: status $?"
		[ "$(ls d | grep -vc gmon)" -ge 2 ] ||
		    fail "$p run $r: no dump written"
		got=$("$PROF" -c prog d | awk '$NF == "f" { print $(NF - 2) }')
		expect_eq "$got" "$want" "$p run $r: calls of f in mon.out files"
		if [ $p = -pg ] && command -v gprof > /dev/null 2>&1; then
			got=0
			for g in d/*.gmon*; do
				c=$(gprof -b -p prog "$g" 2>/dev/null |
				    awk '$NF == "f" && NF >= 4 { print $4 }')
				got=$((got + ${c:-0}))
			done
			expect_eq "$got" "$want" "$p run $r: calls of f in gmon.out files"
		fi
		r=$((r + 1))
	done
done
