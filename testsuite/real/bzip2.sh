# bzip2: a hand-written Makefile that builds only in its source tree.
PKG=bzip2
SYSTEM=Makefile
INTREE=1
WORK_PROG=bzip2
HOT=mainSort
# A quarter of the time is in compressBlock's other work (perf: 75 %).
INCL=BZ2_blockSort
# compressStream keeps a 5,000-byte buffer on its stack, so main lies
# beyond an 8 KB copy of the stack's top (24.9 % inclusive in perf's and
# prof's default): both copy 16 KB here.
STACKCOPY=16384

# Not `all`: it would also run the tests, without PROFDIR.
build() {
	make_build "$1" libbz2.a bzip2 bzip2recover
}

check() {
	make check
}

workload() {
	PROFFLAGS="${PROFFLAGS:+$PROFFLAGS }-stackcopy $STACKCOPY" "$B/bzip2" -9 \
	    < "$DATA/text.4M"
}
