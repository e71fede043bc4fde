# 217-raw-clone: threads the C library did not start (a raw clone() with
# a TLS block of its own; the cases e1-e4 are in the .c) never crash
# code built with the guard, which -fPIC code has by default and an
# executable's code with -fplugin-arg-monprof-guard=yes: e1-e3 are not
# counted, e4 (glibc's TCB header copied) is, in the shared object, and
# in the executable under -pg.  An executable's -p counter (hook ABI 7)
# never reads the thread pointer and needs no guard: the raw thread
# counts in its creator's window, whatever lies around its pointer.
# -pg in an executable without the guard reads below the thread
# pointer: SIGSEGV where nothing or garbage is mapped there (e1, e2).
. "$E2E/300-prof.subr"
lib() {
	mp_cc "$@" -O2 -fchecking -fPIC -shared "$E2E/217-raw-clone.lib.c" \
	    -o libraw.so
}
app() {
	mp_cc "$@" -O2 -fchecking "$E2E/217-raw-clone.c" -L. -lraw \
	    -Wl,-rpath,"$T" -o a.out
}
# run CASE: the program's line, with its exit status (a signal: 128 + n)
run() {
	rm -f mon.out gmon.out
	st=0
	out=$(timeout 60 ./a.out "$1" 2>&1) || st=$?
}
# The main thread's sum is 18, the raw thread's 2000000, printed by main.
line() {
	echo "$1: 18 2000000"
}
# 3 of the main thread's calls each, or N = 1000 more (lib_f is called by
# both: twice as many).
want() {
	printf '%s\n' "app_f $1" "lib_f $(($2 * 2))" "lib_g $2" > want
}

for p in -p -pg; do
	lib "$p"
	app "$p" -fplugin-arg-monprof-guard=yes
	for c in e1 e2 e3 e4; do
		run $c
		expect_eq "$st" 0 "$p $c: exit status ($out)"
		expect_eq "$out" "$(line $c)" "$p $c: output"
		calls a.out > got
		case $c$p in
		e4-p*)	want 1003 1003 ;;
		*-p)	want 1003 3 ;;	# the main thread's window
		*)	want 3 3 ;;
		esac
		expect_file want got
	done

	# No guard in the executable (the default there).
	app "$p"
	run e1
	[ "$p" = -p ] || { expect_eq "$st" 139 \
	    "$p e1 without the guard: SIGSEGV ($out)"; continue; }
	for c in e1 e2 e3 e4; do
		run $c
		expect_eq "$st" 0 "-p $c without the guard: exit status ($out)"
		expect_eq "$out" "$(line $c)" "-p $c without the guard: output"
		calls a.out > got
		case $c in
		e4)	want 1003 1003 ;;
		*)	want 1003 3 ;;
		esac
		expect_file want got
	done
done
run e2		# -pg
expect_eq "$st" 139 "-pg e2 without the guard: SIGSEGV ($out)"

# -fPIC code's guard in a host without the runtime, and with it off.
lib -p
plain_cc -O2 "$E2E/217-raw-clone.c" -L. -lraw -Wl,-rpath,"$T" -o a.out
for c in e1 e2 e3 e4; do
	run $c
	expect_eq "$st" 0 "plain host $c: exit status ($out)"
	expect_eq "$out" "$(line $c)" "plain host $c: output"
done
lib -p -fplugin-arg-monprof-guard=no
run e1
expect_eq "$st" 139 "guard=no e1: SIGSEGV ($out)"
mp_cc -p -O2 -fPIC -S -o - "$E2E/217-raw-clone.lib.c" > s
grep -q 'movq	%fs:0,' s || fail "-fPIC code without the guard"
mp_cc -p -O2 -S -o - "$E2E/217-raw-clone.lib.c" > s
grep -q 'movq	%fs:0,' s && fail "an executable's code with the guard"
true
