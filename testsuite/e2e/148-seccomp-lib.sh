# 148-seccomp-lib: a filter that a shared library installs is seen too.
# The program confines itself with libseccomp (148-seccomp-lib.c):
# seccomp_load calls libseccomp.so's prctl() and syscall(SYS_seccomp),
# which --wrap never reached, so a kill filter killed the program at
# exit on the runtime's gettid, its buffered output and status lost,
# and no profile written.  A dynamic link now defines prctl and syscall
# as the runtime's and exports them, and shared libraries call those:
# status, output and a whole profile (10 calls of f, on disk when the
# program has ended) as with a filter the program installs itself
# (144-seccomp-kill), with -p and -pg, killing or refusing with EPERM;
# a static link's libseccomp.a is wrapped as it always was.  A shared
# object's syscall() and prctl() return and set errno as libc's do.
printf '#include <seccomp.h>\n' | "$CC" -E -x c - > /dev/null 2>&1 ||
    skip "no libseccomp-dev (seccomp.h) to build a program with libseccomp"
ulimit -c 0
"$CC" -O2 -fPIC -shared -o libsys.so "$E2E/148-seccomp-lib.lib.c"
LIBS="-L. -lsys -Wl,-rpath,$PWD -lseccomp"
plain_cc -O2 -o plain "$E2E/148-seccomp-lib.c" $LIBS
mp_cc -p -O2 -o a.out "$E2E/148-seccomp-lib.c" $LIBS
mp_cc -pg -O2 -o pg.out "$E2E/148-seccomp-lib.c" $LIBS
exes="a.out pg.out"
if mp_cc -p -O2 -static -o st.out "$E2E/148-seccomp-lib.c" \
    "$E2E/148-seccomp-lib.lib.c" -lseccomp 2> st.err; then
	exes="$exes st.out"
else
	echo "no -static build (no libseccomp.a?): $(cat st.err)"
fi

# The executables export the runtime's prctl and syscall, which shared
# libraries then call.
for exe in a.out pg.out; do
	for s in prctl syscall; do
		readelf --dyn-syms -W "$exe" | awk -v s="$s" '
		    $8 == s && $7 != "UND" { found = 1 } END { exit !found }' ||
		    fail "$exe does not export $s"
	done
done

# check ACT: each executable as the plain build, its profile whole.
check() {
	act=$1
	st=0
	./plain "$act" > want 2> wanterr || st=$?
	[ "$st" = 7 ] || skip "$act: the plain program needs more than its" \
	    "list with this libc (status $st: $(cat wanterr))"
	for exe in $exes; do
		what="$exe $act"
		rm -f mon.out gmon.out
		got=0
		"./$exe" "$act" > got 2> err || got=$?
		expect_eq "$got" 7 "$what: status"
		expect_file want got
		expect_file wanterr err
		[ -f mon.out ] || fail "$what: no mon.out when it ended"
		if [ "$exe" = pg.out ]; then
			[ -f gmon.out ] || fail "$what: no gmon.out when it ended"
		fi
		expect_eq "$(count_of f "./$exe")" 10 "$what: calls of f"
		"$PROF" "./$exe" mon.out > report 2> proferr ||
		    fail "$what: prof: $(cat proferr)"
		awk '$NF == "f" && $4 == 10 { found = 1 } END { exit !found }' \
		    report || fail "$what: prof's report has no 10 calls of f:
$(cat report)"
	done
}

for act in kill kill-tsync errno; do
	check $act
done

# A shared object's system calls through the runtime: libc's returns
# and errno (EBADF, EINVAL, EFAULT; kept where the call succeeds).
./plain lib > want 2>&1 || expect_eq $? 7 "plain lib: status"
cat want
grep -q '^close(-1): -1 errno Bad file descriptor$' want ||
    fail "plain: close(-1) through syscall() is not -1/EBADF"
for exe in $exes; do
	got=0
	"./$exe" lib > got 2>&1 || got=$?
	expect_eq "$got" 7 "$exe lib: status"
	expect_file want got
done
true
