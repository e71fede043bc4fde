# 353-prof-flame: the flame graph (prof/flame.c) as a browser shows it.
# xmllint, where present, finds the SVG well formed; headless Chromium
# opens it and runs its script, and the document it dumps has every
# frame, a hostile name as text and not as markup, zooming (?z=N) that
# stretches the frame to the full width and hides what is beside it,
# and searching (?s=RE) that colours the matches and shows their share.
# Skipped without chromium (Debian's chromium package).
#
# The SVG comes from 353-prof-flame.c, which hands flame_svg() the
# stacks below (a hostile name among them, which no profile of ours
# would give); prof --flame on a real profile is 143's.
[ -f "$O/obj/prof/flame.o" ] || fail "$O/obj/prof/flame.o not built"
"$CC" -std=gnu11 -D_GNU_SOURCE -I"$SRCDIR/include" -I"$SRCDIR/prof" \
    -I/usr/include/libiberty -o flame "$E2E/353-prof-flame.c" \
    "$O/obj/prof/flame.o" "$O/obj/prof/names.o" -liberty -lm ||
    fail "cannot build the driver"
hostile="</text><script>document.documentElement.setAttribute('owned', 'yes')</script>"
cat > stacks <<EOF
main;outer;middle;hot 6
main;outer;middle 1
main;outer;cold 0.5
main;parse 0.2
main 0.3
start_thread;worker;hot 3
main;$hostile 0.4
EOF
./flame "app <test> & co" < stacks > app.svg || fail "flame_svg failed"
if command -v xmllint > /dev/null 2>&1; then
	xmllint --noout --nonet app.svg || fail "not well-formed XML"
fi

chromium=
for c in chromium chromium-browser google-chrome; do
	if command -v "$c" > /dev/null 2>&1; then
		chromium=$c
		break
	fi
done
[ -n "$chromium" ] ||
    skip "chromium not found (Debian package chromium): SVG not rendered"

# dom URL: the document as Chromium has it after the script ran.
dom() {
	timeout 120 "$chromium" --headless --no-sandbox --disable-gpu \
	    --user-data-dir="$T/chromium" --dump-dom "$1" 2>> chromium.err
}

printf '<svg xmlns="http://www.w3.org/2000/svg"><text>up</text></svg>\n' \
    > up.svg
dom "file://$T/up.svg" | grep -q '<text>up</text>' ||
    skip "$chromium does not run here: $(tail -n 1 chromium.err)"

# frame DOC NAME: the line of the frame whose tooltip names NAME (the
# first one).
frame() {
	grep -F "<title>$2 (" "$1" | head -n 1
}

# attr LINE ATTR: the value of ATTR of the frame LINE's box.
attr() {
	printf '%s\n' "$1" | sed -n "s/.*<rect[^>]* $2=\"\([^\"]*\)\".*/\1/p"
}

# As it opens: every frame, the root's share, and the names as text.
dom "file://$T/app.svg" > open.dom
[ -s open.dom ] || fail "chromium dumped nothing: $(tail -n 1 chromium.err)"
for n in all main outer middle hot cold parse start_thread worker; do
	frame open.dom "$n" | grep -q . || fail "no frame $n"
done
expect_eq "$(grep -c '<g class="f"' open.dom)" 11 "frames"
frame open.dom all | grep -q '<title>all (11.40 s, 100.00%)' ||
    fail "the root: $(frame open.dom all)"
grep -q 'function zoom(' open.dom || fail "no zoom function"
grep -q 'owned=' open.dom && fail "a name was taken for markup"
expect_eq "$(grep -c '<script' open.dom)" 1 "scripts"
grep -q '&lt;/text&gt;&lt;script&gt;document' open.dom ||
    fail "the hostile name is not in the tooltip as text"
grep -q '>app &lt;test&gt; &amp; co</text>' open.dom || fail "the title"

# Zoomed into middle (the Nth frame of the file), hot searched.
z=$(grep '<g class="f"' app.svg | grep -n -F '<title>middle (' |
    cut -d: -f1)
dom "file://$T/app.svg?z=$((z - 1))&s=%5Ehot%24" > zoom.dom
m=$(frame zoom.dom middle)
expect_eq "$(attr "$m" x) $(attr "$m" width)" "10.00 1180.00" "middle zoomed"
m=$(frame zoom.dom hot)
expect_eq "$(attr "$m" width)" "1011.43" "hot under middle, 6 s of 7"
expect_eq "$(attr "$m" fill)" "rgb(230,0,230)" "hot searched"
frame zoom.dom hot | grep -q 'display: none' && fail "hot hidden"
frame zoom.dom cold | grep -q 'display: none' || fail "cold shown"
frame zoom.dom parse | grep -q 'display: none' || fail "parse shown"
frame zoom.dom worker | grep -q 'display: none' || fail "worker shown"
frame zoom.dom main | grep -q 'opacity: 0.5' || fail "main not dimmed"
grep -q 'id="unzoom" [^>]*opacity: 1' zoom.dom || fail "no Reset Zoom"
grep -q '>Matched: 78.95%</text>' zoom.dom ||
    fail "matched: $(grep 'id="matched"' zoom.dom)"
