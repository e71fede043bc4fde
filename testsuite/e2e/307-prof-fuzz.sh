# 307-prof-fuzz: the libFuzzer target for prof's mon.out reader, for a few
# seconds from seeds of every shape (good, truncated, garbage).  Needs
# clang; without it this case is skipped.
command -v "${FUZZ_CC:-clang}" > /dev/null 2>&1 ||
    skip "${FUZZ_CC:-clang} not found: fuzzing not run"
. "$E2E/300-prof.subr"
${MAKE:-make} -s -C "$SRCDIR" O="$O" "$O/fuzz/fuzz_monread" ||
    fail "cannot build the fuzzer"
mkdir seeds
sample
standard | "$MKMON" seeds/good
{ standard; echo "truncate 100"; } | "$MKMON" seeds/short
printf 'range 4096 8192\nbins 4\nextra 1\n' | "$MKMON" seeds/odd
printf 'This is not a profile.\n' > seeds/text
"$O/fuzz/fuzz_monread" -max_total_time=${FUZZ_SECONDS:-4} -max_len=4096 \
    -print_final_stats=0 seeds > fuzz.log 2>&1 ||
    { tail -n 30 fuzz.log; fail "fuzzer found a problem"; }
grep -q '^Done [0-9]* runs' fuzz.log || fail "fuzzer did not run: $(tail -n 5 fuzz.log)"
