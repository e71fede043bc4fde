/* SPDX-License-Identifier: MIT */
/*
 * flame.c - a flame graph of sampled stacks as one self-contained SVG:
 * the stacks merged into a tree of frames (each caller's callees once,
 * in name order, as flamegraph.pl draws them), each frame as wide as
 * its time, the root at the bottom.  A script in the file zooms into a
 * frame when it is clicked and searches the names, so that a browser
 * is all a user needs: the file loads nothing.
 *
 * Names come from binaries and may hold anything.  Each is written in
 * the printable form of every output (names.c), then escaped for XML;
 * the script sets text only through textContent, never as markup.
 */
#include <err.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>

#include "views.h"

/*
 * The picture, in pixels, readable at its natural width: margins of
 * XPAD, the title, Reset Zoom and the search box in TOP, the hovered
 * frame and the matched share in BOTTOM; a frame FRAME high with its
 * gap, its text FONT high, a character CHAR wide on average.
 */
#define FLAME_WIDTH	1200
#define FLAME_XPAD	10
#define FLAME_TOP	52
#define FLAME_BOTTOM	34
#define FLAME_FRAME	16
#define FLAME_FONT	12
#define FLAME_CHAR	(FLAME_FONT * 0.59)

/*
 * A frame narrower than this share of the total is left out, with all
 * it calls: at 1200 pixels it would be about one pixel wide, which no
 * one can read or click, and it would still cost a line of the file.
 * So a level holds at most a thousand frames, and a deep program's
 * graph stays small; zooming shows none of them again (flamegraph.pl
 * leaves out what is under 0.1 pixel, for the same reason).
 */
#define FLAME_MIN	0.001

/*
 * A frame: one name under one caller, and the time of the stacks
 * through it.  child is its first callee, next its next sibling (0:
 * none, as frame 0 is no one's callee).
 */
struct frame {
	const char	*name;
	double		 value;	/* seconds, its callees' too */
	double		 x;	/* seconds left of it, at its depth */
	size_t		 parent, child, next;
	size_t		 depth;	/* 0: the root, every stack */
};

/*
 * The frames, frame 0 the root; each after its caller.  The hash table
 * finds a frame by its caller and name (frame + 1 in a slot, 0 free).
 */
struct tree {
	struct frame	*f;
	size_t		 n, cap;
	size_t		*slot;
	size_t		 nslot;
};

/* FNV-1a of NAME, from its caller's index. */
static size_t
hash(size_t parent, const char *name)
{
	uint64_t h = 14695981039346656037ULL ^ parent;
	const unsigned char *c;

	for (c = (const unsigned char *)name; *c != '\0'; c++)
		h = (h ^ *c) * 1099511628211ULL;
	return (size_t)(h ^ h >> 32);
}

/* Room for one more frame in the hash table, at most half full. */
static void
rehash(struct tree *t)
{
	size_t i, j, mask;

	if (2 * (t->n + 1) <= t->nslot)
		return;
	free(t->slot);
	t->nslot = t->nslot ? 2 * t->nslot : 1024;
	if ((t->slot = calloc(t->nslot, sizeof(*t->slot))) == NULL)
		err(1, NULL);
	mask = t->nslot - 1;
	for (i = 1; i < t->n; i++) {
		j = hash(t->f[i].parent, t->f[i].name) & mask;
		while (t->slot[j] != 0)
			j = (j + 1) & mask;
		t->slot[j] = i + 1;
	}
}

/* The callee NAME of frame PARENT, added if it is new. */
static size_t
callee(struct tree *t, size_t parent, const char *name)
{
	struct frame *f;
	size_t j, mask;

	rehash(t);
	mask = t->nslot - 1;
	for (j = hash(parent, name) & mask; t->slot[j] != 0;
	    j = (j + 1) & mask) {
		f = &t->f[t->slot[j] - 1];
		if (f->parent == parent && strcmp(f->name, name) == 0)
			return t->slot[j] - 1;
	}
	if (prof_grow(&t->f, &t->cap, t->n + 1, sizeof(*t->f)) != 0)
		err(1, NULL);
	f = &t->f[t->n];
	memset(f, 0, sizeof(*f));
	f->name = name;
	f->parent = parent;
	f->depth = t->f[parent].depth + 1;
	f->next = t->f[parent].child;
	t->f[parent].child = t->n;
	t->slot[j] = ++t->n;
	return t->n - 1;
}

static int
byname(const void *a, const void *b, void *arg)
{
	const struct tree *t = arg;

	return strcmp(t->f[*(const size_t *)a].name,
	    t->f[*(const size_t *)b].name);
}

/*
 * Each frame's callees in name order, and where each begins: after its
 * elder siblings, from its caller's left edge.  A caller comes before
 * its callees, so one pass in frame order places them all.
 */
static void
layout(struct tree *t)
{
	size_t i, c, k, nk, cap = 0, *kid = NULL;
	double x;

	for (i = 0; i < t->n; i++) {
		for (nk = 0, c = t->f[i].child; c != 0; c = t->f[c].next) {
			if (prof_grow(&kid, &cap, nk + 1, sizeof(*kid)) != 0)
				err(1, NULL);
			kid[nk++] = c;
		}
		if (nk == 0)
			continue;
		qsort_r(kid, nk, sizeof(*kid), byname, t);
		t->f[i].child = kid[0];
		for (k = 0, x = t->f[i].x; k < nk; k++) {
			t->f[kid[k]].next = k + 1 < nk ? kid[k + 1] : 0;
			t->f[kid[k]].x = x;
			x += t->f[kid[k]].value;
		}
	}
	free(kid);
}

/*
 * The frame after I in preorder (callers before callees, siblings in
 * order), without I's callees if SKIP; 0 after the last.  No stack: a
 * deep tree costs nothing.
 */
static size_t
following(const struct tree *t, size_t i, int skip)
{
	if (!skip && t->f[i].child != 0)
		return t->f[i].child;
	while (i != 0 && t->f[i].next == 0)
		i = t->f[i].parent;
	return i != 0 ? t->f[i].next : 0;
}

/*
 * NAME as the SVG shows it, malloc'd: its printable form (names.c),
 * in which U+FFFE and U+FFFF are written as bytes too, since XML has
 * no such characters.
 */
static char *
label(const char *name)
{
	char *s = names_text(name), *p, *q;
	size_t n;

	while ((p = strstr(s, "\xef\xbf\xbe")) != NULL ||
	    (p = strstr(s, "\xef\xbf\xbf")) != NULL) {
		n = strlen(s);
		if ((q = malloc(n + 10)) == NULL)
			err(1, NULL);
		memcpy(q, s, (size_t)(p - s));
		sprintf(q + (p - s), "\\xef\\xbf\\x%02x%s",
		    (unsigned char)p[2], p + 3);
		free(s);
		s = q;
	}
	return s;
}

/* LEN bytes of S escaped for XML text and attribute values. */
static void
xml(FILE *fp, const char *s, size_t len)
{
	static const char *const entity[0x80] = {
		['&'] = "&amp;", ['<'] = "&lt;", ['>'] = "&gt;",
		['"'] = "&quot;", ['\''] = "&apos;",
	};
	unsigned char c;
	size_t i;

	for (i = 0; i < len; i++)
		if ((c = (unsigned char)s[i]) < 0x80 && entity[c] != NULL)
			fputs(entity[c], fp);
		else
			fputc(c, fp);
}

/*
 * The bytes of S's first N characters (UTF-8: S is a label, whole
 * characters), or of all of S if it has fewer.
 */
static size_t
prefix(const char *s, size_t n)
{
	size_t i;

	for (i = 0; s[i] != '\0'; i++)
		if (((unsigned char)s[i] & 0xc0) != 0x80 && n-- == 0)
			break;
	return i;
}

/* A warm colour (flamegraph.pl's hot) from NAME, the same in any graph. */
static void
colour(FILE *fp, const char *name)
{
	size_t h = hash(0, name);

	fprintf(fp, "rgb(%u,%u,%u)", 205 + (unsigned)(h % 50),
	    (unsigned)(h >> 8 & 0xffff) % 230, (unsigned)(h >> 24 & 0xff) % 55);
}

/* Seconds, with three significant digits below 1 s. */
static void
secs(FILE *fp, double s)
{
	fprintf(fp, s >= 1 ? "%.2f s" : "%#.3g s", s);
}

/*
 * Frame I: a group of its tooltip, its box and its name, cut with ".."
 * to what fits (the script fits it again with the font's real widths).
 */
static void
frame(FILE *fp, const struct tree *t, size_t i, size_t height, double scale)
{
	const struct frame *f = &t->f[i];
	double x = FLAME_XPAD + f->x * scale, w = f->value * scale;
	size_t y = height - FLAME_BOTTOM - (f->depth + 1) * FLAME_FRAME;
	size_t fit = (size_t)(w / FLAME_CHAR), len;
	char *s = label(i == 0 ? "all" : f->name);

	fputs("<g class=\"f\"><title>", fp);
	xml(fp, s, strlen(s));
	fputs(" (", fp);
	secs(fp, f->value);
	fprintf(fp, ", %.2f%%)</title><rect x=\"%.2f\" y=\"%zu\" "
	    "width=\"%.2f\" height=\"%d\" fill=\"",
	    100 * f->value / t->f[0].value, x, y, w, FLAME_FRAME - 1);
	colour(fp, i == 0 ? "all" : f->name);
	fprintf(fp, "\" rx=\"2\" ry=\"2\"/><text x=\"%.2f\" y=\"%.1f\">",
	    x + 3, y + FLAME_FRAME / 2 + 2.5);
	if (fit >= 3) {
		len = prefix(s, fit);
		if (s[len] != '\0') {
			xml(fp, s, prefix(s, fit - 2));
			fputs("..", fp);
		} else
			xml(fp, s, len);
	}
	fputs("</text></g>\n", fp);
	free(s);
}

/*
 * The interactive part.  Frames are found by their boxes: a click
 * zooms into one (its callers stretched under it, half shown; what is
 * beside it hidden), Reset Zoom undoes it; the search box takes a
 * regular expression, colours the frames whose names match and shows
 * the share of the total they cover (a matching callee of a matching
 * frame is not counted twice).  ?s=REGEX&z=N in the address searches
 * and zooms into the Nth frame as the file opens.
 */
static const char script[] =
"'use strict';\n"
"var fr = [], zoomed = -1, term = '', details, matched, unzoombtn, box;\n"
"function num(e, a) { return parseFloat(e.getAttribute(a)); }\n"
"function place(f, x, w) {\n"
"  f.r.setAttribute('x', x.toFixed(2));\n"
"  f.r.setAttribute('width', w.toFixed(2));\n"
"  f.t.setAttribute('x', (x + 3).toFixed(2));\n"
"}\n"
"function fit(f) {\n"
"  var w = num(f.r, 'width') - 6, s = f.name, lo = 0, hi, mid;\n"
"  f.t.textContent = s;\n"
"  if (s.length === 0 || w <= 0) { f.t.textContent = ''; return; }\n"
"  if (f.t.getComputedTextLength() <= w) return;\n"
"  w -= f.t.getSubStringLength(0, 1);\n"
"  for (hi = s.length - 1; lo < hi; ) {\n"
"    mid = (lo + hi + 1) >> 1;\n"
"    if (f.t.getSubStringLength(0, mid) <= w) lo = mid; else hi = mid - 1;\n"
"  }\n"
"  if (lo > 0 && /[\\ud800-\\udbff]/.test(s.charAt(lo - 1))) lo--;\n"
"  f.t.textContent = lo > 0 ? s.substring(0, lo) + '..' : '';\n"
"}\n"
"function address() {\n"
"  var q = [];\n"
"  if (term !== '') q.push('s=' + encodeURIComponent(term));\n"
"  if (zoomed >= 0) q.push('z=' + zoomed);\n"
"  try {\n"
"    history.replaceState(null, '', location.pathname +\n"
"        (q.length ? '?' + q.join('&') : ''));\n"
"  } catch (e) { }\n"
"}\n"
"function zoom(k) {\n"
"  var z = fr[k], all = fr[0], r = all.w / z.w, i, f, show, eps = 0.02;\n"
"  for (i = 0; i < fr.length; i++) {\n"
"    f = fr[i];\n"
"    if (f.y > z.y) {\n"
"      show = f.x <= z.x + eps && f.x + f.w + eps >= z.x + z.w;\n"
"      if (show) place(f, all.x, all.w);\n"
"      f.g.style.opacity = '0.5';\n"
"    } else {\n"
"      show = f.x >= z.x - eps && f.x < z.x + z.w - eps;\n"
"      if (show) place(f, all.x + (f.x - z.x) * r, f.w * r);\n"
"      f.g.style.opacity = '';\n"
"    }\n"
"    f.g.style.display = show ? '' : 'none';\n"
"    if (show) fit(f);\n"
"  }\n"
"  zoomed = k > 0 ? k : -1;\n"
"  unzoombtn.style.opacity = k > 0 ? '1' : '0';\n"
"  address();\n"
"}\n"
"function unzoom() { zoom(0); }\n"
"function search(s) {\n"
"  var re, i, f, hit = [], sum = 0, end = -1;\n"
"  term = s;\n"
"  try {\n"
"    re = new RegExp(s);\n"
"  } catch (e) {\n"
"    re = new RegExp(s.replace(/[.*+?^${}()|[\\]\\\\]/g, '\\\\$&'));\n"
"  }\n"
"  for (i = 1; i < fr.length; i++) {\n"
"    f = fr[i];\n"
"    if (s !== '' && re.test(f.name)) {\n"
"      f.r.setAttribute('fill', 'rgb(230,0,230)');\n"
"      hit.push(f);\n"
"    } else\n"
"      f.r.setAttribute('fill', f.fill);\n"
"  }\n"
"  hit.sort(function (a, b) { return a.x - b.x || b.w - a.w; });\n"
"  for (i = 0; i < hit.length; i++)\n"
"    if (hit[i].x >= end - 0.02) {\n"
"      sum += hit[i].w;\n"
"      end = hit[i].x + hit[i].w;\n"
"    }\n"
"  matched.textContent = s === '' ? '' :\n"
"      'Matched: ' + (100 * sum / fr[0].w).toFixed(2) + '%';\n"
"  address();\n"
"}\n"
"function frameof(e) {\n"
"  var g = e.target.closest('g.f');\n"
"  return g === null ? -1 : g.frame;\n"
"}\n"
"window.addEventListener('load', function () {\n"
"  var gs = document.querySelectorAll('g.f'), frames, i, g, title, p, q;\n"
"  details = document.getElementById('details');\n"
"  matched = document.getElementById('matched');\n"
"  unzoombtn = document.getElementById('unzoom');\n"
"  box = document.getElementById('search');\n"
"  frames = document.getElementById('frames');\n"
"  for (i = 0; i < gs.length; i++) {\n"
"    g = gs[i];\n"
"    g.frame = i;\n"
"    title = g.querySelector('title').textContent;\n"
"    fr.push({ g: g, r: g.querySelector('rect'), t: g.querySelector('text'),\n"
"        title: title, name: title.substring(0, title.lastIndexOf(' (')) });\n"
"  }\n"
"  fr.forEach(function (f) {\n"
"    f.x = num(f.r, 'x'); f.w = num(f.r, 'width'); f.y = num(f.r, 'y');\n"
"    f.fill = f.r.getAttribute('fill');\n"
"    fit(f);\n"
"  });\n"
"  frames.addEventListener('click', function (e) {\n"
"    var k = frameof(e);\n"
"    if (k >= 0) zoom(k);\n"
"  });\n"
"  frames.addEventListener('mouseover', function (e) {\n"
"    var k = frameof(e);\n"
"    details.textContent = k >= 0 ? fr[k].title : ' ';\n"
"  });\n"
"  frames.addEventListener('mouseout', function () {\n"
"    details.textContent = ' ';\n"
"  });\n"
"  unzoombtn.addEventListener('click', unzoom);\n"
"  if (box !== null) {\n"
"    box.addEventListener('input', function () { search(box.value); });\n"
"    box.addEventListener('keydown', function (e) {\n"
"      if (e.key === 'Escape') { box.value = ''; search(''); }\n"
"    });\n"
"  }\n"
"  window.addEventListener('keydown', function (e) {\n"
"    if (box !== null && (e.key === '/' || (e.ctrlKey && e.key === 'f')) &&\n"
"        document.activeElement !== box) {\n"
"      e.preventDefault();\n"
"      box.focus();\n"
"    }\n"
"  });\n"
"  p = new URLSearchParams(location.search);\n"
"  if ((q = p.get('s')) !== null) {\n"
"    if (box !== null) box.value = q;\n"
"    search(q);\n"
"  }\n"
"  if ((q = p.get('z')) !== null && fr[parseInt(q, 10)] !== undefined)\n"
"    zoom(parseInt(q, 10));\n"
"});\n";

/* The document's head: its size, styles, script and title text. */
static void
head(FILE *fp, const char *title, size_t height, int interactive)
{
	char *s = label(title != NULL ? title : "Flame Graph");

	fprintf(fp, "<?xml version=\"1.0\" encoding=\"UTF-8\" "
	    "standalone=\"yes\"?>\n"
	    "<svg version=\"1.1\" width=\"%d\" height=\"%zu\" "
	    "viewBox=\"0 0 %d %zu\" xmlns=\"http://www.w3.org/2000/svg\">\n"
	    "<style>\n"
	    "text { font-family: Verdana, sans-serif; font-size: %dpx; "
	    "fill: black; }\n"
	    "#title { font-size: %dpx; }\n"
	    "g.f { cursor: pointer; }\n"
	    "g.f:hover rect { stroke: black; stroke-width: 0.5; }\n"
	    "g.f text { pointer-events: none; }\n"
	    "#unzoom { cursor: pointer; opacity: 0; }\n"
	    "</style>\n",
	    FLAME_WIDTH, height, FLAME_WIDTH, height, FLAME_FONT,
	    FLAME_FONT + 5);
	if (interactive)
		fprintf(fp, "<script type=\"text/ecmascript\"><![CDATA[\n%s"
		    "]]></script>\n", script);
	fprintf(fp, "<rect x=\"0\" y=\"0\" width=\"%d\" height=\"%zu\" "
	    "fill=\"rgb(238,238,228)\"/>\n"
	    "<text id=\"title\" x=\"%d\" y=\"24\" text-anchor=\"middle\">",
	    FLAME_WIDTH, height, FLAME_WIDTH / 2);
	xml(fp, s, strlen(s));
	fputs("</text>\n", fp);
	free(s);
}

/* The stacks S[0..N-1] merged into T, under frame 0. */
static void
merge(struct tree *t, const struct flamestack *s, size_t n)
{
	size_t i, d, at;

	memset(t, 0, sizeof(*t));
	if (prof_grow(&t->f, &t->cap, 1, sizeof(*t->f)) != 0)
		err(1, NULL);
	memset(&t->f[0], 0, sizeof(t->f[0]));
	t->n = 1;
	for (i = 0; i < n; i++) {
		if (!(s[i].value > 0) || !isfinite(s[i].value))
			continue;
		t->f[0].value += s[i].value;
		for (d = 0, at = 0; d < s[i].depth; d++) {
			at = callee(t, at, s[i].name[d] != NULL ?
			    s[i].name[d] : REPORT_UNKNOWN_NAME);
			t->f[at].value += s[i].value;
		}
	}
}

/*
 * Reset Zoom and the search box above the frames, the hovered frame's
 * tooltip and the matched share below them.
 */
static void
controls(FILE *fp, size_t height)
{
	fprintf(fp, "<text id=\"unzoom\" x=\"%d\" y=\"24\">Reset Zoom</text>\n"
	    "<foreignObject x=\"%d\" y=\"8\" width=\"220\" height=\"24\">"
	    "<input xmlns=\"http://www.w3.org/1999/xhtml\" id=\"search\" "
	    "type=\"search\" placeholder=\"Search (regular expression)\" "
	    "style=\"width: 100%%; box-sizing: border-box; font-size: %dpx\"/>"
	    "</foreignObject>\n"
	    "<text id=\"details\" x=\"%d\" y=\"%zu\"> </text>\n"
	    "<text id=\"matched\" x=\"%d\" y=\"%zu\" text-anchor=\"end\">"
	    "</text>\n", FLAME_XPAD, FLAME_WIDTH - FLAME_XPAD - 220, FLAME_FONT,
	    FLAME_XPAD, height - FLAME_BOTTOM / 2, FLAME_WIDTH - FLAME_XPAD,
	    height - FLAME_BOTTOM / 2);
}

/*
 * Write a flame graph of the N stacks S to FP, an SVG that shows TITLE
 * (the program; NULL: "Flame Graph") above it.  Stacks may come in any
 * order and repeat: equal prefixes are merged.  A stack's value that is
 * not a positive number counts nothing; without any time the graph
 * says "no samples".  Returns 0, or -1 with errno if writing failed;
 * out of memory, prof exits.  The names must live until it returns.
 */
int
flame_svg(FILE *fp, const char *title, const struct flamestack *s, size_t n)
{
	struct tree t;
	size_t i, depth = 0, height;
	double min;
	int kept;

	merge(&t, s, n);
	errno = 0;
	if (!(t.f[0].value > 0) || !isfinite(t.f[0].value)) {
		height = FLAME_TOP + FLAME_FRAME + FLAME_BOTTOM;
		head(fp, title, height, 0);
		fprintf(fp, "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\">"
		    "no samples</text>\n</svg>\n", FLAME_WIDTH / 2,
		    FLAME_TOP + FLAME_FRAME);
		goto out;
	}
	layout(&t);
	min = FLAME_MIN * t.f[0].value;
	i = 0;
	do {
		if ((kept = t.f[i].value >= min) && t.f[i].depth > depth)
			depth = t.f[i].depth;
	} while ((i = following(&t, i, !kept)) != 0);
	height = FLAME_TOP + (depth + 1) * FLAME_FRAME + FLAME_BOTTOM;
	head(fp, title, height, 1);
	controls(fp, height);
	fputs("<g id=\"frames\">\n", fp);
	i = 0;
	do {
		if ((kept = t.f[i].value >= min))
			frame(fp, &t, i, height,
			    (FLAME_WIDTH - 2 * FLAME_XPAD) / t.f[0].value);
	} while ((i = following(&t, i, !kept)) != 0);
	fputs("</g>\n</svg>\n", fp);
out:
	free(t.f);
	free(t.slot);
	if (fflush(fp) != 0 || ferror(fp)) {
		if (errno == 0)
			errno = EIO;
		return -1;
	}
	return 0;
}
