# 305-prof-identity: a profile of another executable is refused (build-id
# recorded and different, or no cell maps); a profile without a rate
# uses sysconf(_SC_CLK_TCK); one without call counts still gets its time
# profile; one with neither says so.
. "$E2E/300-prof.subr"
sample

# refused WHAT EXPECTED-STDERR: prof sample on mon.out must fail so.
refused() {
	set +e
	"$PROF" sample > out 2> err
	st=$?
	set -e
	expect_eq "$st" 1 "$1: exit status"
	expect_eq "$(cat err)" "$2" "$1: message"
}

# The right build-id is accepted.
{ standard; echo "buildid $(buildid)"; } | "$MKMON" mon.out
"$PROF" sample > out || fail "matching build-id refused"
expect_eq "$(sed -n 2p out)" \
    '  63.6    3.50    3.50      15    233.3     alpha, alpha_alias' "build-id ok"

# A recorded 0 means the runtime found none: not checked.
{ standard; echo "buildid 0000000000000000"; } | "$MKMON" mon.out
"$PROF" sample > /dev/null || fail "build-id 0 refused"

{ standard; echo "buildid 0123456789abcdef"; } | "$MKMON" mon.out
refused "build-id" "prof: mon.out: profile of another executable (build-id 0123456789abcdef, sample has $(buildid | cut -c1-16)): it was rebuilt after the profile was written; rerun it, or name the binary that ran"

printf 'range 4096 8192\nbins 8\nbin 1 5\ncell 9437184 5\n' | "$MKMON" mon.out
refused "no cell maps" \
    "prof: mon.out: profile of another executable (no call count maps into sample): name the program that wrote it: prof PROG FILE"

printf 'range 9437184 9441280\nbins 8\nbin 1 5\n' | "$MKMON" mon.out
refused "no tick maps" \
    "prof: mon.out: profile of another executable (no sample falls in sample): name the program that wrote it: prof PROG FILE"

# No rate recorded: ticks are sysconf(_SC_CLK_TCK) per second.
hz=$(getconf CLK_TCK)
standard none | "$MKMON" mon.out
"$PROF" sample > out
expect_eq "$(sed -n 2p out | cut -c1-22)" \
    "$(awk -v hz=$hz 'BEGIN { printf "%6.1f%8.2f%8.2f", 63.6, 350 / hz, 350 / hz }')" \
    "CLK_TCK fallback"

# No call counts at all: classic prof printed nothing; we print the time.
standard | grep -v '^cell' | "$MKMON" mon.out
"$PROF" sample > out 2> err
expect_file /dev/null err
expect_eq "$(sed -n 2p out)" \
    '  63.6    3.50    3.50                      alpha, alpha_alias' "no calls"

# Neither calls nor samples: a warning and an empty report, status 0.
printf 'meta magic ok\nmeta rate 100\n' | "$MKMON" mon.out
"$PROF" sample > out 2> err
expect_eq "$(cat err)" "prof: mon.out: no call counts and no samples captured: build with gcc -specs=monprof.specs -p, and run long enough to be sampled" \
    "empty profile"
expect_eq "$(cat out)" " %Time Seconds Cumsecs  #Calls   msec/call  Name" \
    "empty profile report"

# A count-only profile (no histogram, lpc = hpc) is valid.
{ echo "range 0 0"; cell beta 3; } | "$MKMON" mon.out
"$PROF" sample > out
expect_eq "$(sed -n 2p out)" \
    '   0.0    0.00    0.00       3      0.      beta' "count-only"

# Saturation and lost samples show in the summary.
{ standard; echo "meta saturated 7"; echo "meta lost 3"; echo "meta outside 2"; } |
    "$MKMON" mon.out
"$PROF" -s sample > out 2> err
grep -qx '    7 samples dropped at saturated bins' err || fail "saturated: $(cat err)"
grep -qx '    3 samples lost' err || fail "lost"
grep -qx '    2 samples outside the profiled range' err || fail "outside"
# ... and, without -s, as warnings.
"$PROF" sample > out 2> err
cat > want <<'END'
prof: mon.out: 7 samples dropped at full bins: times are low; a lower PROFFLAGS=-rate keeps them
prof: mon.out: 3 samples lost by the kernel: times are low by as much; the sampler did not drain them in time (a loaded machine): rerun with less beside it, or a lower PROFFLAGS=-rate
END
expect_file want err
