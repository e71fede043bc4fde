# 358-prof-filter: -f REGEX (POSIX extended) keeps the functions whose
# shown or symbol name matches, in the report, CSV, JSON, -G, the flame
# graph, pprof and callgrind; %Time stays a share of the whole profile.  A bad regex
# gets one line and exit 1, prof's status for a bad command line.
. "$E2E/300-prof.subr"
sample
frame() { echo "meta 29 $(($(addr "$1") + 8))"; }
leaf() { echo "meta 29 $(($(addr "$1") + 1))"; }
{ standard; echo "meta 27 0"; echo "meta 28 $((300 << 8))"; frame main;
    leaf alpha; echo "meta 28 $((100 << 8))"; frame main; leaf beta; } |
    "$MKMON" mon.out
"$PROF" -f '^(alpha|beta)$' sample > out 2> err
expect_file /dev/null err
cat > want <<'END'
 %Time Seconds Cumsecs  #Calls   msec/call  Name
  63.6    3.50    3.50      15    233.3     alpha, alpha_alias
  18.2    1.00    4.50       4    250.      beta
END
expect_file want out
# The shown name or the symbol: ns::foo(int) both ways.
"$PROF" -h -f 'ns::foo' sample | awk '{ print $NF }' > out
"$PROF" -h -f '_ZN2ns' sample | awk '{ print $NF }' >> out
printf '%s\n' 'ns::foo(int)' 'ns::foo(int)' > want
expect_file want out
"$PROF" --format=csv -f '^beta' sample | cut -d, -f1,4 > out
printf '%s\n' name,percent beta,18.1818182 beta.constprop.0,3.63636364 > want
expect_file want out
"$PROF" --format=json -f 'gamma' sample | grep -c '"name"' > out
expect_eq "$(cat out)" 1 "JSON rows"
# -G: only the nodes named, their callers still shown.
"$PROF" -G -f '^beta$' sample | grep -v '^ ' | grep -v '^$' > out
expect_eq "$(cat out)" "beta: 4 calls, 1.00 s (18.2%), 1.00 s inclusive (18.2%)" \
    "-G nodes"
# The flame graph: the stacks through beta, whole.
"$PROF" -f '^beta$' --flame=f.svg sample > /dev/null
grep -c '<title>main (1.00 s' f.svg > out || true
grep -c '<title>alpha' f.svg >> out || true
printf '1\n0\n' > want
expect_file want out
# pprof, as its own -focus: the samples whose stack passes through beta,
# whole; the others' samples, calls and names leave the file.
"$PROF" -f '^beta$' --pprof=p.pb.gz sample > /dev/null
gzip -dc p.pb.gz > p.pb
for f in beta main alpha helper gamma_w; do
	if grep -aq "$f" p.pb; then echo "$f 1"; else echo "$f 0"; fi
done > out
printf '%s\n' 'beta 1' 'main 1' 'alpha 0' 'helper 0' 'gamma_w 0' > want
expect_file want out
if command -v go > /dev/null 2>&1 && go tool pprof -h > /dev/null 2>&1; then
	go tool pprof -top -sample_index=cpu p.pb.gz 2> /dev/null |
	    awk '$NF == "beta" || $NF == "main" { print $NF, $1, $4 }' > out
	printf '%s\n' 'beta 1s 1s' 'main 0 1s' > want
	expect_file want out
fi
# callgrind: beta's record whole; main keeps only its call to beta (so
# beta's inclusive time stays), none of its own; alpha has no record.
"$PROF" -f '^beta$' --callgrind=cg.out sample > /dev/null
sed -n '/^fn=/,$p' cg.out > out
cat > want <<'END'
fn=(1) beta
0 1000000000 4

ob=(1)
fl=(1)
fn=(2) main
cfn=(1)
calls=1 0
0 1000000000 0

totals: 1000000000 4
END
expect_file want out

set +e
"$PROF" -f 'a(' sample > out 2> err
st=$?
set -e
expect_eq $st 1 "bad regex: exit status"
expect_eq "$(cat err)" "prof: -f a(: Unmatched ( or \\(: give a POSIX extended regular expression, as grep -E takes" \
    "bad regex"
expect_file /dev/null out
