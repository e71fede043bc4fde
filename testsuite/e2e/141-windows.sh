# 141-windows: -p counts in each thread's window (hook ABI 7) stay exact
# across ended threads whose windows later threads adopt, and across
# fork: each child's profile counts its own calls from zero, the
# parent's none of a child's.  -pg too, whose arc caches in an adopted
# window are zeroed (they point into the arc table of the thread that
# held it).  PIE, non-PIE and static; the windows are checked under
# valgrind too (no wrgsbase there: arch_prctl).
. "$E2E/300-prof.subr"
check() {
	n=0
	for f in pd/*; do
		calls a.out "$f" > got
		if [ "$(count_in got child_only)" = 0 ]; then
			printf '%s\n' "main 1" "round4 3" "thread 12" "work 12000" > want
		else
			printf '%s\n' "child_only 4" "round4 1" "thread 4" "work 400" > want
		fi
		expect_file want got
		n=$((n + 1))
	done
	expect_eq "$n" 4 "$1: profiles (the parent's and 3 children's)"
}
count_in() {
	awk -v f="$2" '$1 == f { print $2; found = 1 } END { if (!found) print 0 }' "$1"
}
for p in -p -pg; do
	for how in "" -no-pie -static; do
		case $how in
		-static) [ -f "$("$CC" -print-file-name=libc.a)" ] || continue ;;
		esac
		mp_cc $p -O2 $how -o a.out "$E2E/141-windows.c" -pthread
		rm -rf pd
		mkdir pd
		PROFDIR=pd ./a.out || fail "$p ${how:-pie}: status $?"
		rm -f pd/*.gmon
		check "$p ${how:-pie}"
	done
done
if command -v valgrind > /dev/null 2>&1; then
	mp_cc -p -O2 -o a.out "$E2E/141-windows.c" -pthread
	rm -rf pd
	mkdir pd
	PROFDIR=pd valgrind -q --error-exitcode=9 ./a.out ||
	    fail "valgrind: status $?"
	check valgrind
fi
true
