# json-c: CMake.  Built static (-DBUILD_SHARED_LIBS=OFF), as profiling
# users link, so that gprof sees the parser too; its hash tables take a
# fixed seed (its documented OVERRIDE_GET_RANDOM_SEED), or the calls of
# the workload would differ from run to run.
PKG=json-c
SYSTEM=CMake
TOOLS=cmake
WORK_PROG=json_parse
HOT=json_tokener_parse_ex

build() {
	cmake_build "$1" C -DBUILD_SHARED_LIBS=OFF \
	    -DOVERRIDE_GET_RANDOM_SEED="return 7"
}

check() {
	ctest -j"$JOBS" --output-on-failure
}

# json_parse reports its peak RSS, which profiling changes: not output.
workload() {
	"$B/apps/json_parse" -f "$DATA/json" > parse.out &&
	grep -v '^maxrss:' parse.out
}
