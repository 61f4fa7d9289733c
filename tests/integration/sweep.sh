#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Sweeps: packet_byte_script's sizes in a lab, a stored burst sweep, knob
# sweeps put back (also after Ctrl-C), a cross product, and bad input.
. "$(dirname "$0")/lib.sh"

need_root "the sweep tests"

isolated_state
name="ttsweep-$$"
A="$name-a"

labdown() {
	"$TUNETOP" lab down "$name" >/dev/null 2>&1 || true
}
trap 'labdown; cleanup' EXIT

# count_runs SWEEP_ID: rows of the history with that sweep_id and source "sweep".
count_runs() {
	python3 -c 'import sqlite3,sys; c=sqlite3.connect(sys.argv[1]); print(c.execute("SELECT count(*) FROM runs WHERE sweep_id=? AND source=?", (int(sys.argv[2]), "sweep")).fetchone()[0])' "$TUNETOP_DB" "$1"
}

# bad CMD...: exit 2 with one line on stderr and nothing on stdout.
bad() {
	"$TUNETOP" "$@" >"$TMP/bo" 2>"$TMP/be"
	rc=$?
	[ $rc -eq 2 ] && [ "$(wc -l <"$TMP/be")" -eq 1 ] && [ ! -s "$TMP/bo" ]
}

bad sweep knob nosuch.knob=1,2 && grep -q "nosuch.knob: unknown knob" "$TMP/be"
ok $? "an unknown knob is exit 2 and one line naming it: $(cat "$TMP/be")"
bad sweep burst 0,x,4 && grep -q '"x": not a size' "$TMP/be"
ok $? "a bad list is exit 2 and one line naming the item: $(cat "$TMP/be")"
bad sweep preset no-such-preset && grep -q "no-such-preset: unknown preset; accepted: .*seed000" "$TMP/be"
ok $? "an unknown preset is exit 2, listing the presets: $(cat "$TMP/be")"
bad sweep knob net.ipv4.tcp_reordering=0,3 && grep -q "accepted is 1\.\." "$TMP/be"
ok $? "a knob value out of range is exit 2 before anything runs: $(cat "$TMP/be")"
bad sweep burst 0,1 -t TCP_STREAM && grep -q "the test is TCP_STREAM" "$TMP/be"
ok $? "a burst sweep of a stream test is exit 2: $(cat "$TMP/be")"
bad sweep wobble && grep -q "accepted: size, burst, knob, send-size, preset" "$TMP/be"
ok $? "an unknown sweep kind is exit 2: $(cat "$TMP/be")"

"$TUNETOP" sweep preset >"$TMP/pl" 2>&1 && grep -q "^seed000 *size" "$TMP/pl" &&
	grep -q "^seed001 *burst *0,1,2,4,16,64,128,256" "$TMP/pl"
ok $? "sweep preset alone lists data/sweeps"

# Columns: netperf's selectors after --, an unknown one refused in one line.
bad sweep burst 0,1 -- -O THROUGHPUT,NOSUCH_SEL && grep -q "NOSUCH_SEL: unknown output selector; accepted: .*-O ?" "$TMP/be"
ok $? "an unknown selector is exit 2 and one line naming it: $(cat "$TMP/be")"
"$TUNETOP" sweep burst 0,4 -l 1 -- -O THROUGHPUT,LOCAL_SEND_SIZE,LSS_SIZE_END,DATA_SEGS_OUT_PER_TRANS >"$TMP/cols" 2>&1
rc=$?
grep -q "^Point .*LOCAL_SEND_SIZE *LSS_SIZE_END *DATA_SEGS_OUT_PER_TRANS" "$TMP/cols" &&
	[ "$(grep -E "^burst=[04] " "$TMP/cols" | tail -2 | grep -c "n/a")" -eq 0 ] &&
	[ "$(grep -E "^burst=[04] " "$TMP/cols" | tail -2 | awk '{ print NF }' | sort -u)" = 6 ]
ok $? "-- -O LIST gives the sweep table those columns, none n/a (rc $rc)"
"$TUNETOP" sweep preset seed004 -l 0.3 --json >"$TMP/s4.json" 2>"$TMP/s4.err"
python3 - "$TMP/s4.json" <<'PY'
import json, sys
j = json.load(open(sys.argv[1]))
ok = j["columns"] == ["DATA_SEGS_OUT_PER_TRANS", "DATA_SEGS_IN_PER_TRANS"] and all(
    p["columns"][c] is not None for p in j["points"] for c in j["columns"])
sys.exit(0 if ok else 1)
PY
ok $? "preset seed004's columns are DATA_SEGS both ways, each point has them"

# Seed 000: packet_byte_script's request sizes, the MSS from the connection.
"$TUNETOP" sweep size -l 0.3 --mtu 1500 --json >"$TMP/size.json" 2>"$TMP/size.err"
ok $? "size sweep in a lab of its own, MTU 1500, exits 0"
[ -s "$TMP/size.err" ] && diag "$TMP/size.err"
python3 - "$TMP/size.json" <<'EOF'
import json, sys
j = json.load(open(sys.argv[1]))
want = [1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024, 1448, 1449, 2896, 2897, 4344, 4345]
got = [p["value"] for p in j["points"]]
ok = (j["kind"] == "size" and j["mss"] == 1448 and got == want and
      all(p["run_id"] and not p["failed"] and p["throughput"] > 0 for p in j["points"]) and
      [p["point"] for p in j["points"]][-1] == "size=4345")
print("# mss", j["mss"], "points", got)
sys.exit(0 if ok else 1)
EOF
ok $? "its points are packet_byte_script's for MSS 1448: 1..1024, 1448, 1449, 2896, 2897, 4344, 4345"
sid=$(jq_py "$TMP/size.json" 'j["sweep_id"]')
[ "$(count_runs "$sid")" -eq 17 ]
ok $? "one stored run per point (17) with sweep_id $sid"

# Seeds 001 and 004: a burst sweep, stored.
"$TUNETOP" sweep burst 0,1,4 -l 0.3 >"$TMP/burst" 2>&1
ok $? "burst sweep 0,1,4 exits 0"
grep -Eq "^Target: lab tunetop-[0-9]+ " "$TMP/burst" &&
	grep -Eq "^burst=0 +[0-9.]+ " "$TMP/burst" && grep -Eq "^burst=4 +[0-9.]+ " "$TMP/burst"
ok $? "it names its lab and prints a line per point"
sid=$(sed -n 's/^Sweep burst \([0-9]*\): 3 of 3 points.*/\1/p' "$TMP/burst")
[ -n "$sid" ] && [ "$(count_runs "$sid")" -eq 3 ]
ok $? "three runs stored with the sweep's id ${sid:-?}"
[ "$(grep -c "^burst=" "$TMP/burst")" -eq 6 ]
ok $? "each point is printed as it finishes and again in the final table"

# Knob sweeps in a lab that outlives the command, so its knobs can be read after.
"$TUNETOP" lab up --name "$name" >"$TMP/up" 2>&1
ok $? "lab up --name $name"
before=$(ip netns exec "$A" sysctl -n net.ipv4.tcp_reordering)
sack_before=$(ip netns exec "$name-b" sysctl -n net.ipv4.tcp_sack)
"$TUNETOP" sweep knob net.ipv4.tcp_reordering=5,10 --lab "$name" -l 0.3 --json >"$TMP/k.json" 2>"$TMP/k.err"
ok $? "knob sweep tcp_reordering=5,10 on the local side exits 0"
[ "$(jq_py "$TMP/k.json" '[p["value"] for p in j["points"]]')" = "['5', '10']" ] &&
	[ "$(jq_py "$TMP/k.json" 'j["knobs"][0]["side"]')" = local ]
ok $? "its points are the two values, on the local side"
[ "$(ip netns exec "$A" sysctl -n net.ipv4.tcp_reordering)" = "$before" ]
ok $? "tcp_reordering in $A is back to $before afterwards"
[ ! -s "$TMP/state/journal" ]
ok $? "and nothing is left in the knob journal"

"$TUNETOP" sweep knob net.ipv4.tcp_reordering=5,10 remote:net.ipv4.tcp_sack=off,on \
	--lab "$name" -l 0.3 --json >"$TMP/x.json" 2>"$TMP/x.err"
ok $? "cross product of two knobs exits 0"
[ "$(jq_py "$TMP/x.json" 'len(j["points"])')" -eq 4 ] &&
	[ "$(jq_py "$TMP/x.json" '[p["value"] for p in j["points"]]')" = "[['5', 'off'], ['5', 'on'], ['10', 'off'], ['10', 'on']]" ]
ok $? "it has 4 points, every pair once"
sack_b=$(ip netns exec "$name-b" sysctl -n net.ipv4.tcp_sack)
[ "$(ip netns exec "$A" sysctl -n net.ipv4.tcp_reordering)" = "$before" ] && [ "$sack_b" = "$sack_before" ]
ok $? "both knobs are put back (tcp_reordering $before, remote tcp_sack $sack_b)"

# Each knob preset acts on the end its seed thread named (data/sweeps).
for pr in "gro remote" "notsent local" "reordering local,remote"; do
	set -- $pr
	"$TUNETOP" sweep preset "$1" --lab "$name" -l 0.2 --json >"$TMP/p.json" 2>"$TMP/p.err"
	rc=$?
	sides=$(jq_py "$TMP/p.json" '",".join(k["side"] for k in j["knobs"])')
	[ $rc -eq 0 ] && [ "$sides" = "$2" ]
	ok $? "preset $1 sets its knob on the $2 end ($sides, rc $rc)"
done
[ "$(jq_py "$TMP/p.json" '[p["point"] for p in j["points"]]')" = "['both:net.ipv4.tcp_reordering=3', 'both:net.ipv4.tcp_reordering=10', 'both:net.ipv4.tcp_reordering=127']" ]
ok $? "reordering moves both ends in step: 3 points, not 9"
[ "$(ip netns exec "$A" sysctl -n net.ipv4.tcp_reordering)" = "$before" ] &&
	[ "$(ip netns exec "$name-b" sysctl -n net.ipv4.tcp_reordering)" = "$before" ]
ok $? "and puts back tcp_reordering on both ends"
# The NIC presets' knobs are on the netserver end; a lab's veth has no
# coalescing, so they stop before any point, in one line naming the knob,
# the end and what that end has, and nothing is stored.
n0=$(python3 -c 'import sqlite3,sys; print(sqlite3.connect(sys.argv[1]).execute("SELECT count(*) FROM runs").fetchone()[0])' "$TUNETOP_DB")
for pr in coalescing:rx-usecs adaptive-rx:adaptive-rx; do
	"$TUNETOP" sweep preset "${pr%%:*}" --lab "$name" -l 0.2 >"$TMP/o" 2>"$TMP/e"
	rc=$?
	[ $rc -eq 1 ] && [ "$(wc -l <"$TMP/e")" -eq 1 ] &&
		grep -q "^tunetop sweep: ${pr#*:} on lab-b (veth-b): veth: coalescing not supported.*; lab-b has no coalescing knob$" "$TMP/e" &&
		! grep -q "^Point" "$TMP/o"
	ok $? "preset ${pr%%:*} wants ${pr#*:} on the remote end, refused before its first point: $(head -1 "$TMP/e")"
done
n1=$(python3 -c 'import sqlite3,sys; print(sqlite3.connect(sys.argv[1]).execute("SELECT count(*) FROM runs").fetchone()[0])' "$TUNETOP_DB")
[ "$n0" = "$n1" ]
ok $? "and no run was made ($n0 runs before, $n1 after)"
# A --set knob the end lacks is checked the same way, before any point.
"$TUNETOP" sweep knob net.ipv4.tcp_reordering=3,5 --set remote:rx-usecs=3 --lab "$name" -l 0.2 >"$TMP/o" 2>"$TMP/e"
[ $? -eq 1 ] && grep -q "^tunetop sweep: rx-usecs on lab-b (veth-b): .*lab-b has no coalescing knob$" "$TMP/e" && ! grep -q "^Point" "$TMP/o"
ok $? "a --set knob the end lacks stops the sweep before its first point: $(head -1 "$TMP/e")"
# A value the end refuses (read-only inside a namespace) too, naming the end.
"$TUNETOP" sweep knob net.core.rmem_max=100000,200000 --lab "$name" -l 0.2 >"$TMP/o" 2>"$TMP/e"
[ $? -eq 1 ] && grep -q "^tunetop sweep: net.core.rmem_max on lab-a: .*read-only inside a network namespace" "$TMP/e" && ! grep -q "^Point" "$TMP/o"
ok $? "a knob read-only in the lab stops it before its first point: $(head -1 "$TMP/e")"
bad sweep knob both:net.ipv4.tcp_reordering=3 net.ipv4.tcp_sack=on && grep -q "both: sweeps one knob alone" "$TMP/be"
ok $? "both: with a second knob is exit 2: $(cat "$TMP/be")"

# --reverse (seed 004's backward direction): in a lab the far end, side b,
# initiates; each run's client is in side b, aiming at side a's address, and
# a --set local: knob stays on side a (now the server end).
ra=$(ip netns exec "$A" sysctl -n net.ipv4.tcp_sack)
"$TUNETOP" sweep burst 2,16 --reverse --lab "$name" -l 0.3 --set local:net.ipv4.tcp_sack=0 >"$TMP/rev" 2>&1
rc=$?
sid=$(sed -n 's/^Sweep burst \([0-9]*\): 2 of 2 points.*/\1/p' "$TMP/rev")
[ $rc -eq 0 ] && grep -q "^Target: lab $name (client in $name-b, server in $name-a)" "$TMP/rev" &&
	grep -q "reverse: the far end, lab side b, sends the requests" "$TMP/rev"
ok $? "sweep burst --reverse in a lab says the client runs in $name-b (rc $rc)"
r=$(python3 -c 'import sqlite3,sys
c=sqlite3.connect(sys.argv[1])
print(sorted(set(c.execute("SELECT json_extract(result, \"$.result.remote_addr\") LIKE \"198.18.0.1:%\", json_extract(result, \"$.knobs.local.side\"), json_extract(result, \"$.knobs.remote.side\"), json_extract(result, \"$.counts_agree\") FROM runs WHERE sweep_id=?", (int(sys.argv[2]),)).fetchall())))' "$TUNETOP_DB" "${sid:-0}")
[ "$r" = "[(1, 'lab-b', 'lab-a', 1)]" ]
ok $? "its runs' client is side b, aimed at side a's 198.18.0.1, counts agreeing: $r"
# Each end's device knobs are read on its own veth (side a's is veth-a).
r=$(python3 -c 'import sqlite3,sys
c=sqlite3.connect(sys.argv[1])
print(sorted(set(c.execute("SELECT json_extract(result, \"$.knobs.local.dev\"), json_extract(result, \"$.knobs.remote.dev\"), (SELECT json_extract(k.value, \"$.value\") FROM json_each(json_extract(result, \"$.knobs.remote.knobs\")) k WHERE json_extract(k.value, \"$.name\") = \"tso\") FROM runs WHERE sweep_id=?", (int(sys.argv[2]),)).fetchall())))' "$TUNETOP_DB" "${sid:-0}")
[ "$r" = "[('veth-b', 'veth-a', 'on')]" ]
ok $? "and each end's device knobs are read on its own veth (remote veth-a, tso read): $r"
grep -q "^Knob net.ipv4.tcp_sack on lab-a: " "$TMP/rev" && [ "$(ip netns exec "$A" sysctl -n net.ipv4.tcp_sack)" = "$ra" ]
ok $? "--set local: stays on side a (the server end now), and is put back"
# Issue 26: --set both: (the engine's setting, as run --set takes it) is
# made on each end, left alone by --reverse, and put back on both.
rb=$(ip netns exec "$name-b" sysctl -n net.ipv4.tcp_sack)
"$TUNETOP" sweep burst 2 --reverse --lab "$name" -l 0.3 --set both:net.ipv4.tcp_sack=0 >"$TMP/revb" 2>&1
rc=$?
[ $rc -eq 0 ] && grep -q "^Knob net.ipv4.tcp_sack on lab-a: .* -> off (--set" "$TMP/revb" &&
	grep -q "^Knob net.ipv4.tcp_sack on lab-b: .* -> off (--set" "$TMP/revb" &&
	[ "$(ip netns exec "$A" sysctl -n net.ipv4.tcp_sack)" = "$ra" ] &&
	[ "$(ip netns exec "$name-b" sysctl -n net.ipv4.tcp_sack)" = "$rb" ]
ok $? "--set both: sets each end for the sweep and puts both back (rc $rc): $(grep -c '^Knob' "$TMP/revb") knob lines"

# Against loopback the client cannot move: the ends trade -r (the engine's
# target_reverse, which the dashboard's sweeps call too); --reverse among the
# run options, as the sweep's own options may be anywhere before "--".
"$TUNETOP" sweep burst 1 --loopback -l 0.3 --reverse -- -r 1,100 >"$TMP/revlo" 2>&1
rc=$?
[ $rc -eq 0 ] && grep -q "^Test: TCP_RR .*-r 100,1 " "$TMP/revlo" &&
	grep -q "reverse: no lab to turn around: the ends trade -r" "$TMP/revlo"
ok $? "sweep burst --reverse on loopback swaps -r 1,100 to 100,1 and says so (rc $rc)"

# --columns LIST anywhere before --, like any option; the last one wins.
"$TUNETOP" sweep burst 0,4 --lab "$name" -l 0.3 --columns LSS_SIZE_END,DATA_SEGS_OUT_PER_TRANS >"$TMP/colpos" 2>&1
rc=$?
[ $rc -eq 0 ] && grep -qE "^Point +Trans/s +LSS_SIZE_END +DATA_SEGS_OUT_PER_TRANS" "$TMP/colpos" &&
	[ "$(grep -E "^burst=[04] " "$TMP/colpos" | tail -2 | grep -c "n/a")" -eq 0 ]
ok $? "--columns after the run options gives the table those columns (rc $rc)"
"$TUNETOP" sweep preset seed004 --lab "$name" -l 0.3 --columns=LSR_SIZE_END >"$TMP/colpre" 2>&1
rc=$?
[ $rc -eq 0 ] && grep -qE "^Point +Trans/s +LSR_SIZE_END +Run" "$TMP/colpre"
ok $? "--columns after a preset's name replaces the preset's columns (rc $rc)"
bad sweep burst 0,1 -l 1 --columns -c && grep -q "option --columns -c: an option, not a list; accepted: --columns NAME" "$TMP/be"
ok $? "--columns followed by an option is exit 2, one line: $(cat "$TMP/be")"
bad sweep burst 0,1 -l 1 --columns NO_SUCH_COL && grep -q "option --columns NO_SUCH_COL: unknown output selector" "$TMP/be"
ok $? "a bad --columns after run options is exit 2, one line: $(cat "$TMP/be")"

# Ctrl-C stops after the current point; the table is still printed, knobs put back.
"$TUNETOP" sweep knob net.ipv4.tcp_reordering=5,7,9,11 --lab "$name" -l 1 >"$TMP/int" 2>&1 &
pid=$!
# Once the first point's line is out, the second point is running.
for _ in $(seq 100); do
	grep -q "^net.ipv4.tcp_reordering=5 " "$TMP/int" && break
	sleep 0.1
done
sleep 0.3
kill -INT $pid
wait $pid
rc=$?
[ $rc -eq 130 ] && grep -q "^Interrupted: 2 of 4 points run" "$TMP/int"
ok $? "SIGINT during the second point: exit 130 after it, table printed (rc $rc)"
[ "$(ip netns exec "$A" sysctl -n net.ipv4.tcp_reordering)" = "$before" ]
ok $? "and tcp_reordering is back to $before"

# A point that fails is reported and the sweep goes on.
"$TUNETOP" sweep knob net.ipv4.tcp_congestion_control=no-such-cc,reno --lab "$name" -l 0.3 >"$TMP/f" 2>&1
rc=$?
[ $rc -eq 1 ] && grep -q "^net.ipv4.tcp_congestion_control=no-such-cc *failed: " "$TMP/f" &&
	grep -Eq "^net.ipv4.tcp_congestion_control=reno +[0-9.]+ " "$TMP/f"
ok $? "a failed point is reported, the next one runs, exit 1 (rc $rc)"

done_testing
