# 421-stacks-libs: stacks through objects that nobody built for the
# profiler, by their .eh_frame (runtime/ehframe.c): the program calls a
# library built by plain gcc -O2 (no specs, no frame pointers), whose
# function calls the C library's qsort, which calls back the library's
# comparator; and the library dlopen()s a module of its own (no wrapper
# of the executable sees it: the perf helper learns it at its next
# drain), whose function calls the C library's memset.  Every sample of
# those is under main, and under sorting or viamod, whichever called
# the library; prof -i puts main at 95 % or more, each of the two near
# half.  (Before .eh_frame: stacks stopped in the module, and viamod
# had 0 %.)  As the user the tests run as and, for root, as nobody,
# whose helper is no thread of glibc's (runtime/rawthread.c) and learns
# the module without the loader's lock (runtime/sframe.c).
"$CC" -O2 -g -fPIC -shared -o libl.so "$E2E/421-stacks-libs.lib.c" -ldl
"$CC" -O2 -g -fPIC -shared -DMODULE -o mod.so "$E2E/421-stacks-libs.lib.c"
readelf -SW libl.so | grep -q ' .eh_frame_hdr ' || fail "libl.so: no .eh_frame_hdr"
mp_cc -p -O2 -g -o a.out "$E2E/421-stacks-libs.c" ./libl.so \
    -Wl,-rpath,"$PWD" -pthread
# share NAME: NAME's inclusive time in percent of all, from prof -i.
share() {
	awk -F, -v f="$1" '
	    NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
	    { t += $col["seconds"] }
	    $1 == f { v = $col["inclusive"] }
	    END { printf "%d\n", (t > 0 ? 100 * v / t : 0) }' csv
}
for u in $(test_users); do
	as=$(as_user "$u")
	user_dir d
	$as env PROFDIR=d ./a.out ./mod.so 0.5 || fail "$u: status $?"
	set -- d/*.a.out
	[ -f "$1" ] || fail "$u: no profile"
	case $(meta 4 "$1") in
	1|3)	;;
	2)	skip "no perf_event here: the timer's handler cannot learn a" \
		    "module that a library dlopen()s" ;;
	*)	fail "$u: sampler $(meta 4 "$1")" ;;
	esac
	expect_eq "$(meta 27 "$1")" 0 "$u: samples whose stack was lost"
	"$PROF" -i --format=csv a.out "$1" > csv
	main=$(share main)
	sorting=$(share sorting)
	viamod=$(share viamod)
	libl=$(share "<libl.so>")
	mod=$(share "<mod.so>")
	echo "$u: inclusive: main $main%, sorting $sorting%, viamod" \
	    "$viamod%, libl.so $libl%, mod.so $mod%"
	[ "$main" -ge 95 ] || { cat csv; fail "$u: main has $main% of the time"; }
	# The module's thread-CPU clock is a system call: its user time
	# is less.
	[ "$sorting" -ge 40 ] && [ "$viamod" -ge 20 ] &&
	    [ $((sorting + viamod)) -ge 95 ] ||
	    { cat csv; fail "$u: sorting $sorting%, viamod $viamod%"; }
	[ "$libl" -ge "$sorting" ] && [ "$mod" -ge 15 ] ||
	    { cat csv; fail "$u: libl.so $libl%, mod.so $mod%"; }
done
exit 0
