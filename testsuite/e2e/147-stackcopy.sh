# 147-stackcopy: the perf sampler unwinds an 8 KB copy of the stack's
# top, so a 24 KB buffer between main's frame and the sampled one cuts
# main from the stacks (as perf --call-graph dwarf's default copy does);
# PROFFLAGS="-stackcopy 32768" copies enough to reach main.  A size out
# of bounds is refused in one line, and the default kept.
mp_cc -p -O2 -g -o a.out "$E2E/147-stackcopy.c"
readelf -lW a.out | grep -Eq 'GNU_(SFRAME|EH_FRAME)' ||
    fail "neither SFrame rows nor .eh_frame_hdr"
./a.out
case $(meta 4) in
1|3)	;;
*)	skip "no perf_event here: the timer unwinds the live stack" ;;
esac
# incl NAME: NAME's inclusive share of all samples, in percent.
incl() {
	"$PROF" --format=csv a.out | awk -F, -v f="$1" '
	    NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
	    { t += $col["seconds"] }
	    $1 == f { v = $col["inclusive"] }
	    END { printf "%.0f\n", (t > 0 ? 100 * v / t : 0) }'
}
echo "8 KB: outer $(incl outer)%, main $(incl main)%"
[ "$(incl outer)" -ge 90 ] || fail "8 KB: outer has $(incl outer)%"
[ "$(incl main)" -le 20 ] || fail "8 KB: main has $(incl main)%"
PROFFLAGS="-stackcopy 32768" ./a.out 2> err
expect_file /dev/null err
echo "32 KB: outer $(incl outer)%, main $(incl main)%"
[ "$(incl main)" -ge 90 ] || fail "32 KB: main has $(incl main)%"
expect_eq "$(meta 27)" 0 "32 KB: stacks lost"
PROFFLAGS="-stackcopy 100" ./a.out 0.05 2> err
expect_eq "$(cat err)" "monprof: PROFFLAGS: -stackcopy 100: the copy is 64 to 65000 bytes, a multiple of 8, ignored" "bad size"
exit 0
