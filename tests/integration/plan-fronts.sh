#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# One plan, two front ends (issue 26, section 2): the same A/B from
# `tunetop ab` and from the dashboard (key A, in tmux) is stored in one
# shape -- sides, pairs, seed, alpha, the order of its runs -- and
# `tunetop sweep show` reads either, and the records of older versions;
# --alpha is taken, refused and shown alike by both.
. "$(dirname "$0")/lib.sh"

need_root "the plan tests (a lab of their own)"
isolated_state
PANE=dash
. "$(dirname "$0")/tmux-lib.sh"
lab="pf$$"
trap 'T kill-server 2>/dev/null; "$TUNETOP" lab down "$lab" >/dev/null 2>&1; cleanup' EXIT

# record ID: a sweep's or A/B's stored spec without "front", then its runs' points in order.
record() {
	python3 - "$TUNETOP_DB" "$1" <<'PY'
import json, sqlite3, sys
c = sqlite3.connect(sys.argv[1])
spec = json.loads(c.execute("select spec from sweeps where id = ?", (sys.argv[2],)).fetchone()[0])
spec.pop("front", None)
order = "".join(p for (p,) in c.execute("select point from runs where sweep_id = ? order by id", (sys.argv[2],)))
print(json.dumps(spec, sort_keys=True), order)
PY
}
# check STATUS DESCRIPTION [FILE]: ok, and FILE as diagnostics when it failed.
check() {
	ok "$1" "$2"
	[ "$1" -eq 0 ] || [ -z "${3:-}" ] || diag "$3"
}
# front ID: who stored the A/B.
front() {
	python3 -c 'import json,sqlite3,sys; print(json.loads(sqlite3.connect(sys.argv[1]).execute("select spec from sweeps where id = ?", (sys.argv[2],)).fetchone()[0]).get("front"))' "$TUNETOP_DB" "$1"
}
# last_of KIND: the newest sweep of that kind.
last_of() {
	python3 -c 'import sqlite3,sys; print(sqlite3.connect(sys.argv[1]).execute("select max(id) from sweeps where kind = ?", (sys.argv[2],)).fetchone()[0])' "$TUNETOP_DB" "$1"
}
last_ab() { last_of ab; }
# points_of ID, runs_of ID: a sweep's planned points; the runs stored with it.
points_of() {
	python3 -c 'import json,sqlite3,sys; print(len(json.loads(sqlite3.connect(sys.argv[1]).execute("select spec from sweeps where id = ?", (sys.argv[2],)).fetchone()[0])["points"]))' "$TUNETOP_DB" "$1" 2>/dev/null || echo 0
}
runs_of() {
	python3 -c 'import sqlite3,sys; print(sqlite3.connect(sys.argv[1]).execute("select count(*) from runs where sweep_id = ?", (sys.argv[2],)).fetchone()[0])' "$TUNETOP_DB" "$1" 2>/dev/null
}

"$TUNETOP" lab up --name "$lab" >"$TMP/lab" 2>&1
check $? "a lab of the test's own ($lab)" "$TMP/lab"
r0=$(ip netns exec "$lab-a" sysctl -n net.ipv4.tcp_reordering)
SPEC="--a net.ipv4.tcp_reordering=$r0 --b net.ipv4.tcp_reordering=11 -n 3 --seed 4242 --alpha 0.1"

# Bad --alpha: one line, the same words from both front ends.
"$TUNETOP" ab --lab "$lab" --a net.ipv4.tcp_reordering=11 --b "" --alpha 0.7 >"$TMP/bad" 2>&1
[ $? -eq 2 ] && grep -q "^tunetop ab: option --alpha 0.7: not a significance level; accepted: 0 < alpha <= 0.5" "$TMP/bad"
check $? "tunetop ab --alpha 0.7 is refused, naming what is accepted" "$TMP/bad"

# Sides that come to one setting there: refused before any run, by the
# plan (plan_begin), in the same words from both front ends.
SAME="options --a and --b come to the same settings here: the knobs already have the values asked for (net.ipv4.tcp_reordering on lab-a is $r0)"
"$TUNETOP" ab --lab "$lab" --a "net.ipv4.tcp_reordering=$r0" --b "" >"$TMP/same" 2>&1
[ $? -eq 2 ] && grep -qF "tunetop ab: $SAME" "$TMP/same"
check $? "tunetop ab refuses sides that come to the same settings" "$TMP/same"

# shellcheck disable=SC2086
"$TUNETOP" ab --lab "$lab" -l 0.3 $SPEC >"$TMP/cli" 2>&1
check $? "tunetop ab runs the plan" "$TMP/cli"
cli_id=$(last_ab)

T new-session -d -s dash -x 200 -y 60 "$TUNETOP --lab $lab -l 0.3 2>$TMP/err"
T set-option -t dash remain-on-exit on >/dev/null
wait_for "run [0-9]+ done" 150
ok $? "the dashboard opens on the lab and runs its first test"
keys A C-u
keys -l -- "--a net.ipv4.tcp_reordering=$r0 --b net.ipv4.tcp_reordering=11 --alpha 0.7"
keys Enter
wait_for "A/B: --alpha 0.7: not a significance level; accepted: 0 < alpha <= 0.5" 30
ok $? "the dashboard refuses --alpha 0.7 with the CLI's words"
keys Escape
keys A C-u
keys -l -- "--a net.ipv4.tcp_reordering=$r0 --b net.ipv4.tcp_reordering=$r0"
keys Enter
wait_for "$(printf '%s' "$SAME" | sed 's/[][().*]/\\&/g')" 30
ok $? "the dashboard refuses them with the CLI's words"
keys Escape
keys A C-u
keys -l -- "$SPEC"
keys Enter
wait_for "A/B done: B vs A rate .*seed 4242, alpha 0.1;" 300
ok $? "the dashboard's A/B ends with its seed and alpha in the verdict line"
dash_id=$(last_ab)
[ "$(ip netns exec "$lab-a" sysctl -n net.ipv4.tcp_reordering)" = "$r0" ]
ok $? "and puts the knob back ($r0)"

cli_rec=$(record "$cli_id")
dash_rec=$(record "$dash_id")
[ "$dash_id" != "$cli_id" ] && [ "$cli_rec" = "$dash_rec" ]
check $? "both store the same A/B: sides, pairs, seed, alpha, order ($dash_rec)"
[ "$cli_rec" = "$dash_rec" ] || echo "# CLI: $cli_rec"
[ "$(front "$cli_id")" = "tunetop ab" ] && [ "$(front "$dash_id")" = dashboard ]
ok $? "each record says which front end made it"

# same_sweep KIND ARGS...: the sweep from tunetop sweep, then from the
# dashboard's S; both records the same (target and test included).
same_sweep() {
	kind=$1
	shift
	"$TUNETOP" sweep "$kind" "$@" --lab "$lab" -l 0.3 >"$TMP/csweep" 2>&1
	check $? "tunetop sweep $kind $* runs" "$TMP/csweep"
	cli_sweep=$(last_of "$kind")
	keys S C-u
	keys -l -- "$kind $*"
	keys Enter
	# The sweep before's "done" may still be on screen: wait for this
	# sweep's own record, then for its own count of points on screen
	# and in the history (a range's count is known after its first point).
	dsw=$cli_sweep
	for _ in $(seq 300); do
		dsw=$(last_of "$kind")
		[ "$dsw" != "$cli_sweep" ] && break
		sleep 0.1
	done
	done_ok=1
	for _ in $(seq 600); do
		n=$(points_of "$dsw")
		if [ "$n" -gt 0 ] && [ "$(runs_of "$dsw")" = "$n" ] &&
			screen | grep -qE -- "sweep $kind done: $n points"; then
			done_ok=0
			break
		fi
		sleep 0.1
	done
	ok $done_ok "the dashboard's S $kind $* runs"
	cs=$(record "$(last_of "$kind")")
	cs0=$(record "$cli_sweep")
	[ "$cs" = "$cs0" ] && [ "$(front "$cli_sweep")" = "tunetop sweep" ] &&
		[ "$(front "$(last_of "$kind")")" = dashboard ]
	check $? "both store the same $kind sweep: kind, test, target, points, knobs, columns ($cs)"
	[ "$cs" = "$cs0" ] || echo "# CLI: $cs0"
}
same_sweep burst 0,1
# A size sweep's own list (issue 26): planned by the engine for both.
same_sweep size 1,1448,4345
# A range with --response and no --mss: both plan the rest around the
# first point's MSS (the remote end's, the sender of responses), and the
# dashboard's first point is stored with its sweep like the others.
same_sweep size 1..3000 --response
dsw=$(last_of size)
npts=$(points_of "$dsw")
nruns=$(runs_of "$dsw")
[ "$npts" -gt 3 ] && [ "$nruns" = "$npts" ]
check $? "the dashboard's size sweep stored every point's run with it ($nruns runs, $npts points)"

"$TUNETOP" sweep show "$dash_id" >"$TMP/show" 2>&1 &&
	grep -q "^A/B $dash_id (dashboard): 3 pairs in random order (seed 4242), alpha 0.1$" "$TMP/show" &&
	grep -q "^B: net.ipv4.tcp_reordering=11$" "$TMP/show" &&
	grep -qE "^B vs A rate: " "$TMP/show"
check $? "sweep show reads the dashboard's A/B" "$TMP/show"
"$TUNETOP" sweep show "$cli_id" --json >"$TMP/showj" 2>&1 &&
	python3 - "$TMP/showj" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
assert d["kind"] == "ab" and d["seed"] == 4242 and d["alpha"] == 0.1 and d["n"] == 3
assert len(d["runs"]) == 6 and {r["point"] for r in d["runs"]} == {"a", "b"}
assert "verdict" in d["rate"]
PY
check $? "sweep show --json reads the CLI's A/B" "$TMP/showj"

# Records of older versions: the dashboard's prompt words, the CLI's without alpha.
python3 - "$TUNETOP_DB" "$dash_id" <<'PY'
import sqlite3, sys
c = sqlite3.connect(sys.argv[1])
c.execute("insert into sweeps (kind, spec, time) values ('ab', ?, 0)",
          ('{"spec": "--a gro=on --b gro=off -n 4", "dashboard": true, "seed": 77}',))
old = c.execute("select max(id) from sweeps").fetchone()[0]
c.execute("update runs set sweep_id = ? where sweep_id = ?", (old, sys.argv[2]))
c.execute("insert into sweeps (kind, spec, time) values ('ab', ?, 0)",
          ('{"a": ["gro=on"], "b": [], "n": 5, "seed": 78}',))
c.commit()
print(old)
PY
"$TUNETOP" sweep show last-1 >"$TMP/old1" 2>&1 &&
	grep -q "(dashboard): 4 pairs in random order (seed 77), alpha 0.05 (the default: an older record without it)" "$TMP/old1" &&
	grep -q "^A: gro=on$" "$TMP/old1" && grep -q "^B vs A rate: " "$TMP/old1"
check $? "sweep show reads an older dashboard record" "$TMP/old1"
"$TUNETOP" sweep show last >"$TMP/old2" 2>&1 &&
	grep -q "(tunetop ab): 5 pairs in random order (seed 78), alpha 0.05 (the default" "$TMP/old2" &&
	grep -q "^B: (the knobs as they were)$" "$TMP/old2" &&
	grep -q "^B vs A rate: too few runs to compare (0+0)$" "$TMP/old2"
check $? "and an older tunetop ab record without runs" "$TMP/old2"

keys q
done_testing
