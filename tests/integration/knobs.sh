#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Knobs: read on the host, set only inside a lab of the test's own, journal,
# restore after SIGKILL, and host values never changed.
. "$(dirname "$0")/lib.sh"

need_root "the knob tests"

isolated_state
name="ttknobs-$$"
A="$name-a"

labdown() {
	"$TUNETOP" lab down "$name" >/dev/null 2>&1 || true
}
trap 'labdown; cleanup' EXIT

# Host values this test must leave as they are.
host_reo=$(sysctl -n net.ipv4.tcp_reordering)
host_sack=$(sysctl -n net.ipv4.tcp_sack)
host_dev=$(ip route show default | sed -n 's/.* dev \([^ ]*\).*/\1/p' | head -1)
host_k=$(ethtool -k "$host_dev" 2>/dev/null)

"$TUNETOP" lab up --name "$name" >"$TMP/up" 2>&1
ok $? "lab up --name $name"

# Reading the host changes nothing and shows the real NIC's coalescing.
"$TUNETOP" knobs list >"$TMP/hl" 2>&1
ok $? "knobs list on the host exits 0"
grep -q "^# side local, device $host_dev" "$TMP/hl"
ok $? "it reads the default route's device ($host_dev)"
if ethtool -c "$host_dev" >/dev/null 2>&1; then
	want=$(ethtool -c "$host_dev" | sed -n 's/^rx-usecs:[[:space:]]*//p')
	grep -Eq "^rx-usecs +coalescing +device +$want us$" "$TMP/hl"
	ok $? "host coalescing on $host_dev: rx-usecs $want, as ethtool -c says"
else
	grep -Eq "^rx-usecs +coalescing +device +n/a \(" "$TMP/hl"
	ok $? "host coalescing on $host_dev is n/a, as ethtool -c fails"
fi
grep -Eq "^net.ipv4.tcp_reordering +sysctls +netns +$host_reo packets$" "$TMP/hl"
ok $? "the host's tcp_reordering reads $host_reo"
"$TUNETOP" knobs list --json >"$TMP/hl.json" 2>>"$TMP/stderr" &&
	python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); k={x["name"]:x for x in d["knobs"]}; sys.exit(0 if k["net.ipv4.tcp_sack"]["value"] in ("on","off") and len(k) > 60 else 1)' "$TMP/hl.json"
ok $? "knobs list --json is one document with every knob"

# Link figures on the host: read as ethtool shows them, and never settable.
"$TUNETOP" knobs get speed duplex link-detected >"$TMP/lk" 2>&1
ok $? "knobs get speed duplex link-detected on the host: $(tr '\n' ' ' <"$TMP/lk")"
ethtool "$host_dev" >"$TMP/et" 2>/dev/null
if grep -q "Speed: Unknown!" "$TMP/et"; then
	grep -Eq "^speed: n/a \(.*speed not reported\)$" "$TMP/lk"
	ok $? "speed is n/a with the reason, as ethtool says Unknown!"
else
	want=$(sed -n 's/^[[:space:]]*Speed: \([0-9]*\)Mb\/s$/\1/p' "$TMP/et")
	grep -q "^speed: $want$" "$TMP/lk"
	ok $? "speed reads $want, as ethtool says"
fi
if grep -q "Link detected: yes" "$TMP/et"; then want=on; else want=off; fi
grep -q "^link-detected: $want$" "$TMP/lk"
ok $? "link-detected reads $want, as ethtool says"
grep -Eq "^duplex: (half|full|n/a \(.*duplex not reported\))$" "$TMP/lk"
ok $? "duplex reads half, full or n/a with the reason"
"$TUNETOP" knobs set speed=1000 duplex=full >"$TMP/o" 2>&1
rc=$?
[ $rc -eq 2 ] && grep -q "^speed: read-only (a link figure)$" "$TMP/o" &&
	grep -q "^duplex: read-only (a link figure)$" "$TMP/o"
ok $? "knobs set speed=1000 duplex=full is refused before anything is tried (exit 2): $(tr '\n' ' ' <"$TMP/o")"
ethtool "$host_dev" 2>/dev/null | cmp -s - "$TMP/et" && [ ! -s "$TMP/state/journal" ]
ok $? "and the host NIC's link settings are unchanged, nothing journaled"

# Host knob set only to exactly its current value.
cur=$(sysctl -n net.ipv4.tcp_sack)
"$TUNETOP" knobs set "net.ipv4.tcp_sack=$cur" >"$TMP/o" 2>&1
rc=$?
[ $rc -eq 0 ] && [ "$(sysctl -n net.ipv4.tcp_sack)" = "$host_sack" ]
ok $? "host tcp_sack set to its own value ($cur) succeeds and is unchanged: $(cat "$TMP/o")"
[ ! -s "$TMP/state/journal" ]
ok $? "setting a knob to the value it has journals nothing"

# Lab sysctl: set inside, host unchanged.
reo0=$(ip netns exec "$A" sysctl -n net.ipv4.tcp_reordering)
lowat0=$(ip netns exec "$name-b" sysctl -n net.ipv4.tcp_notsent_lowat)
"$TUNETOP" knobs set --side lab-a --lab "$name" net.ipv4.tcp_reordering=10 >"$TMP/o" 2>&1
ok $? "knobs set --side lab-a net.ipv4.tcp_reordering=10: $(cat "$TMP/o")"
[ "$(ip netns exec "$A" sysctl -n net.ipv4.tcp_reordering)" = 10 ]
ok $? "inside $A tcp_reordering is 10"
[ "$(sysctl -n net.ipv4.tcp_reordering)" = "$host_reo" ]
ok $? "the host's tcp_reordering is still $host_reo"
grep -q "^net.ipv4.tcp_reordering: $reo0 -> 10$" "$TMP/o"
ok $? "the set says before -> after"

# gro and tso on veth-a, confirmed by ethtool -k inside the namespace.
gro0=$(ip netns exec "$A" ethtool -k veth-a | sed -n 's/^generic-receive-offload: \([a-z]*\).*/\1/p')
tso0=$(ip netns exec "$A" ethtool -k veth-a | sed -n 's/^\ttx-tcp-segmentation: \([a-z]*\).*/\1/p')
[ "$gro0" = on ] && gro1=off || gro1=on
[ "$tso0" = on ] && tso1=off || tso1=on
"$TUNETOP" knobs set --side lab-a --lab "$name" gro=$gro1 tso=$tso1 >"$TMP/o" 2>&1
ok $? "gro=$gro1 tso=$tso1 on veth-a: $(tr '\n' ' ' <"$TMP/o")"
ip netns exec "$A" ethtool -k veth-a >"$TMP/k"
grep -q "^generic-receive-offload: $gro1" "$TMP/k"
ok $? "ethtool -k veth-a in $A: generic-receive-offload $gro1"
grep -q "^	tx-tcp-segmentation: $tso1" "$TMP/k" && grep -q "^	tx-tcp6-segmentation: $tso1" "$TMP/k"
ok $? "ethtool -k veth-a in $A: every TSO bit $tso1"
[ "$(ethtool -k "$host_dev" 2>/dev/null)" = "$host_k" ]
ok $? "the host device's offloads are unchanged"

# veth coalescing is n/a; an out-of-range value is refused, nothing changed.
"$TUNETOP" knobs list --side lab-a --lab "$name" >"$TMP/ll" 2>&1
grep -Eq "^rx-usecs +coalescing +device +n/a \(veth" "$TMP/ll"
ok $? "veth coalescing shows n/a in knobs list: $(grep '^rx-usecs ' "$TMP/ll")"
grep -Eq "^net.core.busy_poll .*n/a \(host-only" "$TMP/ll"
ok $? "a host-only knob is n/a on a lab side"
cp "$TMP/state/journal" "$TMP/j.before"
"$TUNETOP" knobs set --side lab-a --lab "$name" net.ipv4.tcp_reordering=20 rx-usecs=70000 >"$TMP/o" 2>"$TMP/e"
rc=$?
[ $rc -eq 2 ] && grep -q "rx-usecs 70000" "$TMP/e" && grep -q "0..65535" "$TMP/e"
ok $? "rx-usecs=70000 refused with exit 2 naming what is accepted: $(cat "$TMP/e")"
[ "$(ip netns exec "$A" sysctl -n net.ipv4.tcp_reordering)" = 10 ] && cmp -s "$TMP/j.before" "$TMP/state/journal"
ok $? "and nothing was applied or journaled (tcp_reordering still 10)"
"$TUNETOP" knobs set --side lab-a --lab "$name" rx-usecs=64 >"$TMP/o" 2>&1
[ $? -eq 1 ] && grep -q "^rx-usecs: .*n/a" "$TMP/o"
ok $? "setting veth coalescing fails with exit 1 and says n/a: $(cat "$TMP/o")"
"$TUNETOP" knobs set --side lab-a --lab "$name" net.core.busy_poll=50 >"$TMP/o" 2>&1
[ $? -eq 1 ] && grep -q "host-only" "$TMP/o"
ok $? "a host-only knob on a lab side is refused: $(cat "$TMP/o")"
"$TUNETOP" knobs set --side remote rx-usecs=1 >"$TMP/o" 2>"$TMP/e"
[ $? -eq 2 ] && grep -q "\-\-side remote needs -H HOST" "$TMP/e"
ok $? "--side remote without -H is a clear refusal (remote-knobs.sh tests the rest)"
"$TUNETOP" knobs get --side lab-b net.ipv4.tcp_reordering >"$TMP/o" 2>"$TMP/e"
[ $? -eq 2 ] && grep -q -- "--lab NAME" "$TMP/e"
ok $? "a lab side without --lab is refused"

# Second change of a knob keeps the first original in the journal.
"$TUNETOP" knobs set --side lab-a --lab "$name" net.ipv4.tcp_reordering=12 mtu=9000 >"$TMP/o" 2>&1
ok $? "a second change of tcp_reordering and mtu=9000: $(tr '\n' ' ' <"$TMP/o")"
grep -q "^lab-a $name - net.ipv4.tcp_reordering - [0-9]* [0-9]* [0-9]* [^ ]* $reo0$" "$TMP/state/journal"
ok $? "the journal still holds the first original ($reo0)"
ip netns exec "$A" ip link show veth-a | grep -q "mtu 9000"
ok $? "veth-a's MTU is 9000 inside $A"
"$TUNETOP" knobs set --side lab-a --lab "$name" lab-rate=1gbit >"$TMP/o" 2>&1
ok $? "lab-rate=1gbit: $(cat "$TMP/o")"
ip netns exec "$A" tc qdisc show dev veth-a | grep -q "tbf .*rate 1Gbit" &&
	ip netns exec "$name-b" tc qdisc show dev veth-b | grep -q "tbf .*rate 1Gbit"
ok $? "both veth ends have a 1 Gbit/s tbf, as tc shows inside the namespaces"

# Snapshots and diff.
"$TUNETOP" knobs snapshot --json --side lab-a --lab "$name" >"$TMP/s1.json" 2>>"$TMP/stderr"
ok $? "snapshot --json of lab-a"
"$TUNETOP" knobs snapshot --json --side lab-b --lab "$name" >"$TMP/s2.json" 2>>"$TMP/stderr"
"$TUNETOP" knobs diff "$TMP/s2.json" "$TMP/s1.json" >"$TMP/d" 2>&1
grep -q "^net.ipv4.tcp_reordering: $reo0 -> 12$" "$TMP/d" && grep -q "^gro: $gro0 -> $gro1$" "$TMP/d" &&
	grep -q "^mtu: 1500 -> 9000$" "$TMP/d" && ! grep -q "^net.ipv4.tcp_sack" "$TMP/d"
ok $? "knobs diff lab-b lab-a names exactly what was changed: $(tr '\n' ' ' <"$TMP/d")"

# kill -9 between a set and the restore: a session that changed knobs and
# is killed (it never restores), and a set killed wherever it happens to be.
( "$TUNETOP" knobs set --side lab-b --lab "$name" net.ipv4.tcp_notsent_lowat=16384 \
	net.ipv4.tcp_slow_start_after_idle=off >"$TMP/o" 2>&1; echo set >"$TMP/set.done"; exec sleep 60 ) &
kpid=$!
for _ in $(seq 100); do
	[ -e "$TMP/set.done" ] && break
	sleep 0.1
done
kill -9 $kpid
wait $kpid 2>/dev/null
[ "$(ip netns exec "$name-b" sysctl -n net.ipv4.tcp_slow_start_after_idle)" = 0 ] &&
	[ "$(ip netns exec "$name-b" sysctl -n net.ipv4.tcp_notsent_lowat)" = 16384 ]
ok $? "lab-b's changes stay after the session is killed with SIGKILL"
"$TUNETOP" knobs set --side lab-b --lab "$name" net.ipv4.tcp_autocorking=off >/dev/null 2>&1 &
kpid=$!
sleep 0.0$(($$ % 10))
kill -9 $kpid 2>/dev/null
wait $kpid 2>/dev/null
"$TUNETOP" restore >"$TMP/r" 2>&1
ok $? "tunetop restore: $(tr '\n' ' ' <"$TMP/r")"
[ "$(ip netns exec "$A" sysctl -n net.ipv4.tcp_reordering)" = "$reo0" ] &&
	[ "$(ip netns exec "$name-b" sysctl -n net.ipv4.tcp_slow_start_after_idle)" = 1 ] &&
	[ "$(ip netns exec "$name-b" sysctl -n net.ipv4.tcp_notsent_lowat)" = "$lowat0" ] &&
	[ "$(ip netns exec "$name-b" sysctl -n net.ipv4.tcp_autocorking)" = 1 ]
ok $? "every sysctl is back (tcp_reordering $reo0, slow_start_after_idle 1, notsent_lowat $lowat0, autocorking 1)"
ip netns exec "$A" ethtool -k veth-a >"$TMP/k"
grep -q "^generic-receive-offload: $gro0" "$TMP/k" && grep -q "^	tx-tcp-segmentation: $tso0" "$TMP/k"
ok $? "gro ($gro0) and tso ($tso0) are back on veth-a"
ip netns exec "$A" ip link show veth-a | grep -q "mtu 1500 "
ok $? "veth-a's MTU is back to 1500"
! ip netns exec "$A" tc qdisc show dev veth-a | grep -q tbf &&
	! ip netns exec "$name-b" tc qdisc show dev veth-b | grep -q tbf
ok $? "the lab's rate limit is gone again on both ends"
[ ! -s "$TMP/state/journal" ]
ok $? "the journal is empty"
"$TUNETOP" restore >"$TMP/r2" 2>&1
[ $? -eq 0 ] && grep -q "no changed knob to restore" "$TMP/r2"
ok $? "restore twice is a no-op: $(tr '\n' ' ' <"$TMP/r2")"

# tunetop run --set: knobs changed for one run, put back at its clean
# end (also after SIGTERM), kept with --keep.
gro_b=$(ip netns exec "$name-b" ethtool -k veth-b | sed -n 's/^generic-receive-offload: \([a-z]*\).*/\1/p')
[ "$gro_b" = on ] && want_gro=off || want_gro=on
"$TUNETOP" run --lab "$name" -t TCP_RR -l 1 --set "remote:gro=$want_gro" \
	--set net.ipv4.tcp_reordering=11 --json >"$TMP/rs.json" 2>"$TMP/rs.err"
ok $? "run --set remote:gro=$want_gro --set net.ipv4.tcp_reordering=11 runs"
python3 - "$TMP/rs.json" "$want_gro" <<'PY'
import json, sys
k = json.load(open(sys.argv[1]))["knobs"]
loc = {x["name"]: x.get("value") for x in k["local"]["knobs"]}
rem = {x["name"]: x.get("value") for x in k["remote"]["knobs"]}
assert rem["gro"] == sys.argv[2] and loc["net.ipv4.tcp_reordering"] == "11", (rem["gro"], loc["net.ipv4.tcp_reordering"])
PY
ok $? "the run's knob snapshot shows the values it ran with"
[ "$(ip netns exec "$name-b" ethtool -k veth-b | sed -n 's/^generic-receive-offload: \([a-z]*\).*/\1/p')" = "$gro_b" ] &&
	[ "$(ip netns exec "$A" sysctl -n net.ipv4.tcp_reordering)" = "$reo0" ] && [ ! -s "$TMP/state/journal" ]
ok $? "after the run both are back ($gro_b, $reo0) and the journal is empty"
"$TUNETOP" run --lab "$name" -t TCP_RR -l 1 --json >"$TMP/rs2.json" 2>/dev/null
"$TUNETOP" knobs diff "$TMP/rs2.json:remote" "$TMP/rs.json:remote" >"$TMP/rd" 2>&1
grep -q "^gro: $gro_b -> $want_gro$" "$TMP/rd" && [ "$(grep -c . "$TMP/rd")" -eq 1 ]
ok $? "knobs diff of two runs' remote ends names the knob flipped between them: $(tr '\n' ' ' <"$TMP/rd")"
"$TUNETOP" knobs diff "$TMP/rs.json:local" "$TMP/rs.json:remote" >"$TMP/rd2" 2>&1
grep -q "^net.ipv4.tcp_reordering: 11 -> $reo0$" "$TMP/rd2" && grep -q "^gro: " "$TMP/rd2"
ok $? "and of one run's two ends: $(tr '\n' ' ' <"$TMP/rd2")"
# Issue 26: --set both:NAME=VALUE (the plan module's setting, as sweeps
# take it) sets the knob on each end for the run and puts both back.
reo_b=$(ip netns exec "$name-b" sysctl -n net.ipv4.tcp_reordering)
"$TUNETOP" run --lab "$name" -t TCP_RR -l 1 --set both:net.ipv4.tcp_reordering=12 \
	--json >"$TMP/rb.json" 2>"$TMP/rb.err"
ok $? "run --set both:net.ipv4.tcp_reordering=12 runs: $(head -1 "$TMP/rb.err")"
python3 - "$TMP/rb.json" <<'PY'
import json, sys
k = json.load(open(sys.argv[1]))["knobs"]
v = [{x["name"]: x.get("value") for x in k[e]["knobs"]}["net.ipv4.tcp_reordering"] for e in ("local", "remote")]
assert v == ["12", "12"], v
PY
ok $? "the run's snapshot has 12 on both ends"
[ "$(ip netns exec "$A" sysctl -n net.ipv4.tcp_reordering)" = "$reo0" ] &&
	[ "$(ip netns exec "$name-b" sysctl -n net.ipv4.tcp_reordering)" = "$reo_b" ] && [ ! -s "$TMP/state/journal" ]
ok $? "after it both ends are back ($reo0, $reo_b) and the journal is empty"
"$TUNETOP" run --lab "$name" -t TCP_RR -l 1 --set both:speed=1000 >"$TMP/rro.txt" 2>&1
[ $? -eq 2 ] && [ "$(grep -c . "$TMP/rro.txt")" -eq 1 ] &&
	grep -q "^tunetop run: --set speed: read-only (a link figure); accepted: a knob that can be set$" "$TMP/rro.txt"
ok $? "a read-only knob is refused before the run, with the backend's reason: $(cat "$TMP/rro.txt")"
"$TUNETOP" run --lab "$name" -t TCP_RR -l 20 --set net.ipv4.tcp_reordering=13 >"$TMP/rt.txt" 2>&1 &
rp=$!
for _ in $(seq 50); do
	[ "$(ip netns exec "$A" sysctl -n net.ipv4.tcp_reordering)" = 13 ] && break
	sleep 0.1
done
sleep 0.5
"$TUNETOP" restore >"$TMP/rh.txt" 2>&1
rc=$?
[ $rc -eq 0 ] && grep -q "1 value held by tunetop runs still going" "$TMP/rh.txt" &&
	[ "$(ip netns exec "$A" sysctl -n net.ipv4.tcp_reordering)" = 13 ]
ok $? "tunetop restore during that run leaves its knob to it (exit $rc: $(tr '\n' ' ' <"$TMP/rh.txt"))"
kill -TERM $rp
wait $rp
[ "$(ip netns exec "$A" sysctl -n net.ipv4.tcp_reordering)" = "$reo0" ] && [ ! -s "$TMP/state/journal" ]
ok $? "SIGTERM during a run with --set: the knob is put back"
"$TUNETOP" run --lab "$name" -t TCP_RR -l 1 --set net.ipv4.tcp_reordering=14 --keep >"$TMP/rk.txt" 2>&1
[ "$(ip netns exec "$A" sysctl -n net.ipv4.tcp_reordering)" = 14 ] && grep -q "kept (--keep)" "$TMP/rk.txt" &&
	grep -q "net.ipv4.tcp_reordering" "$TMP/state/journal"
ok $? "--keep leaves it changed, journaled"
"$TUNETOP" knobs restore >/dev/null 2>&1
[ "$(ip netns exec "$A" sysctl -n net.ipv4.tcp_reordering)" = "$reo0" ]
ok $? "and knobs restore puts it back"
"$TUNETOP" run --lab "$name" -t TCP_RR -l 1 --set rx-usecs=70000 >"$TMP/o" 2>"$TMP/e"
[ $? -eq 2 ] && grep -q "accepted is 0..65535" "$TMP/e" && [ ! -s "$TMP/state/journal" ]
ok $? "run --set with an out-of-range value: exit 2 before anything runs or changes"

# A journaled value of a lab that is gone is dropped, not an error.
"$TUNETOP" knobs set --side lab-a --lab "$name" net.ipv4.tcp_reordering=9 >/dev/null 2>&1
"$TUNETOP" lab down "$name" >/dev/null 2>&1
ok $? "lab down $name"
"$TUNETOP" knobs restore >"$TMP/r3" 2>&1
[ $? -eq 0 ] && grep -q "dropped 1 journaled value" "$TMP/r3"
ok $? "knobs restore drops the gone lab's entry: $(tr '\n' ' ' <"$TMP/r3")"

[ "$(sysctl -n net.ipv4.tcp_reordering)" = "$host_reo" ] && [ "$(sysctl -n net.ipv4.tcp_sack)" = "$host_sack" ]
ok $? "host sysctls unchanged at the end"
done_testing
