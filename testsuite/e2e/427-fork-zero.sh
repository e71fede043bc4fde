# 427-fork-zero: a fork child's profile starts from zero although its
# fork handler no longer zeroes the samples (they go to zero at their
# first use, runtime/self.c): a child that burns CPU has none of the
# parent's samples, in the histogram, outside it (the C library's) or
# their stacks; a child that exits at once writes a profile without a
# sample.  errno stays the program's while the perf helper drains, and
# a main that ends by pthread_exit() ends the process with status 0 and
# its profile.  As the user the tests run as and, for root, as nobody.
# An unprivileged process's helper is a thread glibc does not count
# (runtime/rawthread.c): glibc counts one thread, the kernel two (and
# the fork child's one, until its sampler starts); root's is a pthread.
mp_cc -p -O2 -g -o a.out "$E2E/427-fork-zero.c"
# seconds in the C library (its row, named by prof), and in all
libc() {
	awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
	    { all += $c["seconds"] } $1 ~ /^<libc/ { l += $c["seconds"] }
	    END { printf "%.3f %.3f\n", l, all }' "$1"
}
for u in $(test_users); do
	as=$(as_user "$u")
	user_dir d
	$as env PROFDIR=d ./a.out 0.2 > out 2> err || fail "$u: status $?"
	[ ! -s err ] || fail "$u: stderr: $(cat err)"
	case $(id -u "$u") in
	0)	single=0 ;;
	*)	single=1 ;;
	esac
	expect_file - out <<OUT
parent errno kept single $single threads 2
child errno kept single $single threads 2
OUT
	set -- $(ls d | sed -n 's/\.a\.out$//p' | sort -n)
	expect_eq "$#" 3 "$u: profiles"
	case $(meta 4 "d/$1.a.out") in
	1|3)	;;
	2)	echo "$u: perf_event refused: the timer samples" ;;
	*)	fail "$u: sampler $(meta 4 "d/$1.a.out")" ;;
	esac
	"$PROF" --format=csv a.out "d/$1.a.out" > parent.csv
	"$PROF" --format=csv a.out "d/$2.a.out" > child.csv
	"$PROF" --format=csv a.out "d/$3.a.out" > quick.csv
	set -- $(libc parent.csv) $(libc child.csv) $(libc quick.csv)
	awk -v l="$1" 'BEGIN { exit !(l >= 0.1) }' ||
	    fail "$u: parent: $1 s in the C library of $2 s: $(cat parent.csv)"
	# The parent's 0.4 s in the C library, had the child kept them;
	# the child's own there are its exit's, and timer periods counted
	# where a SIGPROF held while its fork handler ran came (up to 10
	# ms each under load).
	awk -v l="$3" -v a="$4" 'BEGIN { exit !(l <= 0.05 && a >= 0.1 && a <= 0.6) }' ||
	    fail "$u: child: $3 s in the C library of $4 s: $(cat child.csv)"
	awk -v a="$6" 'BEGIN { exit !(a == 0) }' ||
	    fail "$u: a child that exits at once: $6 s: $(cat quick.csv)"
	set -- $(ls d | sed -n 's/\.a\.out$//p' | sort -n)
	stacks a.out "d/$2.a.out" > folded
	grep in_libc folded && fail "$u: the child has the parent's stacks"
	awk '{ n = $NF; all += n } $1 ~ /main;(report;)?work$/ { w += n }
	    END { exit !(all >= 50 && w >= all * 0.8) }' folded ||
	    { cat folded; fail "$u: the child's work under main"; }
	[ -z "$(stacks a.out "d/$3.a.out")" ] ||
	    fail "$u: a child that exits at once has stacks"
done
exit 0
