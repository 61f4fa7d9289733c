#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# why.sh - each limiter scenario, live in a lab, must be named first (docs/why.md).
. "$(dirname "$0")/lib.sh"
need_root "the why scenarios (labs)"
isolated_state

LAB="why-$$"
LAB_TBF="why-$$-t"
trap '"$TUNETOP" lab down "$LAB" "$LAB_TBF" >/dev/null 2>&1; cleanup' EXIT

"$TUNETOP" lab up --name "$LAB" >"$TMP/up.out" 2>&1
ok $? "lab up $LAB"
"$TUNETOP" lab up --name "$LAB_TBF" --rate 1gbit >"$TMP/up-tbf.out" 2>&1
ok $? "lab up $LAB_TBF with a 1gbit tbf"

# scenario NAME RULE LAB RUN-ARGS...: the first of --json's limits is RULE.
# Each scenario assumes CPU to spare.  When other load on the machine (a
# virtual machine's host stealing its CPUs, other tests) saturates a CPU
# or leaves the ends one CPU, the engine rightly names that ("cpu" at 97 %
# and "one cpu" at 100 % in two CI runs for -s 8K, where an idle machine
# names the send buffer with the sender idle 36-43 % of the run): such a
# run is put aside and the scenario runs again, five times at most (on
# an idle 2-CPU guest, 7 December, -s 8K named "cpu" at 96-98 % in 4 of
# 6 runs of today's build and 1 of 3 of the previous one: three attempts
# were not enough).
# The stored ids of the runs kept go to $TMP/kept for the store check.
scenario() {
	name=$1 rule=$2 lab=$3
	shift 3
	for attempt in 1 2 3 4 5; do
		"$TUNETOP" run --lab "$lab" -l 2 --json "$@" >"$TMP/$name.json" 2>"$TMP/$name.err"
		rc=$?
		first=$(jq_py "$TMP/$name.json" "j['limits'][0]['rule'] if j['limits'] else ''" 2>/dev/null)
		case $rule in cpu | "one cpu") break ;; esac	# the CPU expected
		case $first in cpu | "one cpu" | none | "") ;; *) break ;; esac	# no CPU, or nothing, named
		[ "$rc" -eq 0 ] && [ $attempt -lt 5 ] || break
		echo "# $name: ${first:-nothing} was named (a busy CPU: other load on the machine): run again"
		jq_py "$TMP/$name.json" "j['limits'][0]['evidence']" 2>&1 | sed 's/^/#   /'
		sleep 2
	done
	ok $rc "$name: run exits 0"
	sed -n 's/^Stored as run \([0-9]*\)$/\1/p' "$TMP/$name.err" >>"$TMP/kept"
	[ "$first" = "$rule" ]
	ok $? "$name: '$rule' is named first (got '$first')"
	if [ "$first" != "$rule" ]; then
		jq_py "$TMP/$name.json" "'\n'.join(v['evidence'] for v in j['limits'])" >"$TMP/$name.ev" 2>&1
		diag "$TMP/$name.ev"
		diag "$TMP/$name.err"
	fi
}

scenario tbf "link" "$LAB_TBF" -t TCP_STREAM
jq_py "$TMP/tbf.json" "j['limits'][0]['evidence']" | grep -q "of 1000 Mbit/s tbf"
ok $? "tbf: the evidence names the tbf rate"

scenario rcvbuf "receive window" "$LAB" -t TCP_STREAM -- -S 8K
jq_py "$TMP/rcvbuf.json" "j['limits'][0]['evidence']" | grep -q "remote SO_RCVBUF .* (set by -S 8K)"
ok $? "rcvbuf: the evidence names the remote buffer and -S"

# -m 256K: few large sends that wait for room in the 16K buffer keep the
# sender idle without a CPU busy (with netperf's 16K sends a CPU of this
# 2-CPU guest was 93-98 % busy and named first in most runs).
scenario sndbuf "send buffer" "$LAB" -t TCP_STREAM -- -s 8K -m 256K
jq_py "$TMP/sndbuf.json" "j['limits'][0]['evidence']" | grep -q "SO_SNDBUF .* (set by -s 8K)"
ok $? "sndbuf: the evidence names the local buffer and -s"

scenario rr "latency" "$LAB" -t TCP_RR
jq_py "$TMP/rr.json" "j['limits'][0]['evidence']" | grep -q "^latency bound: 1 transaction in flight, RTT [0-9]* us"
ok $? "rr: one transaction in flight, with its RTT"

scenario onecpu "one cpu" "$LAB" -t TCP_STREAM -T 0,0
jq_py "$TMP/onecpu.json" "j['limits'][0]['evidence']" | grep -q "both pinned to CPU 0 (-T 0,0)"
ok $? "onecpu: the evidence names the CPU and -T"

# The store keeps the verdicts of every run (docs/store.md, version 4).
python3 -c '
import json, sqlite3, sys
kept = [int(x) for x in open(sys.argv[2]).read().split()]
rows = sqlite3.connect(sys.argv[1]).execute(
    "SELECT limits FROM runs WHERE id IN (%s) ORDER BY id" % ",".join("?" * len(kept)), kept).fetchall()
first = [json.loads(r[0])[0]["rule"] for r in rows]
sys.exit(first != ["link", "receive window", "send buffer", "latency", "one cpu"])
' "$TUNETOP_DB" "$TMP/kept" >"$TMP/store.out" 2>&1
st=$?
ok $st "store: runs.limits holds each run's verdicts, in run order"
[ $st -eq 0 ] || diag "$TMP/store.out"

# Four flows, each with an 8K -S: the receive window, with how the flows
# split; --json has each flow's shares under local.limiter (docs/why.md).
scenario flows4 "receive window" "$LAB" -t TCP_STREAM -- -n 4 -S 8K
jq_py "$TMP/flows4.json" "j['limits'][0]['evidence']" |
	grep -qE "rwnd-limited over 4 flows \((alike|flow [0-3] at [0-9]+ %, the others [0-9-]+ %)(, [0-9]+-[0-9]+ %)?\), remote SO_RCVBUF .* \(set by -S 8K\)"
st=$?
ok $st "flows4: the evidence gives the 4 flows' split and the remote buffer"
[ $st -eq 0 ] || jq_py "$TMP/flows4.json" "j['limits'][0]['evidence']"| sed 's/^/# /'
jq_py "$TMP/flows4.json" "sorted(f['flow'] for f in j['local']['limiter']['flows']) == [0, 1, 2, 3] and all(f['rwnd_pct'] >= 0 and f['busy_us'] > 0 for f in j['local']['limiter']['flows']) and j['local']['limiter']['flows_more'] is None" | grep -qx True
ok $? "flows4: --json's local.limiter lists the 4 flows with their rwnd share"
"$TUNETOP" run --lab "$LAB" -l 1 -t TCP_STREAM -- -n 4 -S 8K >"$TMP/flows4.out" 2>&1
sed -n '/^What limits this run/,$p' "$TMP/flows4.out" | sed -n 2p |
	grep -q "^  1\. receive window: .* over 4 flows ("
st=$?
ok $st "flows4: the human verdict line carries the split"
[ $st -eq 0 ] || diag "$TMP/flows4.out"

# The human output prints the verdicts last, numbered, after the figures.
"$TUNETOP" run --lab "$LAB" -l 1 -t TCP_RR >"$TMP/human.out" 2>"$TMP/human.err"
ok $? "human: run exits 0"
sed -n '/^What limits this run/,$p' "$TMP/human.out" >"$TMP/human.why"
head -n 1 "$TMP/human.why" | grep -q "^What limits this run (best first; docs/why.md):$" &&
	sed -n 2p "$TMP/human.why" | grep -q "^  1\. latency bound: " &&
	! sed 1d "$TMP/human.why" | grep -qv "^  [0-9]\. " &&
	[ "$(grep -n '^What limits' "$TMP/human.out" | cut -d: -f1)" -gt \
	  "$(grep -n '^Counts agree' "$TMP/human.out" | cut -d: -f1)" ]
st=$?
ok $st "human: 'What limits this run' last, after the figures, verdicts numbered"
[ $st -eq 0 ] || diag "$TMP/human.out"

# What moved: the same RR with -b 7 against the rr scenario's run (the
# fourth kept: a scenario run again for a busy CPU shifts the ids).
rr_id=$(sed -n 4p "$TMP/kept")
"$TUNETOP" run --lab "$LAB" -l 2 -t TCP_RR -- -b 7 >"$TMP/b7.out" 2>&1
ok $? "burst: an RR with -b 7 exits 0"
last=$(python3 -c 'import sqlite3,sys; print(sqlite3.connect(sys.argv[1]).execute("SELECT max(id) FROM runs").fetchone()[0])' "$TUNETOP_DB")
"$TUNETOP" runs diff "$rr_id" "$last" >"$TMP/diff.out" 2>&1 &&
	sed -n '/^What moved with it/,$p' "$TMP/diff.out" | sed -n 2,3p |
	grep -q "^  [12]\. transactions in flight (rate x latency): [0-9.]* -> [0-9.]* "
st=$?
# (NET_RX per transaction may fall as far with it, batching: among the two largest)
ok $st "burst: runs diff names the transactions in flight among the two largest"
[ $st -eq 0 ] || diag "$TMP/diff.out"
# Both ends of a lab run on this host: every stored run names it for both
# ends, and a host-wide row (NET_RX, softirq share) is named once for it.
python3 -c '
import json, socket, sqlite3, sys
docs = [json.loads(r[0]) for r in sqlite3.connect(sys.argv[1]).execute("SELECT result FROM runs")]
h = socket.gethostname()
sys.exit(not docs or any(d["local"].get("host") != h or d["remote"].get("host") != h for d in docs))
' "$TUNETOP_DB" &&
	! grep -qE "(NET_RX per transaction|softirq share), (local|remote) (end|host)" "$TMP/diff.out"
st=$?
ok $st "burst: the stored runs name this host for both ends; host-wide rows named once"
[ $st -eq 0 ] || diag "$TMP/diff.out"

# What moved with a GRO flip: TSO and GSO off on the sender, the receiver's
# GRO off, then on.  TCP_INFO counts wire segments either way; only the
# capture shows what GRO merged, and it must come first (docs/why.md).
"$TUNETOP" knobs list --side lab-b --lab "$LAB" >"$TMP/knobs-b.out" 2>&1 &&
	grep -qE "^gro +offloads +device +(on|off)$" "$TMP/knobs-b.out"
st=$?
ok $st "gro: the lab's receiver (veth-b) has a GRO state to flip"
[ $st -eq 0 ] || diag "$TMP/knobs-b.out"
for g in off on; do
	"$TUNETOP" run --lab "$LAB" -t TCP_STREAM -l 2 --capture --set tso=off --set gso=off \
		--set remote:gro=$g >"$TMP/gro-$g.out" 2>&1
	ok $? "gro: a stream with the receiver's GRO $g exits 0"
done
off=$(sed -n 's/^Stored as run \([0-9]*\)$/\1/p' "$TMP/gro-off.out")
on=$(sed -n 's/^Stored as run \([0-9]*\)$/\1/p' "$TMP/gro-on.out")
"$TUNETOP" runs diff "$off" "$on" >"$TMP/diff-gro.out" 2>&1
ok $? "gro: runs diff $off $on exits 0"
sed -n '/^Knobs that differ/,/^figure/p' "$TMP/diff-gro.out" | grep -qx "  remote gro: off -> on"
st=$?
ok $st "gro: runs diff names the receiver's GRO among the knobs that differ"
sed -n '/^What moved with it/,$p' "$TMP/diff-gro.out" | sed -n 2p |
	grep -q "^  1\. segment size received, remote end (capture): [0-9]* -> [0-9]* B (+[0-9]* %), "
st2=$?
ok $st2 "gro: the receiver's segment size is the first mechanism that moved"
[ $st -eq 0 ] && [ $st2 -eq 0 ] || { diag "$TMP/diff-gro.out"; diag "$TMP/gro-on.out"; }

"$TUNETOP" lab down "$LAB" "$LAB_TBF" >/dev/null 2>&1
ok $? "lab down"
done_testing
