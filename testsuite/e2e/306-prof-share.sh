# 306-prof-share: a bin that overlaps two functions shares its ticks in
# proportion to the bytes each covers; bins of uneven width (range not a
# multiple of the bin count) are stepped exactly.
. "$E2E/300-prof.subr"
sample
b=$(addr beta)
# 10 bytes, 3 bins, bin i = (pc - lpc) * 3 / 10 as the runtime fills
# them: [b-5, b-1) [b-1, b+2) [b+2, b+5).
printf 'meta rate 100\nrange %d %d\nbins 3\nbin 1 30\nbin 2 40\n' \
    $((b - 5)) $((b + 5)) | "$MKMON" mon.out
"$PROF" sample > out
cat > want <<'END'
 %Time Seconds Cumsecs  #Calls   msec/call  Name
  85.7    0.60    0.60                      beta
  14.3    0.10    0.70                      alpha, alpha_alias
END
expect_file want out

# A clone whose base function is gone is a local function like any
# other (binding decides, not the name): shown, but not under -l.
{ echo "range 0 0"; cell orphan.isra.0 9; } | "$MKMON" mon.out
"$PROF" sample > out
expect_eq "$(sed -n 2p out)" \
    '   0.0    0.00    0.00       9      0.      orphan.isra.0' "orphan clone"
"$PROF" -l sample > out 2> /dev/null
! grep -q orphan out || fail "-l shows a local clone"
