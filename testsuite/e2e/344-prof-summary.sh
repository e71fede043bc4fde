# 344-prof-summary: -s prints the summary of the reference profile on
# stderr: cells used, symbols, ticks inside and outside the functions,
# samples, the rate and the profiles summed.
. "$E2E/300-prof.subr"
sample
standard | "$MKMON" mon.out

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
