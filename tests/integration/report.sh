#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# tunetop report: stored runs as one HTML file that parses as XML, with the expected plots.
. "$(dirname "$0")/lib.sh"
MKRUNSDB="$top_builddir/tests/tools/mkrunsdb"
# A run must never land in the user's history.
TUNETOP_DB="$TMP/default.db"
export TUNETOP_DB

if [ ! -x "$MKRUNSDB" ]; then
	echo "not ok 1 - $MKRUNSDB is built (make check builds it)"
	echo "1..1"
	exit 1
fi

# check.py FILE.html: parses FILE as XML (ElementTree) and HTML (html.parser,
# tags balanced), then evaluates each CHECK argument, a Python expression
# over the helpers below, printing "FAIL: CHECK" for each false one.
cat >"$TMP/check.py" <<'PY'
import html.parser, sys, xml.etree.ElementTree as ET

H = "{http://www.w3.org/1999/xhtml}"
S = "{http://www.w3.org/2000/svg}"
VOID = {"meta", "br", "hr", "img", "link", "input"}

class Balance(html.parser.HTMLParser):
    """Every start tag closed by its own end tag, in order."""
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.stack, self.bad = [], []
    def handle_starttag(self, tag, attrs):
        if tag not in VOID:
            self.stack.append(tag)
    def handle_startendtag(self, tag, attrs):
        pass
    def handle_endtag(self, tag):
        if not self.stack or self.stack.pop() != tag:
            self.bad.append(tag)

path = sys.argv[1]
text = open(path, encoding="utf-8").read()
root = ET.fromstring(text)
b = Balance()
b.feed(text)
b.close()
if b.bad or b.stack:
    print("FAIL: html.parser: unbalanced %r, unclosed %r" % (b.bad, b.stack))

def by_id(i):
    return next((e for e in root.iter() if e.get("id") == i), None)

def svgs():
    return list(root.iter(S + "svg"))

def series(i):
    """The data lines of plot i."""
    e = by_id(i)
    return [p for p in e.iter(S + "path") if p.get("class") == "series"] if e is not None else []

def cls(i, c):
    """Elements of class c under element i."""
    e = by_id(i)
    return [x for x in e.iter() if c in (x.get("class") or "").split()] if e is not None else []

def alltext(e):
    return "".join(e.itertext()) if e is not None else ""

def titled():
    """Every SVG has a non-empty <title> and an id."""
    return all(s.get("id") and (s.find(S + "title") is not None and s.find(S + "title").text)
               for s in svgs())

def scripts():
    return [e for e in root.iter() if e.tag in (H + "script", S + "script")] + \
           [e for e in root.iter() for a in e.attrib if a.startswith("on")]

def external():
    """Attributes that would fetch something."""
    return [v for e in root.iter() for a, v in e.attrib.items()
            if a in ("src", "href") or a.endswith("}href")]

def rows(table):
    return [[alltext(c) for c in tr if c.tag in (H + "td", H + "th")]
            for tr in by_id(table).iter(H + "tr")] if by_id(table) is not None else []

def cells(table, cl):
    return [alltext(c) for c in by_id(table).iter(H + "td")
            if cl in (c.get("class") or "").split()] if by_id(table) is not None else []

import re

# The most lines a chart may draw (REPORT_MAX_SERIES, docs/report.md).
MAX_SERIES = 8
UNITS = ("Trans/s", "10^6bits/s")

def unit_uniform():
    """Every chart with a unit draws series of that unit only, each saying so."""
    for s in svgs():
        u = s.get("data-unit")
        ser = [p for p in s.iter(S + "path") if p.get("class") == "series"]
        if ser and (u is None or any(p.get("data-unit") != u for p in ser)):
            return False
    return True

def chart_units(prefix):
    """The units of the charts whose id starts with prefix."""
    return [s.get("data-unit") for s in svgs() if s.get("id", "").startswith(prefix)]

def max_series():
    return max([len([p for p in s.iter(S + "path") if p.get("class") == "series"])
                for s in svgs()] or [0])

def legends():
    return [alltext(t) for t in root.iter(S + "text") if t.get("class") == "legend"]

def legends_read():
    """No unit glued to what comes before it ("-l 1010^6bits/s", "size=1Trans/s")."""
    return not [t for t in legends() for m in re.finditer(r"Trans/s|10\^6bits/s", t)
                if m.start() and t[m.start() - 1] not in " ("]

def legends_fit():
    """Every legend row fits the chart's width (about 115 characters at 11 px)."""
    return all(len(t) <= 110 for t in legends())

def legends_unitless(prefix):
    """The legends of the charts over time name no unit: the axis does."""
    return not [alltext(t) for s in svgs() if s.get("id", "").startswith(prefix)
                for t in s.iter(S + "text") if t.get("class") == "legend"
                and any(u in alltext(t) for u in UNITS)]

def verdicts():
    """(kind, word, text) of each verdict, in order."""
    return [(li.get("data-kind"), li.get("data-word"), alltext(li))
            for li in root.iter(H + "li") if "verdict" in (li.get("class") or "").split()]

def verdict_first():
    """The verdicts are the body's first section, before the runs table."""
    body = root.find(H + "body")
    h2 = [alltext(e) for e in body.iter(H + "h2")]
    order = [e.get("id") for e in body.iter() if e.get("id") in ("verdicts", "summary")]
    return h2[:1] == ["Verdict"] and order == ["verdicts", "summary"]

for check in sys.argv[2:]:
    try:
        good = eval(check)
    except Exception as e:
        good = False
        print("FAIL: %s: %r" % (check, e))
        continue
    if not good:
        print("FAIL: %s" % check)
PY

# check FILE DESCRIPTION CHECK...: one TAP line, the failures as diagnostics.
check() {
	f=$1
	d=$2
	shift 2
	python3 "$TMP/check.py" "$f" "$@" >"$TMP/check.out" 2>&1
	[ $? -eq 0 ] && [ ! -s "$TMP/check.out" ]
	r=$?
	ok $r "$d"
	[ $r -eq 0 ] || diag "$TMP/check.out"
}

# made NAME DESCRIPTION ID...: a report of crafted runs to $TMP/NAME.html, one TAP line.
made() {
	n=$1
	d=$2
	shift 2
	"$TUNETOP" report "$@" -o "$TMP/$n.html" --db "$TMP/made.db" >"$TMP/$n.out" 2>&1
	r=$?
	ok $r "$d"
	[ $r -eq 0 ] || diag "$TMP/$n.out"
}

# --- two real runs, stored by tunetop run ---
DB="$TMP/real.db"
"$TUNETOP" run --loopback -l 1 --db "$DB" -- -r 1,1 >"$TMP/run1.out" 2>&1 &&
	"$TUNETOP" run --loopback -l 1 --db "$DB" -- -r 64,64 >"$TMP/run2.out" 2>&1
r=$?
ok $r "two loopback runs are stored with --db"
[ $r -eq 0 ] || { diag "$TMP/run1.out"; diag "$TMP/run2.out"; }
IDS=$(python3 -c 'import sqlite3,sys; print(" ".join(str(r[0]) for r in sqlite3.connect(sys.argv[1]).execute("SELECT id FROM runs ORDER BY id")))' "$DB" 2>/dev/null)
set -- $IDS
A=${1:-1}
B=${2:-2}

"$TUNETOP" report "$A" "$B" -o "$TMP/two.html" --db "$DB" >"$TMP/two.out" 2>&1
r=$?
ok $r "report of two runs exits 0"
[ $r -eq 0 ] || diag "$TMP/two.out"
grep -qx "tunetop report: wrote $TMP/two.html (2 runs)" "$TMP/two.out"
ok $? "it says what it wrote in one line"
check "$TMP/two.html" "the report parses as XML and HTML, with the plots and summary rows" \
	"len(series('plot-rate')) == 2" \
	"len(series('plot-latency')) == 4" \
	"len(series('plot-buffers')) >= 2" \
	"by_id('run-$A') is not None and by_id('run-$B') is not None" \
	"'-r 64,64' in alltext(by_id('run-$B')) and 'Trans/s' in alltext(by_id('run-$B'))" \
	"'loopback' in alltext(by_id('run-$A'))" \
	"alltext(by_id('limits')).count('latency bound') >= 2 or 'no clear limit' in alltext(by_id('limits'))" \
	"'noise' in alltext(by_id('moved-thr')) and by_id('moved') is not None" \
	"titled()" \
	"not scripts() and not external()" \
	"verdict_first() and [(k, t.split(':')[0][len(w) + 1:]) for k, w, t in verdicts()] == [('runs', 'Run $B against run $A')]" \
	"verdicts()[0][1] in ('BETTER', 'WORSE', '~', 'can' + chr(39) + 't tell') and 'Trans/s' in verdicts()[0][2]" \
	"unit_uniform() and chart_units('plot-rate') == ['Trans/s']" \
	"legends_read() and legends_unitless('plot-')"

"$TUNETOP" report "$A-$B" -o "$TMP/range.html" --db "$DB" >"$TMP/range.out" 2>&1 &&
	grep -q "(2 runs)" "$TMP/range.out"
ok $? "a range $A-$B selects both runs"

# --- crafted runs: a sweep with a cliff, one without, and hostile strings ---
"$TUNETOP" run --loopback -l 1 --no-db --json >"$TMP/base.json" 2>"$TMP/base.err"
ok $? "a run document to build on"
cat >"$TMP/mk.py" <<'PY'
import copy, json, sys

base = json.load(open(sys.argv[1]))
HOSTILE = 'lab: <&"> \'x\''

def run(test, thr, point=None, sweep=0, target=None, knob=None, caps=True, rate=None):
    d = copy.deepcopy(base)
    d["test"] = d["params"]["test"] = d["result"]["test"] = test
    d["result"]["throughput"] = thr
    d["result"]["throughput_units"] = "Trans/s" if "RR" in test else "10^6bits/s"
    if knob is not None:
        d["knobs"] = {"local": {"side": "local", "dev": "lo", "knobs": [
            {"name": "net.ipv4.tcp_reordering", "group": "sysctls", "scope": "netns",
             "unit": "packets", "value": knob},
            {"name": "rx-usecs", "group": "coalesce", "scope": "dev", "unit": "us",
             "value": None, "reason": "not supported by <lo>"}]},
            "remote": {"side": "remote", "dev": "lo", "knobs": []}}
    if caps:
        mss = 1448
        sent = {"label": "sent", "mss": mss, "data": 1000, "largest": 4344,
                "commonest": 1448,
                "sizes": [[100, 50], [1448, 600], [2896, 200], [4344, 100], [3000, 50]]}
        d["local"]["capture"] = {"dev": "lo", "filter": "tcp", "counts": {}, "dropped": False,
                                 "sent": sent, "received": dict(sent, label="received")}
    e = {"result": d, "time": 1700000000 + thr / 1000}
    if point:
        e["point"] = point
        e["sweep"] = sweep
    if target:
        e["target"] = target
    rate = rate or [thr * 0.9, None, thr, thr * 1.1]
    e["series"] = {"t": [0.1 * (i + 1) for i in range(len(rate))], "rate": rate,
                   "p50_us": [10] * len(rate), "p99_us": [20] * len(rate),
                   "sndbuf_l": [65536] * len(rate), "rcvbuf_l": [131072] * len(rate),
                   "sndbuf_r": [None] * len(rate), "rcvbuf_r": [131072] * len(rate),
                   "cwnd_l": [10] * len(rate), "cwnd_r": [10] * len(rate)}
    return e

runs = [run("TCP_RR", 20000, target=HOSTILE, knob='a<b&c"d'),
        run("TCP_RR", 21000, knob="3")]
cliff = {1: 20000, 64: 19800, 1448: 19000, 1449: 18800, 2896: 18500, 4344: 18000,
         4345: 5400, 8688: 17500}
for size, thr in cliff.items():
    runs.append(run("TCP_RR", thr, point="size=%d" % size, sweep=1, caps=False))
for b, thr in {0: 5000, 1: 5100, 2: 5050, 4: 5200, 8: 5150, 64: 5100}.items():
    runs.append(run("TCP_RR", thr, point="burst=%d" % b, sweep=2, caps=False))
runs.append(run("TCP_STREAM", 9000, caps=False))
# Two A/Bs of five runs a side: B clearly faster, and B the same as A.
for i, (a, b) in enumerate(zip([1000, 1010, 990, 1005, 995], [2000, 2020, 1980, 2010, 1990])):
    runs.append(run("TCP_RR", a, point="a", sweep=3, caps=False))
    runs.append(run("TCP_RR", b, point="b", sweep=3, caps=False))
for i, (a, b) in enumerate(zip([1000, 1010, 990, 1005, 995], [1003, 996, 1008, 992, 1001])):
    runs.append(run("TCP_RR", a, point="a", sweep=4, caps=False))
    runs.append(run("TCP_RR", b, point="b", sweep=4, caps=False))
# A two-knob sweep with ten curves: more than one chart may draw.
for us in range(10):
    for gro in ("off", "on"):
        runs.append(run("TCP_RR", 3000 + 100 * us + (50 if gro == "on" else 0),
                        point="rx-usecs=%d,gro=%s" % (us, gro), sweep=5))
# A sweep whose points ran an RR and a stream test, and an A/B of the two.
for x in (1, 2, 4):
    runs.append(run("TCP_RR", 7000 + x, point="x=%d" % x, sweep=6, caps=False))
    runs.append(run("TCP_STREAM", 900 + x, point="x=%d" % x, sweep=6, caps=False))
for i in range(3):
    runs.append(run("TCP_RR", 7000 + i, point="a", sweep=7, caps=False))
    runs.append(run("TCP_STREAM", 900 + i, point="b", sweep=7, caps=False))
json.dump({"sweeps": [{"kind": "size", "spec": {"mss": 1448}},
                      {"kind": "burst", "spec": {}},
                      {"kind": "ab", "spec": {"a": ["remote:gro=off"], "b": ["remote:gro=on"],
                                              "n": 5, "seed": 7}},
                      {"kind": "ab", "spec": {"a": [], "b": ["-b 7"], "n": 5, "seed": 7}},
                      {"kind": "knob", "spec": {}},
                      {"kind": "knob", "spec": {}},
                      {"kind": "ab", "spec": {"a": [], "b": ["-t TCP_STREAM"], "n": 3, "seed": 7}}],
           "runs": runs}, open(sys.argv[2], "w"))
PY
python3 "$TMP/mk.py" "$TMP/base.json" "$TMP/runs.json" &&
	"$MKRUNSDB" "$TMP/made.db" "$TMP/runs.json" >"$TMP/made.ids" 2>&1
r=$?
ok $r "mkrunsdb builds a database of crafted runs"
[ $r -eq 0 ] || diag "$TMP/made.ids"
S1=$(awk '$1 == "sweep" { print $2; exit }' "$TMP/made.ids")
S2=$(awk '$1 == "sweep" { n++; if (n == 2) print $2 }' "$TMP/made.ids")
S3=$(awk '$1 == "sweep" { n++; if (n == 3) print $2 }' "$TMP/made.ids")
S4=$(awk '$1 == "sweep" { n++; if (n == 4) print $2 }' "$TMP/made.ids")
S5=$(awk '$1 == "sweep" { n++; if (n == 5) print $2 }' "$TMP/made.ids")
S6=$(awk '$1 == "sweep" { n++; if (n == 6) print $2 }' "$TMP/made.ids")
S7=$(awk '$1 == "sweep" { n++; if (n == 7) print $2 }' "$TMP/made.ids")
ST=$(awk '$1 == "run" { n++; if (n == 17) print $2 }' "$TMP/made.ids")
H1=$(awk '$1 == "run" { print $2; exit }' "$TMP/made.ids")
H2=$(awk '$1 == "run" { n++; if (n == 2) print $2 }' "$TMP/made.ids")

"$TUNETOP" report "$H1" "$H2" -o "$TMP/hostile.html" --db "$TMP/made.db" \
	--title 'knobs <&"> differ' >"$TMP/hostile.out" 2>&1
r=$?
ok $r "report of runs with hostile strings exits 0"
[ $r -eq 0 ] || diag "$TMP/hostile.out"
check "$TMP/hostile.html" "strings from the data come out escaped, and the knob diff shows the knob that differs" \
	"'lab: <&\"> \\'x\\'' in alltext(by_id('run-$H1'))" \
	"'knobs <&\"> differ' == alltext(root.find(H + 'head/' + H + 'title'))" \
	"[r[0] for r in rows('knob-diff')[1:]] == ['net.ipv4.tcp_reordering']" \
	"cells('knob-diff', 'diff') == ['3']" \
	"rows('knob-diff')[1][3:] == ['a<b&c\"d', '3']" \
	"len(series('plot-rate')) == 2" \
	"by_id('plot-segments-$H1-local-sent') is not None and by_id('plot-segments-$H2-local-received') is not None" \
	"{r.get('fill') for r in cls('plot-segments-$H1-local-sent', 'bar')} == {'#4e79a7', '#59a14f', '#f28e2b', '#b07aa1'}" \
	"len(cls('plot-segments-$H1-local-sent', 'bar')) == 5" \
	"titled()"
grep -q 'lab: &lt;&amp;&quot;&gt; &#39;x&#39;' "$TMP/hostile.html" &&
	grep -q 'a&lt;b&amp;c&quot;d' "$TMP/hostile.html" &&
	! grep -q 'a<b&c' "$TMP/hostile.html"
ok $? "the raw file holds the escaped forms, never the raw ones"

"$TUNETOP" report "sweep:$S1" "sweep:$S2" -o "$TMP/sweep.html" --db "$TMP/made.db" >"$TMP/sweep.out" 2>&1
r=$?
ok $r "report of two sweeps exits 0"
[ $r -eq 0 ] || diag "$TMP/sweep.out"
grep -q "(14 runs)" "$TMP/sweep.out"
ok $? "sweep:N selects every run of the sweep"
check "$TMP/sweep.html" "the sweep with a cliff has it marked at 4345, the smooth one has none" \
	"by_id('plot-sweep') is not None" \
	"len(cls('plot-sweep-$S1', 'cliff')) == 2" \
	"[r[0] for r in rows('table-sweep-$S1')[1:] if r[-1] == 'cliff'] == ['4345']" \
	"'log2' in alltext(by_id('plot-sweep-$S1'))" \
	"len(cls('plot-sweep-$S1', 'point')) == 8" \
	"cls('plot-sweep-$S2', 'cliff') == []" \
	"len(cls('plot-sweep-$S2', 'point')) == 6" \
	"'log2' not in alltext(by_id('plot-sweep-$S2'))" \
	"'points evenly spaced' in alltext(by_id('plot-sweep-$S2'))" \
	"len({round(float(b.get('cx')) - float(a.get('cx')), 1) for a, b in zip(cls('plot-sweep-$S2', 'point'), cls('plot-sweep-$S2', 'point')[1:])}) == 1" \
	"len(series('plot-rate')) == 8" \
	"re.fullmatch(r'tunetop report: runs [0-9]+-[0-9]+', alltext(root.find(H + 'head/' + H + 'title')))" \
	"'size=4345' in ' '.join(legends()) and 'size=4344' in ' '.join(legends())" \
	"'Left out: runs' in alltext(by_id('plot-rate-omitted'))" \
	"(lambda ids: ids == sorted(ids))([int(alltext(t).split()[1]) for t in by_id('plot-rate').iter(S + 'text') if t.get('class') == 'legend'])" \
	"re.fullmatch(r'Not captured \(tunetop run --capture\): runs [0-9]+-[0-9]+\.', alltext(by_id('segments-none')))" \
	"max_series() <= MAX_SERIES and unit_uniform() and legends_read() and legends_fit()" \
	"by_id('plot-buffers') is None and len(series('plot-buffers-rcvbuf_l')) == 8" \
	"[(k, w) for k, w, t in verdicts()] == [('sweep', 'CLIFF'), ('sweep', 'SMOOTH')] and verdict_first()" \
	"'at size=4345 the rate falls to' in verdicts()[0][2] and 'Sweep $S1 (size), 8 points' in verdicts()[0][2]" \
	"titled()"

made mixed "report of an RR run and a stream run exits 0" "$H1" "$ST"
check "$TMP/mixed.html" "Trans/s and 10^6bits/s get a rate chart each, and the two runs are not compared" \
	"unit_uniform() and chart_units('plot-rate') == ['Trans/s', '10^6bits/s']" \
	"len(series('plot-rate')) == 1 and len(series('plot-rate-2')) == 1" \
	"'10^6bits/s' in alltext(by_id('plot-rate-2')) and 'Trans/s' not in alltext(by_id('plot-rate-2'))" \
	"[(k, w) for k, w, t in verdicts()] == [('runs', 'NOT COMPARED')] and verdict_first()" \
	"'unlike is not compared' in verdicts()[0][2] and by_id('moved') is None" \
	"legends_read() and legends_unitless('plot-')"

made ab "report of two A/Bs exits 0" "sweep:$S3" "sweep:$S4"
check "$TMP/ab.html" "the A/B verdicts come first: B twice as fast is BETTER, B the same is ~" \
	"verdict_first() and [(k, w) for k, w, t in verdicts()] == [('ab', 'BETTER'), ('ab', '~')]" \
	"'A/B $S3, B (remote:gro=on) against A (remote:gro=off)' in verdicts()[0][2]" \
	"re.search(r'throughput \+[0-9.]+ % \S+ [0-9.]+ %', verdicts()[0][2]) is not None" \
	"'5 runs of A, 5 of B' in verdicts()[0][2]" \
	"'B (-b 7) against A (the knobs as they were)' in verdicts()[1][2]" \
	"'not told apart from the noise (p=' in verdicts()[1][2]" \
	"max_series() <= MAX_SERIES and unit_uniform() and legends_read()" \
	"by_id('plot-sweep-$S3') is None"

made curves "report of a two-knob sweep of ten curves exits 0" "sweep:$S5"
check "$TMP/curves.html" "its ten curves are drawn eight and two to a chart, all in its table" \
	"len(series('plot-sweep-$S5')) == 8 and len(series('plot-sweep-$S5-curves-9')) == 2" \
	"len(cls('plot-sweep-$S5', 'point')) == 16 and len(cls('plot-sweep-$S5-curves-9', 'point')) == 4" \
	"len(rows('table-sweep-$S5')) == 21" \
	"len([s for s in svgs() if s.get('id', '').startswith('plot-segments-')]) == 8" \
	"'Drawn: 4 of 20 runs' in alltext(by_id('segments-omitted')) and by_id('segments-none') is None" \
	"max_series() <= MAX_SERIES and unit_uniform() and legends_read()" \
	"[(k, w) for k, w, t in verdicts()] == [('sweep', 'SMOOTH')] and 'Sweep $S5 (knob), 20 points' in verdicts()[0][2]"

P1=$(awk '$1 == "run" { n++; if (n == 8) print $2 }' "$TMP/made.ids")
P2=$(awk '$1 == "run" { n++; if (n == 9) print $2 }' "$TMP/made.ids")
made points "report of two points of a sweep exits 0" "$P1" "$P2"
check "$TMP/points.html" "two points of a sweep are compared as a pair: 18000 -> 5400 is WORSE" \
	"[(k, w) for k, w, t in verdicts()] == [('runs', 'WORSE')] and verdict_first()" \
	"verdicts()[0][2].startswith('WORSE Run $P2 against run $P1: throughput -70.0 %')"

made units "report of a sweep and an A/B that ran two tests exits 0" "sweep:$S6" "sweep:$S7"
check "$TMP/units.html" "the sweep gets a chart per unit, the A/B of two units is not judged" \
	"unit_uniform() and sorted(chart_units('plot-sweep-$S6')) == ['10^6bits/s', 'Trans/s']" \
	"len(cls('plot-sweep-$S6', 'point')) == 3 and len(cls('plot-sweep-$S6-2', 'point')) == 3" \
	"'Trans/s' not in alltext(by_id('plot-sweep-$S6-2')) or '10^6bits/s' not in alltext(by_id('plot-sweep-$S6-2'))" \
	"len(rows('table-sweep-$S6')) == 4 and len(rows('table-sweep-$S6-2')) == 4" \
	"sorted(chart_units('plot-rate')) == ['10^6bits/s', 'Trans/s']" \
	"[(k, w) for k, w, t in verdicts()] == [('sweep', 'SMOOTH'), ('ab', 'NOT COMPARED')]" \
	"'unlike is not compared' in verdicts()[1][2] and 'Sweep $S6 (knob), 6 points' in verdicts()[0][2]"

# --- errors ---
"$TUNETOP" report "$A" 999 -o "$TMP/x.html" --db "$DB" >"$TMP/unk.out" 2>&1
r=$?
[ $r -eq 1 ] && grep -q "run 999" "$TMP/unk.out" && [ "$(wc -l <"$TMP/unk.out")" -eq 1 ] &&
	[ ! -e "$TMP/x.html" ]
ok $? "an unknown run id exits 1 naming it, and writes nothing (exit $r)"
[ $r -eq 1 ] || diag "$TMP/unk.out"

"$TUNETOP" report sweep:99 -o "$TMP/x.html" --db "$DB" >"$TMP/unks.out" 2>&1
r=$?
[ $r -eq 1 ] && grep -q "sweep 99" "$TMP/unks.out"
ok $? "an unknown sweep exits 1 naming it (exit $r)"

"$TUNETOP" report "$A" --db "$DB" >"$TMP/noo.out" 2>&1
r=$?
[ $r -eq 2 ] && grep -q "^tunetop: .*-o" "$TMP/noo.out"
ok $? "a missing -o exits 2 (exit $r)"

for bad in 3-1 abc sweep: 0 --frob; do
	"$TUNETOP" report "$bad" -o "$TMP/x.html" --db "$DB" >"$TMP/bad.out" 2>&1
	r=$?
	[ $r -eq 2 ] && [ "$(wc -l <"$TMP/bad.out")" -eq 1 ]
	ok $? "a bad argument '$bad' exits 2 with one line (exit $r)"
done

"$TUNETOP" report "$A" -o "$TMP/no/such/dir/x.html" --db "$DB" >"$TMP/unw.out" 2>&1
r=$?
[ $r -eq 1 ] && grep -q "$TMP/no/such/dir/x.html" "$TMP/unw.out"
ok $? "an unwritable file exits 1 naming it (exit $r)"

"$TUNETOP" report 1 -o "$TMP/x.html" --db "$TMP/none.db" >"$TMP/nodb.out" 2>&1
r=$?
[ $r -eq 1 ] && [ ! -e "$TMP/none.db" ]
ok $? "a missing database exits 1 and is not created (exit $r)"

done_testing
