# 152-off-threads: with profiling off (PROFDIR=), nothing counted is
# ever read, so a thread's leases go to the next thread as soon as it
# releases them: no thread asks its tid or whether another has gone,
# and a thread costs the system calls of plain's (issue 28, item 2).
# Code an ending thread runs after its release (a key's destructor,
# here calling 64 functions through new arcs) counts beside the next
# holder: the program's output and status are plain's, nothing is
# written.  Then with PROFDIR unset the counts are exact.
NTHR=2000
"$CC" -O2 -pthread -o plain "$E2E/152-off-threads.c"
mp_cc -p -O2 -pthread -o p "$E2E/152-off-threads.c"
mp_cc -pg -O2 -pthread -o pg "$E2E/152-off-threads.c"
want=$(./plain $NTHR) || fail "plain: status $?"
# calls NAME FILE: how many NAME system calls strace -c counted (0).
calls() {
	awk -v n="$1" '$NF == n { c = $4 } END { print c + 0 }' "$2"
}
for v in p pg; do
	mkdir off.$v
	i=0
	while [ $i -lt 5 ]; do
		got=$(cd off.$v && PROFDIR= ../$v $NTHR) ||
		    fail "$v off: status $?"
		expect_eq "$got" "$want" "$v off: output"
		i=$((i + 1))
	done
	expect_eq "$(ls off.$v)" "" "$v off: files written"
	if command -v strace >/dev/null 2>&1; then
		PROFDIR= strace -f -qq -c -o st.$v ./$v $NTHR >/dev/null ||
		    fail "$v off under strace: status $?"
		# A few at start-up, none per thread.
		n=$(( $(calls tgkill st.$v) + $(calls gettid st.$v) ))
		[ "$n" -le 4 ] ||
		    fail "$v off: $n tgkill and gettid calls in $NTHR threads"
	fi
	rm -f mon.out gmon.out
	expect_eq "$(./$v $NTHR)" "$want" "$v on: output"
	counts ./$v > counts.$v
	# Each f: once in each thread, once more in its destructor.
	expect_eq "$(awk '$1 ~ /^f[0-3]+$/ && $2 == 2 * '$NTHR' { n++ }
	    END { print n + 0 }' counts.$v)" 64 "$v on: functions called $((2 * NTHR)) times"
	expect_eq "$(awk '$1 == "late_calls" { print $2 }' counts.$v)" \
	    $NTHR "$v on: late_calls"
done
command -v strace >/dev/null 2>&1 ||
    echo "strace not installed: system calls not checked"
exit 0
