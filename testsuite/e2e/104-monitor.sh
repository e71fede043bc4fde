# 104-monitor: monitor() with a user buffer: the file's header is the
# given range at link time, its cells are the calls made until the
# Solaris stop call monitor(0,0,0,0,0) (calls after it are not written,
# not even at exit), its histogram is the buffer's, byte for byte, over
# (hpc - lpc) / 8 bins.
rt_cc -O2 -o a.out "$E2E/104-monitor.c"
PROFFLAGS=-disable_default ./a.out > out.txt
read lo hi nbins < out.txt
bias=$(meta 7)
"$MONDUMP" mon.out > dump
expect_eq "$(awk '$1 == "hdr" { print $2, $3, $5 }' dump)" \
    "$((lo - bias)) $((hi - bias)) $nbins" "header and bins"
expect_eq "$(count_of f)" 5 "f calls until the stop"
expect_eq "$(count_of g)" 1 "g calls"
expect_eq "$(awk '$1 == "cell"' dump | wc -l)" 2 "cells"
grep '^bin' dump > file-hist.txt
expect_file hist.txt file-hist.txt
[ "$(wc -l < hist.txt)" -ge 1 ] || fail "no samples in g"
exit 0
