# zstd: its Meson build (build/meson), static library, zstd -T2 in two
# worker threads.
PKG=libzstd
SYSTEM=Meson
TOOLS="meson ninja"
WORK_PROG=zstd
HOT="ZSTD_RowFindBestMatch_*"

build() {
	meson_build "$1" c "$SRC/build/meson" -Ddefault_library=static \
	    -Dbin_tests=true
}

# The suite less the tests that run for a fixed time (fuzzer 200 s,
# zstream 90 s and 90 s, decodecorpus 30 s) or under valgrind.
check() {
	meson test --no-rebuild --print-errorlogs --num-processes "$JOBS" \
	    test-zstd-fast \
	    test-fullbench-1 test-fullbench-2 test-longmatch \
	    test-invalidDictionaries test-poolTests
}

# Jobs of 1 MiB, so both workers have work.
workload() {
	"$B/programs/zstd" -T2 -B1MiB -12 -c "$DATA/text.8M"
}

# The workers' share of the calls depends on timing, and the main thread
# polls them: only one thread counts the same calls in every run.
workload_1t() {
	"$B/programs/zstd" --single-thread -12 -c "$DATA/text.4M"
}
