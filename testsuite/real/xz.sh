# xz-utils: autotools + libtool.  The hot code is in liblzma.so, built
# -p too and counted by the executable's runtime; xz -T2 compresses in
# two threads.
PKG=xz-utils
SYSTEM="autotools+libtool"
WORK_PROG=xz
HOT=bt_find_func
XFAIL_GPROF="gmon.out holds only the executable (README)"

build() {
	autotools "$1"
}

check() {
	make -j"$JOBS" check
}

# Blocks of 1 MiB, so both threads have work.
workload() {
	"$B/src/xz/xz" -T2 --block-size=1MiB -6 -c "$DATA/text.4M"
}

# The workers take their input in pieces whose size depends on timing,
# and the main thread polls them: only one thread counts the same calls
# in every run.
workload_1t() {
	"$B/src/xz/xz" -T1 --block-size=1MiB -6 -c "$DATA/text.2M"
}
