# 302-prof-sort: prof's sort orders on the reference profile
# (300-prof.subr): -c by calls, -n by name, -a by address, and a later
# sort option overriding an earlier one with classic prof's warning.
. "$E2E/300-prof.subr"
sample
standard | "$MKMON" mon.out

# -c: decreasing calls.
"$PROF" -c sample | awk 'NR > 1 { print $4, $NF }' > out
printf '%s\n' '1000 gamma_w' '15 alpha_alias' '7 ns::foo(int)' '6 helper' \
    '4 beta' '3 <unknown>' '2 beta.constprop.0' '1 main' > want
expect_file want out

# -n: by the name shown (demangled); -a: by address (source order).
"$PROF" -n sample | awk 'NR > 1 { print $NF }' > out
printf '%s\n' '<unknown>' alpha_alias beta beta.constprop.0 gamma_w helper \
    main 'ns::foo(int)' > want
expect_file want out
"$PROF" -a sample | awk 'NR > 1 { print $NF }' > out
printf '%s\n' alpha_alias beta helper beta.constprop.0 gamma_w 'ns::foo(int)' \
    main '<unknown>' > want
expect_file want out

# A later sort option overrides an earlier one, with classic's warning;
# --no-demangle sorts by the symbols.
"$PROF" --no-demangle -c -n sample > out 2> err
expect_eq "$(cat err)" "prof: Warning: n overrides previous specification" \
    "override warning"
expect_eq "$(awk 'NR == 3 { print $NF }' out)" _ZN2ns3fooEi "-c -n sorts by name"
