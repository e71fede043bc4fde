# jsoncpp: C++, built by its Meson build (static library, so that gprof
# sees the parser too).
PKG=libjsoncpp
SYSTEM="Meson, C++"
TOOLS="meson ninja python3"
WORK_PROG=jsontestrunner
HOT=_ZNK4Json5Value8CZStringltERKS1_	# Json::Value::CZString::operator<
XFAIL_PG="the -pg hook's slow path, __mon_mcount_arc_next_stub, takes a \
third of the samples: small functions called from many places miss the arc \
cache, and Meson builds the static library -fPIC (b_staticpic), whose call \
sites announce nothing (hook ABI 4, mon.h)"

build() {
	meson_build "$1" cpp "$SRC" -Ddefault_library=static
}

check() {
	meson test --no-rebuild --print-errorlogs --num-processes "$JOBS"
}

# jsontestrunner writes the value tree it parsed (.actual), the document
# it writes back (.rewrite) and the tree of that (.actual-rewrite).
workload() {
	cp "$DATA/json" in.json &&
	"$B/jsontestrunner" in.json &&
	cat in.actual in.rewrite in.actual-rewrite
}
