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
	"not scripts() and not external()"

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
for b, thr in {0: 5000, 1: 5100, 2: 5050, 4: 5200, 8: 5150}.items():
    runs.append(run("TCP_RR", thr, point="burst=%d" % b, sweep=2, caps=False))
json.dump({"sweeps": [{"kind": "size", "spec": {"mss": 1448}},
                      {"kind": "burst", "spec": {}}],
           "runs": runs}, open(sys.argv[2], "w"))
PY
python3 "$TMP/mk.py" "$TMP/base.json" "$TMP/runs.json" &&
	"$MKRUNSDB" "$TMP/made.db" "$TMP/runs.json" >"$TMP/made.ids" 2>&1
r=$?
ok $r "mkrunsdb builds a database of crafted runs"
[ $r -eq 0 ] || diag "$TMP/made.ids"
S1=$(awk '$1 == "sweep" { print $2; exit }' "$TMP/made.ids")
S2=$(awk '$1 == "sweep" { n++; if (n == 2) print $2 }' "$TMP/made.ids")
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
grep -q "(13 runs)" "$TMP/sweep.out"
ok $? "sweep:N selects every run of the sweep"
check "$TMP/sweep.html" "the sweep with a cliff has it marked at 4345, the smooth one has none" \
	"by_id('plot-sweep') is not None" \
	"len(cls('plot-sweep-$S1', 'cliff')) == 2" \
	"[r[0] for r in rows('table-sweep-$S1')[1:] if r[-1] == 'cliff'] == ['4345']" \
	"'log2' in alltext(by_id('plot-sweep-$S1'))" \
	"len(cls('plot-sweep-$S1', 'point')) == 8" \
	"cls('plot-sweep-$S2', 'cliff') == []" \
	"len(cls('plot-sweep-$S2', 'point')) == 5" \
	"'log2' not in alltext(by_id('plot-sweep-$S2'))" \
	"len(series('plot-rate')) == 13" \
	"titled()"

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
