# 355-prof-stacks: prof reads a mon.out's STACK and FRAME cells exactly:
# the reference profile with stacks written by mkmon (main -> alpha 300
# samples; main -> beta -> helper 40 and main -> beta 100, the second
# keeping beta's frames; alpha -> alpha, a recursion, 50 more) gives
# each function its inclusive seconds, a recursion counted once, in the
# table (-i), CSV, -G and the flame graph; a caller's frame is named at
# its return address less one.  Hostile cells get one line and exit 1:
# a frame before any stack, a stack keeping more frames than the one
# before has, a stack deeper than 255 frames, a negative count.
. "$E2E/300-prof.subr"
sample
# frame NAME: a return address 8 bytes into NAME (named at 7).
frame() { echo "meta 29 $(($(addr "$1") + 8))"; }
# leaf NAME: a sampled pc 1 byte into NAME.
leaf() { echo "meta 29 $(($(addr "$1") + 1))"; }
stacks() {
	echo "meta 27 0"
	echo "meta 28 $((300 << 8))"; frame main; leaf alpha
	echo "meta 28 $((50 << 8 | 1))"; frame alpha; leaf alpha
	echo "meta 28 $((100 << 8))"; frame main; leaf beta
	echo "meta 28 $((40 << 8 | 1))"; frame beta; leaf helper
}
{ standard; stacks; } | "$MKMON" mon.out
"$PROF" -i -h sample > out 2> err
expect_file /dev/null err
cat > want <<'END'
   0.0    0.00    0.00   89.1    4.90       1      0.      main
  63.6    3.50    3.50   63.6    3.50      15    233.3     alpha, alpha_alias
  18.2    1.00    4.50   25.5    1.40       4    250.      beta
   7.3    0.40    4.90    7.3    0.40       6     67.      helper
   4.5    0.25    5.15    4.5    0.25       3     83.      <unknown>
   3.6    0.20    5.35    3.6    0.20       2    100.      beta.constprop.0
   1.8    0.10    5.45    1.8    0.10    1000      0.100   gamma_w
   0.9    0.05    5.50    0.9    0.05       7      7.      ns::foo(int)
END
expect_file want out
# -s: how many samples the stacks hold.
"$PROF" -s sample 2>&1 > /dev/null | grep 'call stacks' > out
expect_eq "$(cat out)" "  490 samples with their call stacks (4 distinct), 0 without (no room in the runtime)" \
    "-s: the stacks"
# CSV: the inclusive column in seconds, as the table.
"$PROF" --format=csv sample | awk -F, 'NR > 1 { print $1, $(NF - 1) }' > out
grep -q '^main 4.9$' out || fail "csv: main: $(cat out)"
grep -q '^beta 1.4$' out || fail "csv: beta: $(cat out)"
# -G: beta's callers and callees with the time under each call.
"$PROF" -G sample | sed -n '/^beta: /,/^$/p' > out
cat > want <<'END'
beta: 4 calls, 1.00 s (18.2%), 1.40 s inclusive (25.5%)
    callers:
                   1.40 s  main
    callees:
                   0.40 s  helper

END
expect_file want out
"$PROF" -G sample | grep '^alpha, alpha_alias: ' > out
expect_eq "$(cat out)" "alpha, alpha_alias: 15 calls, 3.50 s (63.6%), 3.50 s inclusive (63.6%)" \
    "-G: alpha's recursion counted once"
# The flame graph: main's frame with all of its stacks' time.
"$PROF" --flame=f.svg sample > /dev/null
grep -q '<title>main (4.90 s, 100.00%)</title>' f.svg ||
    fail "flame: $(grep -o '<title>[^<]*</title>' f.svg)"

# bad NAME: the reference profile with the cells on stdin: exit 1 and
# the one line $want.
bad() {
	_n=$1
	{ standard; cat; } | "$MKMON" bad.out
	bounded out err sample bad.out
	expect_eq $st 1 "$_n: exit status"
	expect_eq "$(cat err)" "$want" "$_n"
}
D="; not a mon.out, or a damaged one: rerun the program (built with gcc -specs=monprof.specs -p) to write it again"
want="prof: bad.out: cell 12: a frame before any stack$D"
echo "meta 29 4096" | bad frame-first
want="prof: bad.out: cell 14: a stack keeps 3 frames of one of 1$D"
printf 'meta 28 256\nmeta 29 4096\nmeta 28 %d\n' $((1 << 8 | 3)) | bad keep
want="prof: bad.out: cell 268: a stack deeper than 255 frames$D"
{ echo "meta 28 256"; seq 256 | sed 's/.*/meta 29 4096/'; } | bad deep
want="prof: bad.out: cell 12: negative sample count in a stack$D"
echo "meta 28 -256" | bad negative
