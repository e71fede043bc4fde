# 429-raw-dlopen: an unprivileged process's perf helper is no thread of
# glibc's (runtime/rawthread.c), so glibc takes the loader's lock
# without atomics; the helper learns and retires objects without it
# (_dl_find_object, process_vm_readv: runtime/sframe.c).  A program
# whose library dlopen()s, calls, walks (dl_iterate_phdr) and dlclose()s
# a module some 30,000 times a second for 2 s of CPU ends by itself,
# with status 0, glibc's count of one thread, and its profile.  (With
# the helper's dl_iterate_phdr instead, it hung in 3 runs of 3.)
"$CC" -O2 -g -fPIC -shared -DLIBRARY -o libl.so "$E2E/429-raw-dlopen.c" -ldl
"$CC" -O2 -g -fPIC -shared -DMODULE -o mod.so "$E2E/429-raw-dlopen.c"
mp_cc -p -O2 -g -o a.out "$E2E/429-raw-dlopen.c" ./libl.so \
    -Wl,-rpath,"$PWD"
mkdir d
chmod 777 d
chmod 755 .
command -v setpriv > /dev/null || skip "no setpriv to run it as nobody"
if [ "$(id -u)" = 0 ]; then
	run="setpriv --reuid=65534 --regid=65534 --clear-groups"
else
	run=
fi
$run timeout 120 env PROFDIR=d ./a.out "$PWD/mod.so" 2 > out 2> err
rc=$?
[ "$rc" != 124 ] || fail "hung: killed after 120 s"
[ ! -s err ] || fail "stderr: $(cat err)"
expect_file - out <<OUT
churn 0 single 1
OUT
expect_eq "$rc" 0 "status"
set -- d/*.a.out
[ -f "$1" ] || fail "no profile"
case $(meta 4 "$1") in
1|3)	;;
2)	skip "no perf_event here: the helper is not started" ;;
*)	fail "sampler $(meta 4 "$1")" ;;
esac
# Its samples were kept with their stacks, none dropped for want of
# room (most are in the module, gone when the profile is written, and
# their stacks end there where it was gone when the helper drained):
# 2 s of CPU at 1000 a second, part of it the kernel's (not sampled).
# runtime/sframe.c's learning itself is checked by e2e 421 as nobody
# and by the unit checks of sframe.c.
"$PROF" -s a.out "$1" > /dev/null 2> summary
set -- $(sed -n 's/^ *\([0-9]*\) samples with their call stacks .*, \([0-9]*\) without.*/\1 \2/p' summary)
[ $# = 2 ] || fail "prof -s: $(cat summary)"
[ "$1" -ge 200 ] && [ "$2" = 0 ] ||
    fail "$1 samples with stacks, $2 without: $(cat summary)"
exit 0
