#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Interim lines (-D) arrive at the requested interval: on schedule, no drift.
# How close each tick lands is a timing figure, measured by bench/ (tests
# check behaviour: here, that no tick is missed, doubled or drifts).
. "$(dirname "$0")/lib.sh"

for d in 0.5 0.2; do
	"$TUNETOP" run -t TCP_RR -l 4 -D "$d" --json-stream >"$TMP/i.txt" 2>>"$TMP/stderr"
	ok $? "-D $d run exits 0"
	python3 - "$TMP/i.txt" "$d" >"$TMP/py.txt" 2>&1 <<'PY'
import json, sys
d = float(sys.argv[2])
iv = [x for x in map(json.loads, open(sys.argv[1])) if x["type"] == "interval"]
ts = [x["local"]["t"] for x in iv]
assert len(ts) >= int(4 / d) - 1, ts
gaps = [b - a for a, b in zip(ts, ts[1:])]
# The tick is a timerfd: it never drifts, so the mean interval is d within
# 2 % and every tick lands on its schedule (k * d, within half a tick: a
# loaded machine may wake the sampler late, never a whole tick).
mean = (ts[-1] - ts[0]) / (len(ts) - 1)
assert abs(mean - d) <= 0.02 * d, ("mean", d, mean)
late = [(k, t) for k, t in enumerate(ts, 1) if abs(t - k * d) > 0.5 * d]
assert not late, ("off schedule", d, late)
assert all(0.5 * d < g < 1.5 * d for g in gaps), ("a tick missed or doubled", d, gaps)
PY
	rc=$?
	ok $rc "-D $d: intervals of $d s (mean within 2 %, every tick on its schedule)"
	[ $rc -eq 0 ] || diag "$TMP/py.txt"
done

"$TUNETOP" run -t TCP_RR -l 2 -D 0.5 >"$TMP/h.txt" 2>&1
n=$(grep -c "Interim result" "$TMP/h.txt")
[ "$n" -ge 3 ]
ok $? "human -D 0.5 over 2 s prints interim lines ($n)"

done_testing
