# 401-gmon: glibc's tst-gmon pattern through GNU gprof, PIE, non-PIE and
# static: exact calls in the flat profile, exact caller lines in the call
# graph (main's caller is <external> where libc is a shared object), and
# the same counts in the mon.out that prof reads.  gprof reads the
# histogram as records of the chunks of 32 bins with samples, or with
# PROFFLAGS -classic as one record.
. "$E2E/400-gprof.subr"
for link in -pie -no-pie -static; do
	rm -f gmon.out mon.out
	mp_cc -pg -O2 $link "$E2E/401-gmon.c" -o prog
	./prog > /dev/null || fail "$link: run"
	[ -f gmon.out ] || fail "$link: no gmon.out"
	flat prog > got
	printf '%s\n' "f1 2000" "f2 1000" "f3 1" "main 1" > want
	expect_file want got
	caller="<external>"
	[ $link = -static ] && caller=__libc_start_call_main
	graph prog > got
	printf '%s\n' "$caller main 1/1" "f2 f1 1000/2000" "f3 f1 1000/2000" \
	    "f3 f2 1000/1000" "main f3 1/1" | sort > want
	expect_file want got
	# A record per chunk of 32 bins with samples, the first and last bins'
	# among them (at least 2); PROFFLAGS -classic, one for them all.
	gprof -i prog gmon.out > info
	grep -q '[0-9] histogram records$' info ||
	    fail "$link: histogram records: $(grep histogram info)"
	cp gmon.out compact.gmon
	PROFFLAGS=-classic ./prog > /dev/null || fail "$link: -classic run"
	gprof -i prog gmon.out > info
	grep -q '^[[:space:]]*1 histogram record$' info ||
	    fail "$link: -classic: histogram records: $(grep histogram info)"
	mv compact.gmon gmon.out
	for f in f1:2000 f2:1000 f3:1 main:1; do
		expect_eq "$(count_of ${f%:*} prog)" ${f#*:} "$link: mon.out ${f%:*}"
	done
	"$PROF" prog > report
	awk '$NF == "f1" { print $4 }' report > got
	echo 2000 > want
	expect_file want got
done
# glibc's own -pg build of the same program has no count for main.
"$CC" -pg -O2 "$E2E/401-gmon.c" -o glibc
rm -f gmon.out
./glibc > /dev/null
expect_eq "$(calls_of main glibc)" 0 "glibc main"
expect_eq "$(calls_of f1 glibc)" 2000 "glibc f1"
