#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Interim lines (-D) arrive at the requested interval within 5 %.
. "$(dirname "$0")/lib.sh"

for d in 0.5 0.2; do
	"$TUNETOP" run -t TCP_RR -l 4 -D "$d" --json-stream >"$TMP/i.txt" 2>&1
	ok $? "-D $d run exits 0"
	python3 - "$TMP/i.txt" "$d" <<'PY'
import json, sys
d = float(sys.argv[2])
iv = [x for x in map(json.loads, open(sys.argv[1])) if x["type"] == "interval"]
ts = [x["local"]["t"] for x in iv]
assert len(ts) >= int(4 / d) - 1, ts
gaps = [b - a for a, b in zip(ts, ts[1:])]
bad = [g for g in gaps if abs(g - d) > 0.05 * d]
assert not bad, (d, bad)
assert abs(ts[0] - d) <= 0.05 * d, ts[0]
PY
	ok $? "-D $d: every interval within 5 % of $d s"
done

"$TUNETOP" run -t TCP_RR -l 2 -D 0.5 >"$TMP/h.txt" 2>&1
n=$(grep -c "Interim result" "$TMP/h.txt")
[ "$n" -ge 3 ]
ok $? "human -D 0.5 over 2 s prints interim lines ($n)"

done_testing
