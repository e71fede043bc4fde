# gzip: autotools (gnulib, no libtool); its hot code is in the executable.
PKG=gzip
SYSTEM=autotools
WORK_PROG=gzip
HOT=longest_match
# longest_match is most of deflate's time; deflate nearly all of gzip's.
INCL=deflate

build() {
	autotools "$1"
}

check() {
	make -j"$JOBS" check
}

# -n: no name or time stamp in the output.
workload() {
	"$B/gzip" -9 -n < "$DATA/text.8M"
}
