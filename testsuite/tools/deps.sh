#!/bin/sh
# deps.sh CC CXX PKG_CONFIG PACKAGE... - check the build dependencies;
# install the missing Debian packages when run as root, otherwise print
# the exact command and fail.  DEPS_INSTALL=1: may install (make deps,
# demo, check); DEPS_TESTS=1: the tools the tests need, not the build;
# of those, the optional ones only skip their tests when missing.
cc=$1 cxx=$2 pkgconfig=$3
shift 3
missing=
optional=

have() { command -v "$1" >/dev/null 2>&1; }

if [ "${DEPS_TESTS:-0}" = 1 ]; then
	have libtool || missing="$missing libtool"
	have go || optional="$optional go"
	have callgrind_annotate || optional="$optional callgrind_annotate"
	have chromium || optional="$optional chromium"
	have xmllint || optional="$optional xmllint"
	have cmake || optional="$optional cmake"
	have meson || optional="$optional meson"
	have ninja || optional="$optional ninja"
else
	have "$cc" || missing="$missing compiler:$cc"
	have "$cxx" || missing="$missing c++-compiler:$cxx"
	plugdir=$("$cc" -print-file-name=plugin 2>/dev/null)
	[ -f "$plugdir/include/gcc-plugin.h" ] ||
	    missing="$missing gcc-plugin-headers"
	have "$pkgconfig" || missing="$missing pkg-config"
	if have "$pkgconfig"; then
		"$pkgconfig" --exists libelf || missing="$missing libelf"
		"$pkgconfig" --exists check || missing="$missing check"
		"$pkgconfig" --exists libdw || missing="$missing libdw"
		"$pkgconfig" --exists libprotobuf-c ||
		    missing="$missing libprotobuf-c"
		"$pkgconfig" --exists zlib || missing="$missing zlib"
	fi
	[ -f /usr/include/libiberty/demangle.h ] ||
	    missing="$missing libiberty"
	have gprof || missing="$missing gprof"
	have protoc-c || missing="$missing protoc-c"
fi

[ -z "$missing$optional" ] && exit 0

echo "monprof: missing dependencies:$missing$optional" >&2
if [ "${DEPS_INSTALL:-0}" = 1 ] && [ "$(id -u)" = 0 ] && have apt-get; then
	echo "monprof: installing: apt-get install -y $*" >&2
	DEBIAN_FRONTEND=noninteractive apt-get update -qq >&2 &&
	DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$@" >&2 && exit 0
	echo "monprof: apt-get failed; install these packages: $*" >&2
else
	echo "monprof: run: sudo apt-get install -y $*" >&2
fi
if [ -z "$missing" ]; then
	echo "monprof: the tests that need$optional will be skipped" >&2
	exit 0
fi
exit 1
