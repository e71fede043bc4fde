# 310-prof-fuzz-elf: the libFuzzer target for prof's ELF symbol reader
# (as the executable and as a shared object a profile names), for a few
# seconds from seeds of every shape: an executable, a shared object (both
# with line tables, DWARF 5 and 4), an executable with inlined code, and
# small hostile tables.  Needs clang; without it this case is skipped.
. "$E2E/300-prof.subr"
mkdir seeds
"$CC" -O0 -g -o seeds/exe "$E2E/300-prof.c"
"$CC" -O0 -gdwarf-4 -shared -fPIC -o seeds/lib.so "$E2E/300-prof.c"
"$CC" -O2 -g -o seeds/inl "$E2E/354-prof-pprof-inline.c"
"$MKELF" -n 4 seeds/small
"$MKELF" -n 4 -t 16 seeds/nonul
"$MKELF" -n 4 -b seeds/be
fuzz symtab 32768 -close_fd_mask=2
