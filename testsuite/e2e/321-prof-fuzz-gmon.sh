# 321-prof-fuzz-gmon: the libFuzzer target for prof's gmon.out reader,
# for a few seconds from seeds of every shape (a real -pg run's file,
# truncated, a bad tag, a basic-block record).  Needs clang; without it
# this case is skipped.
. "$E2E/300-prof.subr"
mkdir seeds
mp_cc -pg -O1 -o cg "$E2E/320-prof-callgraph.c"
./cg
cp gmon.out seeds/good
head -c 100 gmon.out > seeds/short
{ head -c 20 gmon.out; printf '\007'; } > seeds/badtag
{ head -c 20 gmon.out; printf '\002\001\000\000\000'; head -c 16 /dev/zero
  printf '\001'; head -c 20 /dev/zero; } > seeds/bb
fuzz gmonread 4096
