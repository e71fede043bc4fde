# 219-cmake: the installed CMake package (multiarch LIBDIR, found from
# CMAKE_PREFIX_PATH): monprof_profile(counts) profiles 201-counts
# exactly, monprof_profile(papi PG) with -pg, where monprof::monprof
# gives the header alone (the program has the runtime); an unprofiled
# program linking monprof::monprof needs libmonprof.so.1 and runs by
# its RUNPATH; -DMONPROF=ON profiles every target with no call in the
# project; find_package(monprof 2) is refused.
command -v cmake > /dev/null || skip "no cmake (apt-get install cmake)"
P=$T/inst
L=$P/lib/x86_64-linux-gnu
S=$(sed -n 's/^VERSION[[:space:]]*:=[[:space:]]*\([0-9]*\).*/\1/p' \
    "$SRCDIR/Makefile")
make -s -C "$SRCDIR" O="$O" PREFIX="$P" LIBDIR="$L" install > make.log 2>&1 ||
    { cat make.log; fail "make install"; }
mkdir src
cp "$E2E/201-counts.c" src/counts.c
printf '%s\n' '#include <mon.h>' \
    'int main(void) { return moncontrol(0) != 1 || moncontrol(1) != 0; }' \
    > src/api.c
cat > src/CMakeLists.txt <<'CM'
cmake_minimum_required(VERSION 3.13)
project(tiny C)
if(NOT WANT)
	set(WANT 1.0)
endif()
find_package(monprof ${WANT} REQUIRED)
add_executable(counts counts.c)
add_executable(api api.c)
target_link_libraries(api PRIVATE monprof::monprof)
if(NOT MONPROF)
	monprof_profile(counts)
	add_executable(papi api.c)
	monprof_profile(papi PG)
	target_link_libraries(papi PRIVATE monprof::monprof)
endif()
CM
# build DIR ARGS: configure src into DIR and build it.
build() {
	_b=$1
	shift
	PROFDIR= cmake -S src -B "$_b" -DCMAKE_PREFIX_PATH="$P" "$@" \
	    > "$_b.log" 2>&1 || { cat "$_b.log"; fail "cmake $*"; }
	cmake --build "$_b" >> "$_b.log" 2>&1 ||
	    { cat "$_b.log"; fail "cmake --build $*"; }
}
needs() {
	readelf -d "$1" | grep -q "(NEEDED).*\[libmonprof\.so\.$S\]"
}
# exact DIR: DIR/counts's counts, and DIR/api's profile.
exact() {
	(cd "$1" && ./counts > out && counts ./counts > got) ||
	    fail "$1: counts"
	expect_file "$E2E/201-counts.expect" "$1/got"
}

build fn
exact fn
(cd fn && rm -f mon.out && ./papi) || fail "papi"
[ -f fn/gmon.out ] || fail "papi (-pg) wrote no gmon.out"
expect_eq "$(count_of main fn/papi fn/mon.out)" 1 "papi: calls of main"
needs fn/papi && fail "papi (profiled) needs libmonprof.so.$S"
needs fn/api || fail "api does not need libmonprof.so.$S"
fn/api || fail "api, by its RUNPATH"

build all -DMONPROF=ON
exact all
needs all/api && fail "api under -DMONPROF=ON needs libmonprof.so.$S"
(cd all && rm -f mon.out && ./api) || fail "api under -DMONPROF=ON"
expect_eq "$(count_of main all/api all/mon.out)" 1 \
    "api under -DMONPROF=ON: calls of main"

if PROFDIR= cmake -S src -B two -DCMAKE_PREFIX_PATH="$P" -DWANT=2.0 \
    > two.log 2>&1; then
	fail "find_package(monprof 2.0) accepted $S"
fi
grep -q "compatible with requested version \"2.0\"" two.log ||
    fail "find_package(monprof 2.0): $(cat two.log)"
