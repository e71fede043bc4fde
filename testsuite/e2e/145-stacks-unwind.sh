# 145-stacks-unwind: the specs file builds without frame pointers, with
# SFrame rows (-Wa,--gsframe) where the Makefile's probe passes, and the
# samplers unwind by the rows, else by .eh_frame: every stack goes up
# to main, through a C library that has neither
# frame pointers nor rows (Debian's): by_key, which qsort calls, is
# under main;sorter; the time in malloc, free and memset is under churn
# and fill.  The perf sampler unwinds a copy of the stack's top, the
# itimer handler the live stack.  (143 has the frame-pointer walk of
# code built without rows.)
mp_cc -p -O2 -g -o a.out "$E2E/145-stacks-unwind.c"
readelf -lW a.out | grep -Eq 'GNU_(SFRAME|EH_FRAME)' ||
    fail "neither SFrame rows nor .eh_frame_hdr"
# No frame is set up: code without frame pointers costs nothing more.
objdump -d --no-show-raw-insn a.out | awk '
    /^[0-9a-f]+ <.*>:$/ { f = $2 }
    f ~ /^<(by_key|sorter|churn|fill)>:$/ && /mov +%rsp,%rbp/ { print f; bad = 1 }
    END { exit bad }' || fail "frame pointers set up"

# check WHAT: the stacks of mon.out.
check() {
	expect_eq "$(meta 27)" 0 "$1: samples whose stack was lost"
	stacks a.out > folded
	awk -v what="$1" '
	    { n = $NF; all += n; s = $1
		sub(/^_start;(\?;)*/, "", s); sub(/^__wrap_main;/, "", s) }
	    s ~ /^main(;|$)/ { rooted += n }
	    s ~ /;by_key$/ { key += n; if (s ~ /^main;sorter;/) keyok += n }
	    s ~ /;\?$/ { lib += n
		if (s ~ /^main;(sorter|churn|fill);/) libok += n }
	    s ~ /^main;sorter(;|$)/ { sorter += n }
	    s ~ /^main;churn(;|$)/ { churn += n }
	    s ~ /^main;fill(;|$)/ { fill += n }
	    END {
		printf "%s: %d samples, %d from main; by_key %d, %d under " \
		    "sorter; libc %d, %d under sorter, churn or fill; " \
		    "sorter %d churn %d fill %d\n", what, all, rooted, key,
		    keyok, lib, libok, sorter, churn, fill
		exit !(all >= 40 && rooted >= all * 0.9 && key >= 3 &&
		    keyok >= key * 0.9 && lib >= all * 0.3 &&
		    libok >= lib * 0.85 && sorter >= all * 0.15 &&
		    churn >= all * 0.15 && fill >= all * 0.15) }' folded ||
	    { cat folded; fail "$1: stacks"; }
}

./a.out
case $(meta 4) in
1|3)	check perf ;;
2)	echo "no perf_event here: the default is the itimer" ;;
*)	fail "sampler $(meta 4)" ;;
esac
PROFFLAGS=-itimer ./a.out 1.5
expect_eq "$(meta 4)" 2 "-itimer: the sampler"
check itimer

# A module that main dlopen()s: its rows or .eh_frame are learnt at the dlopen
# (the specs file wraps it), so its samples are under via_module.
mp_cc -p -O2 -g -fPIC -shared -DMODULE -o mod.so "$E2E/145-stacks-unwind.c"
for how in perf itimer; do
	if [ $how = itimer ]; then
		PROFFLAGS=-itimer ./a.out 0 ./mod.so
	else
		./a.out 0 ./mod.so
	fi
	stacks a.out > folded
	awk -v what="$how" '
	    { n = $NF; all += n; s = $1
		sub(/^_start;(\?;)*/, "", s); sub(/^__wrap_main;/, "", s) }
	    s ~ /^main;via_module;\?;\?(;|$)/ { mod += n }
	    END { printf "module, %s: %d samples, %d under via_module\n",
		what, all, mod
		exit !(all >= 20 && mod >= all * 0.8) }' folded ||
	    { cat folded; fail "module, $how: stacks"; }
done

# prof: main has all of the time, through the C library.
./a.out
"$PROF" -i --format=csv a.out > csv
awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
    { incl[$1] = $col["inclusive"]; t += $col["seconds"] }
    END { exit !(t > 0 && incl["main"] >= t * 0.95 &&
	incl["sorter"] >= t * 0.15 && incl["churn"] >= t * 0.15) }' csv ||
    { cat csv; fail "inclusive"; }
exit 0
