# 302-prof-options: every option of classic prof on the reference
# profile: sort orders and their override warning, -o/-x address
# columns, -g (the default) and -l (classic folding), -z, -h, -s summary
# on stderr, -C, -V, usage.
. "$E2E/300-prof.subr"
sample
standard | "$MKMON" mon.out

# -c: decreasing calls.
"$PROF" -c sample | awk 'NR > 1 { print $4, $NF }' > out
printf '%s\n' '1000 gamma_w' '15 alpha_alias' '7 _ZN2ns3fooEi' '6 helper' \
    '4 beta' '3 <unknown>' '2 beta.constprop.0' '1 main' > want
expect_file want out

# -n: by name; -a: by address (source order).
"$PROF" -n sample | awk 'NR > 1 { print $NF }' > out
printf '%s\n' '<unknown>' _ZN2ns3fooEi alpha_alias beta beta.constprop.0 \
    gamma_w helper main > want
expect_file want out
"$PROF" -a sample | awk 'NR > 1 { print $NF }' > out
printf '%s\n' alpha_alias beta helper beta.constprop.0 gamma_w _ZN2ns3fooEi \
    main '<unknown>' > want
expect_file want out

# A later sort option overrides an earlier one, with classic's warning.
"$PROF" -c -n sample > out 2> err
expect_eq "$(cat err)" "prof: Warning: n overrides previous specification" \
    "override warning"
expect_eq "$(awk 'NR == 3 { print $NF }' out)" _ZN2ns3fooEi "-c -n sorts by name"

# -x / -o: the address column, 8 digits for these small addresses.
a=$(addr alpha)
"$PROF" -x sample > out
expect_eq "$(head -n 1 out)" \
    " Address  %Time Seconds Cumsecs  #Calls   msec/call  Name" "-x header"
expect_eq "$(sed -n 2p out)" \
    "$(printf '%8x   63.6    3.50    3.50      15    233.3     alpha, alpha_alias' $a)" \
    "-x line"
expect_eq "$(grep unknown out)" \
    "            4.5    0.25    5.15       3     83.      <unknown>" \
    "-x: no address for <unknown>"
"$PROF" -x -o sample > out
expect_eq "$(sed -n 2p out | cut -c1-9)" "$(printf '%8o ' $a)" "-o wins"

# -h: no heading.
"$PROF" -h sample > out
expect_eq "$(head -n 1 out)" \
    "  63.6    3.50    3.50      15    233.3     alpha, alpha_alias" "-h"

# -g is the default: the static helper has its own line, its time and
# calls.
"$PROF" -g sample > out
"$PROF" sample > want
expect_file want out
expect_eq "$(grep ' helper$' out)" \
    "   7.3    0.40    4.90       6     67.      helper" "-g helper"
grep -q 'cold' out && fail ".cold part shown"

# -l: classic prof's folding.  The static helper's time goes to beta,
# the global before it, its calls are dropped; beta's clone reports
# into beta, time and calls; <unknown> is still no function's.
"$PROF" -l sample > out
cat > want <<'END'
 %Time Seconds Cumsecs  #Calls   msec/call  Name
  63.6    3.50    3.50      15    233.3     alpha, alpha_alias
  29.1    1.60    5.10       6    267.      beta
   4.5    0.25    5.35       3     83.      <unknown>
   1.8    0.10    5.45    1000      0.100   gamma_w
   0.9    0.05    5.50       7      7.      _ZN2ns3fooEi
   0.0    0.00    5.50       1      0.      main
END
expect_file want out
"$PROF" -g -l sample > out2
expect_file out out2
"$PROF" -l -g sample | grep -q ' helper$' || fail "-g after -l hides locals"
"$PROF" -l -s sample 2>&1 > /dev/null | head -n 1 > out
expect_eq "$(cat out)" \
    "    7/9 call counts used (1 in hidden locals, 1 outside functions)" \
    "-l -s"

# -z: zero lines too, with 22 blanks in place of calls.
"$PROF" -z sample > out
expect_eq "$(grep ' _start$' out)" \
    "   0.0    0.00    5.50                      _start" "-z"
expect_eq "$(grep ' orphan.isra.0$' out)" \
    "   0.0    0.00    5.50                      orphan.isra.0" "-z clone"

# -s: the summary, on stderr.
"$PROF" -s sample > out 2> err
cat > want <<'END'
    8/9 call counts used (0 in hidden locals, 1 outside functions)
   15/44 symbols qualified, 8 had zero time and zero call-counts
0x10000 scale factor
  525 ticks in known functions, 25 outside
  550 samples in this report (5.500 s at 100 per second)
    0 samples dropped at saturated bins
    0 samples outside the profiled range
    0 samples lost
  100 samples per second (recorded)
    1 profile summed
END
sed 's|/[0-9]* symbols|/N symbols|' want > want.n
sed 's|/[0-9]* symbols|/N symbols|' err > err.n
expect_file want.n err.n

# -C: one demangled name per row.
"$PROF" -C sample > out
printf '   0.9    0.05    5.50       7      7.      ns::foo(int)\n' > want
grep "ns::foo" out > got
expect_file want got

# -V alone: version line, exit 0.  A bad option: usage, exit 1.
"$PROF" -V 2> err || fail "-V exit status"
grep -q '^prof: monprof [0-9]' err || fail "-V line: $(cat err)"
set +e
"$PROF" -q sample > out 2> err
st=$?
set -e
expect_eq $st 1 "bad option exit status"
cat > want <<'END'
prof: unknown option -q
usage: prof [-ChsVz] [-a | c | n | t]  [-o  |  x]   [-g  |  l]  [-u ms | us | ns]
	[-L | -A func | -G]  [--format=csv | json]  [--gmon=file]
	[--pprof=file]  [--callgrind=file]  [-m mdata] ... [prog [mdata ...]]
END
expect_file want err
set +e
"$PROF" sample -m > out 2> err
st=$?
set -e
expect_eq $st 1 "missing argument exit status"
expect_eq "$(head -n 1 err)" "prof: option -m needs an argument" "-m without file"
