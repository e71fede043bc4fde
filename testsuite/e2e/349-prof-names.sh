# 349-prof-names: a symbol's name is input prof does not trust (the ELF
# file may be anyone's).  A function renamed to hold a newline, a line
# that looks like a callgrind record, ESC (a terminal's escape), a
# backslash, a tab and a C1 control in UTF-8 is written escaped, C-style,
# in the flat report, -G, -L, -A and --callgrind, so that it splits no
# line, forges no record and drives no terminal; a plain UTF-8 letter
# stays as it is.  The profile is written by mkmon (exact), -G's arcs
# come from a -pg run (their counts are exact).
. "$E2E/300-prof.subr"
cat > h.c <<'END'
void __attribute__((noinline))
evil(int n)
{
	volatile int i;

	for (i = 0; i < n; i++)
		;
}

int
main(void)
{
	int k;

	for (k = 0; k < 3; k++)
		evil(10);
	return 0;
}
END
mp_cc -pg -O0 -g -Wl,--build-id -o h h.c || fail "cannot build"
textrange h
evil=$(addr evil h)
main=$(addr main h)
line6=$(readelf --debug-dump=decodedline h | awk '$1 == "h.c" && $2 == 6 {
    print $3; exit }')
[ -n "$line6" ] || fail "no address for line 6"
esc=$(printf '\033')
name=$(printf 'ev\nfn=(9) forged%s[2J\\\t\302\233x\303\251' "$esc")
shown='ev\nfn=(9) forged\x1b[2J\\\t\xc2\x9bx'$(printf '\303\251')
objcopy --redefine-sym "evil=$name" h || fail "objcopy cannot rename evil"

# noraw FILE: no ESC and no line of the name's second half on its own.
noraw() {
	[ "$(grep -c "$esc" "$1" || :)" = 0 ] || fail "$1: a raw ESC"
	! grep -q '^fn=(9) forged' "$1" || fail "$1: the name split a line"
}

# -G: a -pg run's arcs, most calls first (times vary: not compared).
./h
callgraph -c h | awk -v RS= -v ORS='\n\n' '{ split($0, l, "\n") }
    l[1] !~ /: 0 calls$/' | sed '$d' > got
cat > want <<END
$shown: 3 calls
    callers:
             3  main

main: 1 call
    callers:
             1  <external>
    callees:
             3  $shown
END
expect_file want got
"$PROF" -G h > got
noraw got

# The rest from a profile with exact ticks (beside no gmon.out).
mkdir m
{
	echo "range $LPC $TEXTEND"
	echo "bins $((TEXTEND - LPC))"
	echo "meta rate 100"
	echo "bin $((line6 - LPC)) 300"
	echo "bin $((main + 1 - LPC)) 100"
	echo "cell $((evil + 4)) 3"
	echo "cell $((main + 4)) 1"
} | "$MKMON" m/mon.out

"$PROF" -m m/mon.out h > got
cat > want <<END
 %Time Seconds Cumsecs  #Calls   msec/call  Name
  75.0    3.00    3.00       3   1000.      $shown
  25.0    1.00    4.00       1   1000.      main
END
expect_file want got
noraw got

"$PROF" -L -m m/mon.out h > got
cat > want <<END
 %Time Seconds Cumsecs  #Calls  Line    Name
  75.0    3.00    3.00          h.c:6   $shown
  25.0    1.00    4.00       1  h.c:12  main
   0.0    0.00    4.00       3  h.c:3   $shown
END
expect_file want got
noraw got

"$PROF" -A "$name" -m m/mon.out h > got
expect_eq "$(head -n 1 got)" "$shown: 3.00 s, 75.0% of 4.00 s; 3 calls" \
    "-A's heading"
noraw got

"$PROF" --callgrind=cg.out -m m/mon.out h > /dev/null
expect_eq "$(grep -c '^fn=' cg.out)" 2 "callgrind: fn= lines"
expect_eq "$(grep '^fn=(1)' cg.out)" "fn=(1) $shown" "callgrind: the name"
noraw cg.out

# A file name is input too: anyone may plant one in a shared PROFDIR.
# prof's warnings name it escaped (here a FIFO it skips, with ESC and a
# newline in its name).
echo 'int main(void) { return 0; }' > p.c
mp_cc -p -O2 -o p p.c
mkdir pd
PROFDIR=pd ./p
mkfifo "pd/99.x${esc}[31mRED
forged"
"$PROF" pd > /dev/null 2> err || fail "prof pd: status $?"
expect_eq "$(cat err)" 'prof: pd/99.x\x1b[31mRED\nforged: not a regular file: skipped; remove it from the directory' \
    "a planted name in a warning"
