# 423-many-processes: 50 profiled processes at once, as an unprivileged
# user (nobody, where the tests run as root) under Debian's default
# RLIMIT_MEMLOCK (8 MB) and the machine's perf_event_mlock_kb: each
# locks at most 1 MB of perf rings (charged to the user's allowance,
# then to the process's VmPin, also at most 1 MB), samples by perf, and
# writes a profile whose stacks hold work's samples under main.  Before,
# each process had 8 MB of rings (VmPin 7 MB as root), and so has one
# process run as the user that runs the tests.
mp_cc -p -O2 -g -o a.out "$E2E/423-many-processes.c"
mkdir d
chmod 777 . d
run=sh
if [ "$(id -u)" = 0 ]; then
	command -v setpriv > /dev/null || skip "root without setpriv"
	run="setpriv --reuid=65534 --regid=65534 --clear-groups sh"
fi
cat > many.sh <<'SH'
ulimit -l 8192
i=0
while [ $i -lt 50 ]; do
	PROFDIR=d ./a.out 0.3 > out.$i &
	i=$((i + 1))
done
wait
SH
$run many.sh || fail "the 50 processes: status $?"
n=$(ls d | wc -l)
expect_eq "$n" 50 "profiles"
for f in d/*; do
	case $(meta 4 "$f") in
	1|3)	;;
	2)	skip "perf_event refused to an unprivileged user here" \
		    "(perf_event_paranoid $(cat \
		    /proc/sys/kernel/perf_event_paranoid))" ;;
	*)	fail "$f: sampler $(meta 4 "$f")" ;;
	esac
	expect_eq "$(meta 27 "$f")" 0 "$f: samples whose stack was lost"
	stacks a.out "$f" > folded
	awk '{ n = $NF; all += n } $1 ~ /main;work$/ { w += n }
	    END { exit !(all >= 20 && w >= all * 0.8) }' folded ||
	    { cat folded; fail "$f: work under main"; }
done
for o in out.*; do
	awk '$1 == "rings" { exit !($2 > 0 && $2 <= 1024 && $4 >= 0 &&
	    $4 <= 1024) } END { exit NR != 1 }' "$o" ||
	    fail "$o: $(cat "$o") (kB of rings, kB pinned)"
done
# And as the user the tests run as (root: no allowance limits it).
PROFDIR=. ./a.out 0.1 > own
awk '$1 == "rings" { exit !($2 > 0 && $2 <= 1024 && $4 <= 1024) }' own ||
    fail "as $(id -un): $(cat own) (kB of rings, kB pinned)"
echo "50 processes: $(cat out.* | sort | uniq -c | sort -rn | head -3 | tr -s ' \n' ' ')"
exit 0
