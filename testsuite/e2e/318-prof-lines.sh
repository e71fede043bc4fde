# 318-prof-lines: prof -L and -A.  With ticks placed by mkmon on known
# lines (1-byte bins), the line report and the annotated listing are
# exact, the same for DWARF 4 and DWARF 5; a profiled run names the hot
# line; a program without -g gets one line saying to rebuild with -g,
# and a source file that is gone is listed by line number.
. "$E2E/300-prof.subr"
cp "$E2E/318-prof-lines.c" .
src=318-prof-lines.c

# lineaddr LINE: the first address of LINE in ./lines, decimal.
lineaddr() {
	a=$(readelf --debug-dump=decodedline lines | awk -v l="$1" '
	    $1 ~ /318-prof-lines\.c$/ && $2 == l { print $3; exit }')
	[ -n "$a" ] || fail "no address for line $1"
	echo $((a))
}

# golden DWARF-VERSION: the exact reports of a described profile.
golden() {
	"$CC" -O0 -g -gdwarf-$1 -o lines $src || fail "cannot build"
	v=$(readelf --debug-dump=info lines | awk '/Version:/ { print $2; exit }')
	expect_eq "$v" "$1" "DWARF version"
	textrange lines
	{
		echo "range $LPC $TEXTEND"
		echo "bins $((TEXTEND - LPC))"
		echo "meta rate 100"
		echo "bin $(($(lineaddr 13) - LPC)) 300"
		echo "bin $(($(lineaddr 12) - LPC)) 50"
		echo "bin $(($(lineaddr 14) - LPC)) 10"
		echo "bin $(($(lineaddr 23) - LPC)) 40"
		echo "cell $(($(addr spin lines) + 4)) 400"
		echo "cell $(($(addr run lines) + 4)) 1"
		echo "cell $(($(addr main lines) + 4)) 1"
	} | "$MKMON" mon.out
	"$PROF" -L lines > out
	cat > want <<'END'
 %Time Seconds Cumsecs  #Calls  Line                 Name
  75.0    3.00    3.00          318-prof-lines.c:13  spin
  12.5    0.50    3.50          318-prof-lines.c:12  spin
  10.0    0.40    3.90          318-prof-lines.c:23  run
   2.5    0.10    4.00          318-prof-lines.c:14  spin
   0.0    0.00    4.00     400  318-prof-lines.c:9   spin
   0.0    0.00    4.00       1  318-prof-lines.c:28  main
   0.0    0.00    4.00       1  318-prof-lines.c:19  run
END
	expect_file want out

	"$PROF" -A spin lines > out
	cat > want <<END
spin: 3.60 s, 90.0% of 4.00 s; 400 calls
 Seconds  %Func   Line  Source: $PWD/318-prof-lines.c
                     8  spin(unsigned long n)
    0.00    0.0      9  {
    0.00    0.0     10  	unsigned long i, x = 1;
                    11  
    0.50   13.9     12  	for (i = 0; i < n; i++)
    3.00   83.3     13  		x = (x ^ i) / 3 + x / (i | 1) + (x * 7) % 13 + 1;	/* hot */
    0.10    2.8     14  	sink = x;
    0.00    0.0     15  }
END
	expect_file want out
}
golden 4
golden 5

# -L sorts as the flat report does; --format=csv exports its rows.
"$PROF" -L -n -h lines | awk '{ print $(NF - 1), $NF }' > out
printf '%s\n' "318-prof-lines.c:28 main" "318-prof-lines.c:19 run" \
    "318-prof-lines.c:23 run" "318-prof-lines.c:9 spin" \
    "318-prof-lines.c:12 spin" "318-prof-lines.c:13 spin" \
    "318-prof-lines.c:14 spin" > want
expect_file want out
"$PROF" -L --format=csv lines | head -n 3 > out
cat > want <<END
name,file,line,address,object,percent,seconds,cumsecs,calls
spin,$PWD/318-prof-lines.c,13,$(printf '%#x' $(lineaddr 13)),lines,75,3,3,0
spin,$PWD/318-prof-lines.c,12,$(printf '%#x' $(lineaddr 12)),lines,12.5,0.5,3.5,0
END
expect_file want out

# The source is gone: one line says so, the lines are listed by number.
mv $src gone.c
"$PROF" -A spin lines > out
cat > want <<END
spin: 3.60 s, 90.0% of 4.00 s; 400 calls
  ($PWD/318-prof-lines.c: No such file or directory: lines by number only)
 Seconds  %Func   Line
    0.00    0.0      9
    0.00    0.0     10
    0.50   13.9     12
    3.00   83.3     13
    0.10    2.8     14
    0.00    0.0     15
END
expect_file want out
mv gone.c $src

bounded out err -A nosuch lines
expect_eq $st 1 "-A nosuch: exit status"
expect_eq "$(cat err)" "prof: lines: no function nosuch: name one the report lists (prof -z lists them all)" "-A nosuch"

# Without -g: one line, exit status 1.
"$CC" -O0 -o lines $src
bounded out err -L lines
expect_eq $st 1 "no -g: exit status"
expect_eq "$(cat err)" "prof: lines: no line information: rebuild with -g" \
    "no -g"

# A profiled run: the hot line has most of the time, in -L and in -A.
mp_cc -p -O1 -g -o lines $src
./lines
"$PROF" -L -h lines > out
expect_eq "$(awk 'NR == 1 { print $(NF - 1), $NF }' out)" \
    "318-prof-lines.c:13 spin" "the hot line first"
pct=$(awk 'NR == 1 { printf "%d", $1 }' out)
[ "$pct" -ge 50 ] || fail "the hot line has $pct% of the time"
expect_eq "$(grep ' spin$' out | awk '$4 ~ /^[0-9]+$/ { print $4 }')" 400 \
    "spin's calls"
"$PROF" -A spin lines | awk 'NF >= 4 && $1 ~ /^[0-9.]+$/ && $3 ~ /^[0-9]+$/ {
    if ($1 + 0 > max) { max = $1 + 0; line = $3 } } END { print line }' > out
expect_eq "$(cat out)" 13 "-A: the hot line has the most time"
