# 317-prof-export: --format=csv and --format=json give the report's rows,
# in its order, with unrounded numbers; names are quoted as each format
# needs, <unknown> has no address or object; names are demangled; a
# profile without stacks has no inclusive times (143 has them); a static
# has its source file in "file", a global null (361 has clashing names).
. "$E2E/300-prof.subr"
sample
standard | "$MKMON" mon.out
hex() { printf '%#x' $(addr "$1"); }

"$PROF" --format=csv sample > out
cat > want <<END
name,address,object,percent,seconds,cumsecs,calls,seconds_per_call,inclusive,file
"alpha, alpha_alias",$(hex alpha),sample,63.6363636,3.5,3.5,15,0.233333333,,
beta,$(hex beta),sample,18.1818182,1,4.5,4,0.25,,
helper,$(hex helper),sample,7.27272727,0.4,4.9,6,0.0666666667,,300-prof.c
<unknown>,,,4.54545455,0.25,5.15,3,0.0833333333,,
beta.constprop.0,$(hex beta.constprop.0),sample,3.63636364,0.2,5.35,2,0.1,,300-prof.c
gamma_w,$(hex gamma_w),sample,1.81818182,0.1,5.45,1000,0.0001,,
ns::foo(int),$(hex _ZN2ns3fooEi),sample,0.909090909,0.05,5.5,7,0.00714285714,,
main,$(hex main),sample,0,0,5.5,1,0,,
END
expect_file want out

# -n orders the rows as it orders the table.
"$PROF" -n --format=csv sample | tail -n +2 | sed 's/,0x.*//; s/,,.*//' > out
"$PROF" -n -h sample | cut -c45- | sed 's/^alpha, alpha_alias$/"&"/' > want
expect_file want out

"$PROF" --format=json sample > out
cat > want <<END
{"program": "sample", "profiles": 1, "rate": 100, "sampler": null, "samples": 550, "total_seconds": 5.5, "rows": [
  {"name": "alpha, alpha_alias", "address": "$(hex alpha)", "object": "sample", "percent": 63.6363636, "seconds": 3.5, "cumsecs": 3.5, "calls": 15, "seconds_per_call": 0.233333333, "inclusive": null, "file": null},
  {"name": "beta", "address": "$(hex beta)", "object": "sample", "percent": 18.1818182, "seconds": 1, "cumsecs": 4.5, "calls": 4, "seconds_per_call": 0.25, "inclusive": null, "file": null},
  {"name": "helper", "address": "$(hex helper)", "object": "sample", "percent": 7.27272727, "seconds": 0.4, "cumsecs": 4.9, "calls": 6, "seconds_per_call": 0.0666666667, "inclusive": null, "file": "300-prof.c"},
  {"name": "<unknown>", "address": null, "object": null, "percent": 4.54545455, "seconds": 0.25, "cumsecs": 5.15, "calls": 3, "seconds_per_call": 0.0833333333, "inclusive": null, "file": null},
  {"name": "beta.constprop.0", "address": "$(hex beta.constprop.0)", "object": "sample", "percent": 3.63636364, "seconds": 0.2, "cumsecs": 5.35, "calls": 2, "seconds_per_call": 0.1, "inclusive": null, "file": "300-prof.c"},
  {"name": "gamma_w", "address": "$(hex gamma_w)", "object": "sample", "percent": 1.81818182, "seconds": 0.1, "cumsecs": 5.45, "calls": 1000, "seconds_per_call": 0.0001, "inclusive": null, "file": null},
  {"name": "ns::foo(int)", "address": "$(hex _ZN2ns3fooEi)", "object": "sample", "percent": 0.909090909, "seconds": 0.05, "cumsecs": 5.5, "calls": 7, "seconds_per_call": 0.00714285714, "inclusive": null, "file": null},
  {"name": "main", "address": "$(hex main)", "object": "sample", "percent": 0, "seconds": 0, "cumsecs": 5.5, "calls": 1, "seconds_per_call": 0, "inclusive": null, "file": null}
]}
END
expect_file want out
if command -v python3 > /dev/null 2>&1; then
	python3 -c 'import json, sys; json.load(sys.stdin)' < out ||
	    fail "JSON does not parse"
fi

bounded out err --format=xml sample
expect_eq $st 1 "--format=xml: exit status"
expect_eq "$(head -n 1 err)" \
    "prof: --format=xml: the format is table, csv or json" "--format=xml"
