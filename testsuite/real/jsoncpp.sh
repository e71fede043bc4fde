# jsoncpp: C++, built by its Meson build (static library, so that gprof
# sees the parser too).
PKG=libjsoncpp
SYSTEM="Meson, C++"
TOOLS="meson ninja python3"
WORK_PROG=jsontestrunner
HOT=_ZNK4Json5Value8CZStringltERKS1_	# Json::Value::CZString::operator<

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
