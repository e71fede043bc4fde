# 307-prof-fuzz: the libFuzzer target for prof's mon.out reader, for a few
# seconds from seeds of every shape (good, truncated, garbage, shared
# object records, sparse, call stacks, compact).  Needs clang; without
# it this case is skipped.
. "$E2E/300-prof.subr"
mkdir seeds
sample
standard | "$MKMON" seeds/good
{ standard; echo "truncate 100"; } | "$MKMON" seeds/short
printf 'range 4096 8192\nbins 4\nextra 1\n' | "$MKMON" seeds/odd
printf 'This is not a profile.\n' > seeds/text
{ echo "range 0 0"; echo "object 4096 8192 0 /lib/x.so 0123456789abcdef"
  echo "object 16384 20480 4096 /lib/y.so"; echo "cell 4100 3"; } |
    "$MKMON" seeds/objects
# Stacks: a frame, a stack keeping frames of the one before, a deep one.
{ standard; echo "meta 27 0"; echo "meta 28 $((300 << 8))"
  echo "meta 29 $(($(addr main) + 8))"; echo "meta 29 $(($(addr alpha) + 1))"
  echo "meta 28 $((50 << 8 | 1))"; echo "meta 29 $(($(addr alpha) + 8))"
  echo "meta 29 $(($(addr alpha) + 1))"; echo "meta 28 $((7 << 8 | 2))"
  seq 40 | sed "s/.*/meta 29 $(($(addr beta) + 8))/"; } |
    "$MKMON" seeds/stacks
# Compact (the runtime's default): the good one and the stacks.
{ standard; echo compact; } | "$MKMON" seeds/compact
{ "$MONDUMP" seeds/stacks >/dev/null; standard; echo "meta 28 $((3 << 8))"
  echo "meta 29 $(($(addr main) + 8))"; echo compact; } |
    "$MKMON" seeds/compact-stacks
fuzz monread 4096
