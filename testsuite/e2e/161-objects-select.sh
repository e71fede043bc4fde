# 161-objects-select: PROFFLAGS choose whose functions are named: -all
# every object's, -incobj only the named ones' (the executable's time
# then in its row <a.out>), -excobj not the named one's; -stride 0 keeps
# one count per object; every choice still accounts for every sample.
mp_cc -p -O2 -fPIC -shared -o libwork.so "$E2E/160-objects.lib.c"
"$CC" -O2 -fPIC -shared -DNAME=plain -o libplain.so "$E2E/160-objects.lib.c"
mp_cc -p -O2 -o a.out "$E2E/160-objects.c" -L. -lwork -lplain \
    -Wl,-rpath,"$PWD"
# run FLAGS: run with PROFFLAGS=FLAGS; the report in report.
run() {
	PROFFLAGS=$1 ./a.out > out 2> err
	expect_file /dev/null err
	"$PROF" a.out > report 2> err
	expect_file /dev/null err
	"$PROF" -s a.out > /dev/null 2> sum
	expect_eq "$(awk '/samples in this report/ { print $1 }' sum)" \
	    "$(meta 10)" "$1: samples in the report = samples taken"
}
# has NAME: whether NAME's row has time.
has() { awk -v f="$1" '$NF == f && $2 > 0 { y = 1 } END { exit !y }' report; }
# calls NAME: its calls.
calls() { awk -v f="$1" '$NF == f { print $4 }' report; }

run -all
has plain || fail "-all: plain has no time"
has work || fail "-all: work has no time"
has mine || fail "-all: mine has no time"
# Its time is plain's now; only stray samples (its PLT) stay on its row.
awk '$NF == "plain" { p = $2 } $NF == "<libplain.so>" { r = $2 }
    END { exit !(p > 10 * r) }' report ||
    fail "-all: <libplain.so> still has plain's time"

run "-incobj libplain.so"
has plain || fail "-incobj libplain.so: plain has no time"
has '<libwork.so>' || fail "-incobj libplain.so: <libwork.so> has no time"
has '<a.out>' || fail "-incobj libplain.so: <a.out> has no time"
has mine && fail "-incobj libplain.so: mine has time"
expect_eq "$(calls work)" 40 "-incobj: the calls stay"

run "-excobj libwork.so"
has '<libwork.so>' || fail "-excobj libwork.so: <libwork.so> has no time"
has work && fail "-excobj libwork.so: work has time"
has mine || fail "-excobj libwork.so: mine has no time"
expect_eq "$(calls work)" 40 "-excobj: the calls stay"

run "-stride 0"
for r in '<libwork.so>' '<libplain.so>' '<a.out>'; do
	has "$r" || fail "-stride 0: $r has no time"
done
expect_eq "$(meta 18)" 0 "-stride 0: the recorded stride"
expect_eq "$("$MONDUMP" mon.out | awk '$1 == "meta" && ($2 == 21 ||
    $2 == 23)' | wc -l)" 0 "-stride 0: no sample by pc"
expect_eq "$("$MONDUMP" mon.out | awk '$1 == "hdr" { print $5 }')" 1 \
    "-stride 0: one bin for the executable"

run "-stride 2"
expect_eq "$(meta 18)" 2 "-stride 2: the recorded stride"
has work || fail "-stride 2: work has no time"
has mine || fail "-stride 2: mine has no time"

# A value the option cannot take, an unknown option: one line each.
PROFFLAGS="-stride 3 -frobnicate -incobj" ./a.out > out 2> err
cat > want <<'W'
monprof: PROFFLAGS: -stride 3: the stride is 1, 2, 4, 8 or 0, ignored
monprof: PROFFLAGS: -frobnicate: unknown option, ignored
monprof: PROFFLAGS: -incobj: its value is missing, ignored
W
expect_file want err
