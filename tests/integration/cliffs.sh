#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# One stored sweep, three front ends: tunetop sweep show (table and --json),
# tunetop report and the dashboard's sweep summary mark the same cliffs.
. "$(dirname "$0")/lib.sh"
MKRUNSDB="$top_builddir/tests/tools/mkrunsdb"
DASHCLIFFS="$top_builddir/tests/tools/dashcliffs"
TUNETOP_DB="$TMP/default.db"
export TUNETOP_DB

for t in "$MKRUNSDB" "$DASHCLIFFS"; do
	if [ ! -x "$t" ]; then
		echo "not ok 1 - $t is built (make check builds it)"
		echo "1..1"
		exit 1
	fi
done

"$TUNETOP" run --loopback -l 1 --no-db --json >"$TMP/base.json" 2>"$TMP/base.err"
ok $? "a run document to build on"

# A size sweep (stored out of order, one point failed) and a two-knob sweep.
# Cliffs by the rule of docs/sweeps.md: size=4345 (70 % down, quiet ticks)
# and tcp_reordering=3,tcp_sack=on (60 % down at the end of its curve).
# Not cliffs: size=1 (the foot of a rise), size=1449 (27 % down, but its
# ticks spread 20 %), size=2897 (30 % down within its -i confidence
# interval of 20 %), tcp_reordering=10,tcp_sack=off (the foot of its curve).
cat >"$TMP/mk.py" <<'PY'
import copy, json, sys

base = json.load(open(sys.argv[1]))

def run(thr, point, sweep, spread=0.01, ci=None, failed=False):
    d = copy.deepcopy(base)
    d["test"] = d["params"]["test"] = d["result"]["test"] = "TCP_RR"
    d["result"]["throughput"] = thr
    d["result"]["throughput_units"] = "Trans/s"
    # What moved at a cliff (docs/why.md): only what a point sets here.
    d["result"]["local_net_rx_rate"] = d["result"]["remote_net_rx_rate"] = None
    if point.startswith("size="):
        d["result"]["segs_out_per_trans"] = float(-(-int(point[5:]) // 1448))
    if ci is not None:
        d["iterations"] = 3
        d["confidence"] = {"level": 99, "width_pct": 5, "min_iter": 3, "max_iter": 3,
                           "reached": False, "local_cpu": None, "remote_cpu": None,
                           "throughput": {"n": 3, "mean": thr, "stddev": ci,
                                          "half_width": ci, "width_pct": 200 * ci / thr}}
    rate = [thr * (1 - spread), thr, thr * (1 + spread)]
    e = {"result": d, "point": point, "sweep": sweep, "failed": failed,
         "series": {"t": [0.1, 0.2, 0.3], "rate": rate}}
    return e

size = [(1, 5000, {}), (2, 19500, {}), (16, 0, {"failed": True}), (1024, 19600, {}),
        (1448, 19000, {}), (1449, 13700, {"spread": 0.2}), (2896, 18500, {}),
        (2897, 12800, {"ci": 0.2 * 12800}), (4344, 18000, {}), (4345, 5400, {}),
        (8688, 17500, {}), (64, 19800, {})]
runs = [run(thr, "size=%d" % s, 1, **kw) for s, thr, kw in size]
knob = [("3", "off", 10000), ("3", "on", 4000), ("10", "off", 3000), ("10", "on", 9000)]
runs += [run(thr, "tcp_reordering=%s,tcp_sack=%s" % (a, b), 2) for a, b, thr in knob]
json.dump({"sweeps": [{"kind": "size", "spec": {"mss": 1448}},
                      {"kind": "knob", "spec": {}}],
           "runs": runs}, open(sys.argv[2], "w"))
PY
python3 "$TMP/mk.py" "$TMP/base.json" "$TMP/runs.json" &&
	"$MKRUNSDB" "$TMP/made.db" "$TMP/runs.json" >"$TMP/made.ids" 2>&1
r=$?
ok $r "mkrunsdb stores the two sweeps"
[ $r -eq 0 ] || diag "$TMP/made.ids"
S1=$(awk '$1 == "sweep" { print $2; exit }' "$TMP/made.ids")
S2=$(awk '$1 == "sweep" { n++; if (n == 2) print $2 }' "$TMP/made.ids")

# cliffs_cli ID: the --json document's cliffs, one a line.
cliffs_cli() {
	"$TUNETOP" sweep show "$1" --json --db "$TMP/made.db" >"$TMP/show$1.json" 2>"$TMP/show$1.err" &&
		python3 -c 'import json,sys; print("\n".join(json.load(open(sys.argv[1]))["cliffs"]))' \
			"$TMP/show$1.json"
}

# cliffs_table ID: the human table's rows marked "<-- cliff".
cliffs_table() {
	"$TUNETOP" sweep show "$1" --db "$TMP/made.db" >"$TMP/table$1.txt" 2>&1 &&
		awk '/<-- cliff/ { print $1 }' "$TMP/table$1.txt"
}

# cliffs_report ID: the report's table rows marked cliff, as point names.
cliffs_report() {
	"$TUNETOP" report "sweep:$1" -o "$TMP/report$1.html" --db "$TMP/made.db" \
		>"$TMP/report$1.out" 2>&1 &&
		python3 - "$TMP/report$1.html" "$1" <<'PY'
import sys, xml.etree.ElementTree as ET
H = "{http://www.w3.org/1999/xhtml}"
root = ET.parse(sys.argv[1]).getroot()
t = next(e for e in root.iter() if e.get("id") == "table-sweep-" + sys.argv[2])
rows = [["".join(c.itertext()) for c in tr] for tr in t.iter(H + "tr")]
name = rows[0][0]
for r in rows[1:]:
    if r[-1] == "cliff":
        print(r[0] if "=" in r[0] else name + "=" + r[0])
PY
}

# cliffs_dash ID: the dashboard's summary of the stored sweep.
cliffs_dash() {
	"$DASHCLIFFS" "$TMP/made.db" "$1" >"$TMP/dash$1.out" 2>&1 &&
		sed -n 's/^cliff //p' "$TMP/dash$1.out"
}

for s in "$S1" "$S2"; do
	cliffs_cli "$s" | sort >"$TMP/c$s.cli"
	ok $? "sweep show $s --json"
	cliffs_table "$s" | sort >"$TMP/c$s.table"
	cliffs_report "$s" | sort >"$TMP/c$s.report"
	ok $? "report sweep:$s"
	cliffs_dash "$s" | sort >"$TMP/c$s.dash"
	ok $? "the dashboard's summary of sweep $s: $(head -1 "$TMP/dash$s.out")"
done

[ "$(cat "$TMP/c$S1.cli")" = "size=4345" ]
ok $? "size sweep: the CLI's one cliff is size=4345 ($(tr '\n' ' ' <"$TMP/c$S1.cli"))"
[ "$(cat "$TMP/c$S2.cli")" = "tcp_reordering=3,tcp_sack=on" ]
ok $? "two knobs: the CLI's one cliff is tcp_reordering=3,tcp_sack=on ($(tr '\n' ' ' <"$TMP/c$S2.cli"))"
for s in "$S1" "$S2"; do
	for fe in table report dash; do
		cmp -s "$TMP/c$s.cli" "$TMP/c$s.$fe"
		ok $? "sweep $s: the $fe marks the same cliffs as sweep show --json ($(tr '\n' ' ' <"$TMP/c$s.$fe"))"
	done
done
grep -q "^sweep size done: 11 points, 1 cliff size=4345$" "$TMP/dash$S1.out"
ok $? "the dashboard's status line counts and names them"

# Each non-cliff is one for a reason the JSON names.
python3 - "$TMP/show$S1.json" <<'PY'
import json, sys
j = json.load(open(sys.argv[1]))
p = {x["point"]: x for x in j["points"]}
want = {"size=1": "floor", "size=1449": "ticks", "size=2897": "ci", "size=4345": "floor"}
bad = [k for k, v in want.items() if p[k]["noise_from"] != v or p[k]["cliff"] != (k == "size=4345")]
bad += [] if p["size=16"]["failed"] and p["size=16"]["noise"] is None else ["size=16"]
bad += [] if j["cliff_rule"] == {"k": 3.0, "min_drop_pct": 20.0, "noise_floor_pct": 3.0,
                                 "first_is_foot": True} else ["cliff_rule"]
bad += [] if abs(p["size=4345"]["drop_pct"] - 69.6) < 0.2 else ["drop_pct"]
print("# wrong:", bad)
sys.exit(1 if bad else 0)
PY
ok $? "--json: each point's noise and where it came from, the rule's numbers, the drop"

# The table and the report say the same rule, with the numbers it used.
rule=$(sed -n 's/^Cliffs: //p' "$TMP/table$S1.txt")
case "$rule" in
*"3 x the noise"*"at least 3 % of its rate"*"20 %"*"foot of a rise"*) r=0 ;;
*) r=1 ;;
esac
ok $r "the table states the rule: $rule"
python3 - "$TMP/report$S1.html" "$rule" <<'PY'
import sys, xml.etree.ElementTree as ET
root = ET.parse(sys.argv[1]).getroot()
text = " ".join("".join(e.itertext()) for e in root.iter() if e.get("class") == "note")
sys.exit(0 if sys.argv[2] in text else 1)
PY
ok $? "the report states the same rule"

# What moved at each cliff, from the point before it in its curve: the
# cliff's line, a block after the table, an object per cliff in --json and
# the report (3MSS+1 takes a fourth segment; the knob sweep's points differ
# in nothing the mechanisms compare).
grep -Eq '^size=4345 .*<-- cliff: [0-9]+ % below its neighbours; moved: segments per transaction, client out$' \
	"$TMP/table$S1.txt"
ok $? "the cliff's line lists what moved: $(grep '<-- cliff' "$TMP/table$S1.txt")"
sed -n '/^What moved at cliff size=4345, from size=4344 (run [0-9]* -> run [0-9]*; docs\/why.md):$/,$p' \
	"$TMP/table$S1.txt" >"$TMP/moved"
grep -Eq '^  Throughput A -> B: 18000 -> 5400 Trans/s: WORSE -70\.0 % \(noise' "$TMP/moved" &&
	grep -Eq '^    1\. segments per transaction, client out: 3\.00 -> 4\.00 \(\+33 %\)$' "$TMP/moved"
ok $? "and a block from the point before it: $(sed -n 4p "$TMP/moved")"
grep -q '^  What moved with it: nothing of the mechanisms compared' "$TMP/table$S2.txt"
ok $? "a cliff where nothing compared moved says so"
python3 - "$TMP/show$S1.json" "$TMP/show$S2.json" <<'PY'
import json, sys
a = json.load(open(sys.argv[1]))["cliff_moved"]
b = json.load(open(sys.argv[2]))["cliff_moved"]
ok = (len(a) == 1 and a[0]["point"] == "size=4345" and a[0]["from"] == "size=4344"
      and a[0]["run_id"] and a[0]["from_run_id"] and a[0]["moved_na"] is None
      and a[0]["moved"]["beyond_noise"] is True and abs(a[0]["moved"]["change_pct"] + 70) < 0.01
      and [(m["what"], m["a"], m["b"]) for m in a[0]["moved"]["moved"]]
          == [("segments per transaction, client out", 3, 4)]
      and len(b) == 1 and b[0]["from"] == "tcp_reordering=3,tcp_sack=off"
      and b[0]["moved"]["moved"] == [])
if not ok:
    print("# cliff_moved:", a, b)
sys.exit(0 if ok else 1)
PY
ok $? "--json: an object per cliff with the point before it, both runs and what moved"
python3 - "$TMP/report$S1.html" <<'PY'
import sys, xml.etree.ElementTree as ET
root = ET.parse(sys.argv[1]).getroot()
ids = {e.get("id"): "".join(e.itertext()) for e in root.iter() if e.get("id")}
lists = [v for k, v in ids.items() if k.startswith("moved-sweep-") and not k.endswith("-thr")]
thr = [v for k, v in ids.items() if k.startswith("moved-sweep-") and k.endswith("-thr")]
sys.exit(0 if len(lists) == 1 and "segments per transaction, client out: 3.00 -> 4.00" in lists[0]
         and "WORSE -70.0 %" in thr[0] else 1)
PY
ok $? "the report shows what moved at the cliff"

"$TUNETOP" sweep show 99 --db "$TMP/made.db" >"$TMP/o" 2>"$TMP/e"
[ $? -eq 1 ] && grep -q "sweep 99" "$TMP/e" && [ "$(wc -l <"$TMP/e")" -eq 1 ]
ok $? "sweep show of an unknown sweep: exit 1, one line: $(cat "$TMP/e")"
"$TUNETOP" sweep show x1 --db "$TMP/made.db" >"$TMP/o" 2>"$TMP/e"
[ $? -eq 2 ] && grep -q "sweep x1: not a sweep id; accepted" "$TMP/e"
ok $? "sweep show with a bad id: exit 2: $(cat "$TMP/e")"

done_testing
