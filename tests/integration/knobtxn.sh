#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Knob transactions (docs/HACKING.md): a sweep, an A/B or a run over a knob
# that `knobs set` changed keeps its original for `knobs restore`; two runs
# that want one knob at once: the second is refused naming the first, or
# waits with --wait; both runs' stored knobs are what they ran with.
. "$(dirname "$0")/lib.sh"

need_root "the knob transaction tests"

isolated_state
name="tttxn-$$"
A="$name-a"
B="$name-b"
K=net.ipv4.tcp_reordering
J="$TMP/state/journal"

labdown() {
	"$TUNETOP" lab down "$name" >/dev/null 2>&1 || true
}
trap 'labdown; cleanup' EXIT

bval() {
	ip netns exec "$B" sysctl -n $K
}

# jline: the journal's line for $K on lab-b, if any.
jline() {
	grep "^lab-b $name - $K " "$J" 2>/dev/null
}

"$TUNETOP" lab up --name "$name" >"$TMP/up" 2>&1
ok $? "lab up --name $name"
reo0=$(bval)

# 1. knobs set, then a sweep over the same knob: its original stays.
"$TUNETOP" knobs set --side lab-b --lab "$name" $K=5 >"$TMP/o" 2>&1
[ $? -eq 0 ] && [ "$(bval)" = 5 ] && jline | grep -q " 0 0 0 - $reo0\$"
ok $? "knobs set $K=5 on lab-b: journaled ($reo0), held by nobody: $(cat "$J")"
"$TUNETOP" sweep knob remote:$K=3,10 --lab "$name" -l 1 >"$TMP/sw" 2>&1
ok $? "a sweep over remote:$K=3,10 runs"
[ "$(bval)" = 5 ]
ok $? "the sweep puts back the value it found (5), not the journal's original: $(bval)"
jline | grep -q " 0 0 0 - $reo0\$"
ok $? "the journal still holds the original $reo0, unheld: $(cat "$J" 2>/dev/null)"

# The same with an A/B and with run --set.
"$TUNETOP" ab --a remote:$K=7 --b remote:$K=9 -n 3 -l 0.5 --lab "$name" >"$TMP/ab" 2>&1
[ $? -eq 0 ] && [ "$(bval)" = 5 ] && jline | grep -q " 0 0 0 - $reo0\$"
ok $? "an A/B over it: back to 5, original $reo0 still journaled"
"$TUNETOP" run --lab "$name" -l 1 --set remote:$K=8 >"$TMP/r" 2>&1
[ $? -eq 0 ] && grep -q "^Knob $K on lab-b: 5 -> 8" "$TMP/r" &&
	[ "$(bval)" = 5 ] && jline | grep -q " 0 0 0 - $reo0\$"
ok $? "a run --set over it: 5 -> 8, back to 5, original $reo0 still journaled"
"$TUNETOP" knobs restore >"$TMP/o" 2>&1
[ $? -eq 0 ] && grep -q "restored 1 knob value" "$TMP/o" && [ "$(bval)" = "$reo0" ] && [ ! -s "$J" ]
ok $? "knobs restore brings back $reo0 and empties the journal: $(cat "$TMP/o")"

# 2. Two runs that want one knob at once.
"$TUNETOP" run --lab "$name" -l 5 --set remote:$K=11 --json >"$TMP/a.json" 2>"$TMP/a.err" &
apid=$!
for _ in $(seq 50); do
	[ "$(bval)" = 11 ] && break
	sleep 0.1
done
[ "$(bval)" = 11 ] && jline | grep -q " $apid [0-9]* [0-9]* tunetop_run $reo0\$"
ok $? "run A holds $K=11, its pid $apid in the journal: $(cat "$J" 2>/dev/null)"
"$TUNETOP" run --lab "$name" -l 1 --set remote:$K=12 >"$TMP/b" 2>&1
rc=$?
[ $rc -eq 1 ] && grep -q "$K.*held by tunetop run (pid $apid)" "$TMP/b" && [ "$(wc -l <"$TMP/b")" -eq 1 ]
ok $? "run B is refused in one line naming run A (rc $rc): $(cat "$TMP/b")"
[ "$(bval)" = 11 ] && jline | grep -q " $apid "
ok $? "and A's value and journal entry are untouched"
"$TUNETOP" run --lab "$name" -l 1 --wait --set remote:$K=12 --json >"$TMP/c.json" 2>"$TMP/c.err" &
cpid=$!
sleep 1
[ "$(bval)" = 11 ] && kill -0 $cpid 2>/dev/null
ok $? "run C with --wait waits while A holds the knob"
wait $apid
arc=$?
wait $cpid
crc=$?
[ $arc -eq 0 ] && [ $crc -eq 0 ]
ok $? "both runs succeed (A $arc, C $crc): $(cat "$TMP/a.err" "$TMP/c.err")"
[ "$(bval)" = "$reo0" ] && [ ! -s "$J" ]
ok $? "afterwards $K is $reo0 again and the journal is empty"
python3 - "$TMP/a.json" "$TMP/c.json" "$K" <<'PY'
import json, sys
def remote(path):
    d = json.load(open(path))
    return {k["name"]: k["value"] for k in d["knobs"]["remote"]["knobs"]}[sys.argv[3]]
a, c = remote(sys.argv[1]), remote(sys.argv[2])
print("# A ran with", a, "C with", c)
sys.exit(0 if (a, c) == ("11", "12") else 1)
PY
ok $? "the runs' stored knobs are true: A ran with 11, C with 12"

# ^C while waiting gives up with one line and changes nothing.
"$TUNETOP" run --lab "$name" -l 3 --set remote:$K=13 >/dev/null 2>&1 &
apid=$!
for _ in $(seq 50); do
	[ "$(bval)" = 13 ] && break
	sleep 0.1
done
"$TUNETOP" run --lab "$name" -l 1 --wait --set remote:$K=14 >"$TMP/w" 2>&1 &
wpid=$!
sleep 0.5
kill -INT $wpid
wait $wpid
rc=$?
[ $rc -ne 0 ] && grep -q "interrupted while waiting for tunetop run (pid $apid)" "$TMP/w" && [ "$(bval)" = 13 ]
ok $? "SIGINT while --wait waits: rc $rc, one line, A's value kept: $(cat "$TMP/w")"
wait $apid
[ "$(bval)" = "$reo0" ] && [ ! -s "$J" ]
ok $? "and A puts its knob back when it ends"

# knobs set on a knob a live run holds is refused too.
"$TUNETOP" run --lab "$name" -l 3 --set remote:$K=15 >/dev/null 2>&1 &
apid=$!
for _ in $(seq 50); do
	[ "$(bval)" = 15 ] && break
	sleep 0.1
done
"$TUNETOP" knobs set --side lab-b --lab "$name" $K=16 >"$TMP/o" 2>&1
[ $? -eq 1 ] && grep -q "held by tunetop run (pid $apid)" "$TMP/o" && [ "$(bval)" = 15 ]
ok $? "knobs set of a held knob is refused: $(cat "$TMP/o")"
"$TUNETOP" restore >"$TMP/o" 2>&1
[ "$(bval)" = 15 ] && grep -q "held" "$TMP/o"
ok $? "tunetop restore leaves a live run's knob alone: $(cat "$TMP/o")"
wait $apid
[ "$(bval)" = "$reo0" ] && [ ! -s "$J" ]
ok $? "which puts it back itself"

done_testing
