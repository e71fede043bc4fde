#!/bin/sh
# deps.sh CC CXX PKG_CONFIG PACKAGE... - check the build dependencies;
# install the missing Debian packages when run as root, otherwise print
# the exact command and fail.
cc=$1 cxx=$2 pkgconfig=$3
shift 3
missing=

have() { command -v "$1" >/dev/null 2>&1; }

have "$cc" || missing="$missing compiler:$cc"
have "$cxx" || missing="$missing c++-compiler:$cxx"
plugdir=$("$cc" -print-file-name=plugin 2>/dev/null)
[ -f "$plugdir/include/gcc-plugin.h" ] || missing="$missing gcc-plugin-headers"
have "$pkgconfig" || missing="$missing pkg-config"
if have "$pkgconfig"; then
	"$pkgconfig" --exists libelf || missing="$missing libelf"
	"$pkgconfig" --exists check || missing="$missing check"
fi
[ -f /usr/include/libiberty/demangle.h ] || missing="$missing libiberty"
have gprof || missing="$missing gprof"

[ -z "$missing" ] && exit 0

echo "monprof: missing build dependencies:$missing" >&2
if [ "$(id -u)" = 0 ] && have apt-get; then
	echo "monprof: installing: apt-get install -y $*" >&2
	DEBIAN_FRONTEND=noninteractive apt-get update -qq >&2 &&
	DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$@" >&2 && exit 0
	echo "monprof: apt-get failed; install these packages: $*" >&2
	exit 1
fi
echo "monprof: run: sudo apt-get install -y $*" >&2
exit 1
