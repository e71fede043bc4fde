#!/bin/sh
# genprog.sh [-d DIR] [-k STEPS] [-n NOPS] NFUNCS [PERFILE] - a C program
# of NFUNCS distinct functions f0 .. f<NFUNCS-1>, never inlined, each a
# chain of STEPS (default 6) pairs of arithmetic statements on volatile
# locals, its constants its own so that no two are alike: about 325
# bytes of text a function at -O1 (x86-64, GCC 12), so that 20,000 of
# them make 6.5 MB of .text.  -n NOPS adds NOPS nop instructions to each
# (1 byte each on x86-64, 4 on arm64), which the assembler makes, not
# the compiler: much text, cheaply (`-k 1 -n 2000 2600`, 5.4 MB of
# .text, compiles in about 4 s where 20,000 plain functions take about a
# minute).
#
# Without -d the program is written to stdout as one file
# (`genprog.sh 20000 > prog.c`); with -d, into DIR as main.c and
# f0.c, f1.c, ..., PERFILE functions each (default 2500), to compile
# file by file in parallel (20,000 plain functions: 8 files, 50 s of
# CPU, about a minute on 2 busy cores; one file takes as long on one
# core, and its memory at once).  Link with -pthread.
#
# The program, run as:
#   prog [N [CALLS [STRIDE]]]
#	calls the N functions f0, f<STRIDE>, f<2*STRIDE>, ... (indices
#	modulo NFUNCS): the j-th of them (j from 0) CALLS * (j + 1) times.
#	Defaults: N 10, CALLS 1, STRIDE NFUNCS / N (spread over the text).
#	So main is called once, f<j*STRIDE> CALLS*(j+1) times and no other
#	f at all (where the N indices are distinct); it prints nothing.
#   prog -t T N [CALLS [PAR]]
#	threads: T threads, PAR at a time (default 4, at most 64: PAR
#	started, then joined, and so on), thread k (from 0) calling the N
#	functions f<(k*N + j) % NFUNCS> for j < N, CALLS times each
#	(default 1), so each f is called CALLS times for each thread that
#	reaches it.
# Every f returns a value that main sums, so nothing is optimised away.
# Exit status 0, 1 if a thread could not be started.
set -eu
dir= steps=6 nops=0
while getopts d:k:n: opt; do
	case $opt in
	d)	dir=$OPTARG ;;
	k)	steps=$OPTARG ;;
	n)	nops=$OPTARG ;;
	*)	exit 2 ;;
	esac
done
shift $((OPTIND - 1))
[ $# -ge 1 ] && [ "$1" -gt 0 ] 2>/dev/null || {
	echo "usage: genprog.sh [-d DIR] [-k STEPS] [-n NOPS] NFUNCS [PERFILE]" >&2
	exit 2
}
n=$1
per=${2:-2500}

# funcs LO HI: the definitions of f<LO> .. f<HI-1>.
funcs() {
	awk -v lo="$1" -v hi="$2" -v steps="$steps" -v nops="$nops" 'BEGIN {
	for (i = lo; i < hi; i++) {
		printf "__attribute__((noinline, noclone)) long\nf%d(long x)\n{\n", i
		printf "\tvolatile long a = x, b = %d, c = %d;\n", i, i * 7 + 3
		for (k = 0; k < steps; k++) {
			m = (i * 31 + k * 17) % 1000 + 1
			if (k % 3 == 0)
				printf "\ta += b * %d; c ^= a >> %d;\n", m, k % 7 + 1
			else if (k % 3 == 1)
				printf "\tb -= c + %d; a ^= b << %d;\n", m, k % 5 + 1
			else
				printf "\tc += a & %d; b += c | %d;\n", m, m + i % 97
		}
		if (nops > 0)
			printf "\t__asm__ volatile(\".rept %d\\n\\tnop\\n\\t.endr\");\n", nops
		printf "\treturn a + b + c;\n}\n\n"
	} }'
}

# decls: the prototypes and the table of every f.
decls() {
	awk -v n="$n" 'BEGIN {
	for (i = 0; i < n; i++)
		printf "long f%d(long);\n", i
	printf "long (*const tab[%d])(long) = {\n", n
	for (i = 0; i < n; i++)
		printf "\tf%d,\n", i
	print "};" }'
}

main_c() {
	cat <<EOT
#include <pthread.h>
#include <stdlib.h>

#define NF	$n

EOT
	decls
	cat <<'EOT'

static volatile long sink;
static long tn, tcalls;

static void *
thread(void *arg)
{
	long k = (long)arg, j, c, s = 0;

	for (j = 0; j < tn; j++)
		for (c = 0; c < tcalls; c++)
			s += tab[(k * tn + j) % NF](c);
	sink += s;
	return NULL;
}

int
main(int argc, char **argv)
{
	long nf = 10, calls = 1, stride, j, c, s = 0, t, par = 4, k, i;
	pthread_t th[64];

	if (argc > 1 && argv[1][0] == '-' && argv[1][1] == 't') {
		t = argc > 2 ? atol(argv[2]) : 1;
		tn = argc > 3 ? atol(argv[3]) : 10;
		tcalls = argc > 4 ? atol(argv[4]) : 1;
		par = argc > 5 ? atol(argv[5]) : 4;
		if (par < 1)
			par = 1;
		if (par > 64)
			par = 64;
		for (k = 0; k < t; k += par) {
			for (i = 0; i < par && k + i < t; i++)
				if (pthread_create(&th[i], NULL, thread,
				    (void *)(k + i)) != 0)
					return 1;
			for (i = 0; i < par && k + i < t; i++)
				pthread_join(th[i], NULL);
		}
		return 0;
	}
	if (argc > 1)
		nf = atol(argv[1]);
	if (argc > 2)
		calls = atol(argv[2]);
	stride = argc > 3 ? atol(argv[3]) : nf > 0 ? NF / nf : 1;
	if (stride < 1)
		stride = 1;
	for (j = 0; j < nf; j++)
		for (c = 0; c < calls * (j + 1); c++)
			s += tab[(j * stride) % NF](c);
	sink = s;
	return 0;
}
EOT
}

if [ -z "$dir" ]; then
	main_c
	funcs 0 "$n"
	exit 0
fi
mkdir -p "$dir"
main_c > "$dir/main.c"
k=0
lo=0
while [ $lo -lt "$n" ]; do
	hi=$((lo + per))
	[ $hi -le "$n" ] || hi=$n
	funcs $lo $hi > "$dir/f$k.c"
	k=$((k + 1))
	lo=$hi
done
