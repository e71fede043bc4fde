# bzip2: a hand-written Makefile that builds only in its source tree.
PKG=bzip2
SYSTEM=Makefile
INTREE=1
WORK_PROG=bzip2
HOT=mainSort
# A quarter of the time is in compressBlock's other work (perf: 75 %).
INCL=BZ2_blockSort

# Not `all`: it would also run the tests, without PROFDIR.
build() {
	make_build "$1" libbz2.a bzip2 bzip2recover
}

check() {
	make check
}

workload() {
	"$B/bzip2" -9 < "$DATA/text.4M"
}
