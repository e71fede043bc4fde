# 366-merge-fuzz: the libFuzzer target for the runtime's PROFFLAGS
# -merge (testsuite/fuzz/fuzz_merge.c), which reads whatever file PROFDIR
# holds under the merged name inside the program at its exit, for a few
# seconds from seeds of every shape: the target's own process's files,
# a real run's merged mon.out and gmon.out (of another build), cut short.
# Needs clang; without it this case is skipped.
. "$E2E/300-prof.subr"
command -v "${FUZZ_CC:-clang}" > /dev/null 2>&1 ||
    skip "${FUZZ_CC:-clang} not found: fuzzing not run"
${MAKE:-make} -s -C "$SRCDIR" O="$O" "$O/fuzz/fuzz_merge" ||
    fail "cannot build the fuzzer"
mkdir seeds d
FUZZ_MERGE_SEEDS=seeds "$O/fuzz/fuzz_merge" -runs=0 seeds > /dev/null 2>&1 ||
    fail "the target's own files"
mp_cc -pg -O1 -o cg "$E2E/320-prof-callgraph.c"
PROFDIR=d PROFFLAGS=-merge ./cg
PROFDIR=d PROFFLAGS=-merge ./cg
{ printf '\000'; cat d/merged.cg; } > seeds/mon
{ printf '\001'; cat d/merged.cg.gmon; } > seeds/gmon
head -c 100 seeds/mon > seeds/mon-short
head -c 100 seeds/gmon > seeds/gmon-short
fuzz merge 4096
