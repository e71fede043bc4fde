# jsoncpp: C++, built by its Meson build (static library, so that gprof
# sees the parser too).
PKG=libjsoncpp
SYSTEM="Meson, C++"
TOOLS="meson ninja python3"
WORK_PROG=jsontestrunner
HOT=_ZNK4Json5Value8CZStringltERKS1_	# Json::Value::CZString::operator<
# Json::Value::type(), a few instructions called 40 million times, is
# twice as long with -pg's call to mcount in its body: 0.25 s against
# CZString::operator<'s 0.18 s, in prof and in gprof (0.13 s under -p).
# Until a CI run beside other jobs put them apart, they were within
# sampling noise of each other, the order varying with the load.
HOT_PG=_ZNK4Json5Value4typeEv	# Json::Value::type() const

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
