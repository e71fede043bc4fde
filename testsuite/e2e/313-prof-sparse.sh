# 313-prof-sparse: a sparse mon.out costs what it holds on disk, not its
# size: a 10 GB profile of 8 KB (39 s and 10.4 GB before) is read in
# under 5 s and 256 MB, its holes as the zeros they are; where the file
# system cannot tell holes, it is refused in one line.  Only there: where
# SEEK_DATA finds a hole (holes.c), the refusal is a failure (prof that
# never asked for the holes refused the file here, and passed).
. "$E2E/300-prof.subr"
sample
standard | "$MKMON" std
"$PROF" sample std > want

# The reference profile, its 1-byte bins running on over 10 GB, one tick
# in the last one (past the text: <unknown>).
size=10737418240
ncells=$(standard | grep -c -e '^cell' -e '^meta')
nbins=$(((size - 24 - 16 * ncells) / 2))
{ standard | sed "s/^range .*/range $LPC $((LPC + nbins))/"
  echo "truncate $size"; } | "$MKMON" mon.out
printf '\001\000' | dd of=mon.out bs=1 seek=$((size - 2)) conv=notrunc \
    2> /dev/null
cat > holes.c <<'EOT'
/* Exit 0 if the file system of argv[1], a hole then data, tells holes. */
#define _GNU_SOURCE
#include <fcntl.h>
#include <unistd.h>

int
main(int argc, char **argv)
{
	int fd = argc > 1 ? open(argv[1], O_RDONLY) : -1;

	return fd >= 0 && lseek(fd, 0, SEEK_DATA) > 0 ? 0 : 1;
}
EOT
"$CC" -o holes holes.c
printf x | dd of=hole bs=1 seek=1048576 2> /dev/null
bounded out err sample
if [ $st = 1 ] && ! ./holes hole; then
	grep -qx "prof: mon.out: sparse file ($size bytes, [0-9]* on disk)" err ||
	    fail "sparse file: $(cat err)"
	exit 0
fi
expect_eq $st 0 "sparse file: exit status"
expect_file /dev/null err
expect_eq "$(grep '<unknown>' out | cut -c7-14)" "    0.26" \
    "sparse file: the tick at its end"
grep -v "<unknown>" want | cut -c7-14,23- > want.rest
grep -v "<unknown>" out | cut -c7-14,23- > out.rest
expect_file want.rest out.rest
