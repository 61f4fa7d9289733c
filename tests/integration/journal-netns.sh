#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The journal knows where a change was made (docs/HACKING.md, "The life of a
# knob change"): a `knobs set` inside a lab's namespace, and a tunetopd
# --knobs inside one (named, and nameless) killed while it holds a knob, are
# put back there by `tunetop restore` run on the host; a namespace that is
# gone keeps its entry and says why, on every restore.  Knobs change only
# inside this test's namespaces; the host's value is checked unchanged.
. "$(dirname "$0")/lib.sh"

need_root "the journal's namespace tests"
isolated_state
name="ttjn-$$"
A="$name-a"
B="$name-b"
P="ttjn-$$-p"
K=net.ipv4.tcp_reordering
SHPID=""

teardown() {
	for p in $PIDS $SHPID; do
		kill -9 "$p" 2>/dev/null || true
	done
	for p in $PIDS $SHPID; do
		wait "$p" 2>/dev/null || true
	done
	PIDS=""
	"$TUNETOP" lab down "$name" >/dev/null 2>&1 || true
	ip netns delete "$P" 2>/dev/null || true
}
trap 'teardown; cleanup' EXIT

host0=$(sysctl -n $K)
J="$TUNETOP_STATE_DIR/journal"

# nsx NS CMD...: CMD inside namespace NS (not for `&`: $! would be a subshell).
nsx() {
	ns=$1
	shift
	ip netns exec "$ns" "$@"
}

# restore OUT: tunetop restore on the host into OUT; its exit status in RC.
restore() {
	"$TUNETOP" restore >"$1" 2>&1
	RC=$?
}

"$TUNETOP" lab up --name "$name" >"$TMP/up" 2>&1
ok $? "lab up --name $name"
[ $? -eq 0 ] || { diag "$TMP/up"; done_testing; exit 1; }
b0=$(nsx "$B" sysctl -n $K)
a0=$(nsx "$A" sysctl -n $K)

# (a) The issue's repro: knobs set inside side b, restore from the host.
nsx "$B" "$TUNETOP" knobs set $K=13 >"$TMP/set" 2>&1 && [ "$(nsx "$B" sysctl -n $K)" = 13 ]
ok $? "ip netns exec $B tunetop knobs set $K=13: side b reads 13"
grep -q "^local - - $K [0-9]*:[0-9]*:[0-9]*:$B 0 0 0 - $b0\$" "$J"
ok $? "the journal entry names the namespace $B and the original $b0: $(tail -1 "$J" 2>/dev/null)"
restore "$TMP/r1"
[ $RC -eq 0 ] && grep -q "restored 1 knob value" "$TMP/r1" && [ "$(nsx "$B" sysctl -n $K)" = "$b0" ] &&
	[ ! -s "$J" ]
ok $? "tunetop restore on the host puts $b0 back in $B (rc $RC): now $(nsx "$B" sysctl -n $K)"
[ $? -eq 0 ] || diag "$TMP/r1"
[ "$(sysctl -n $K)" = "$host0" ]
ok $? "the host's own $K is untouched ($host0)"

# The same from a third namespace: an entry of side a restored from side b.
nsx "$A" "$TUNETOP" knobs set $K=17 >"$TMP/set" 2>&1
nsx "$B" "$TUNETOP" restore >"$TMP/r2" 2>&1
rc=$?
[ $rc -eq 0 ] && [ "$(nsx "$A" sysctl -n $K)" = "$a0" ] && [ "$(nsx "$B" sysctl -n $K)" = "$b0" ] &&
	[ "$(sysctl -n $K)" = "$host0" ]
ok $? "an entry of $A restored from inside $B goes back to $A, $B and the host untouched (rc $rc)"
[ $? -eq 0 ] || diag "$TMP/r2"

# An entry of the host's (a v2 file, as an older tunetop wrote) restored
# from inside side b is the host's: side b keeps its own value.  Its
# original is the host's value now, so nothing of the host changes.
nsx "$B" sysctl -qw $K=19
printf '# tunetop knob journal v2\nlocal - - %s 0 0 0 - %s\n' $K "$host0" >"$J"
nsx "$B" "$TUNETOP" restore >"$TMP/r2b" 2>&1
rc=$?
[ $rc -eq 0 ] && grep -q "restored 1 knob value" "$TMP/r2b" && [ "$(nsx "$B" sysctl -n $K)" = 19 ] &&
	[ "$(sysctl -n $K)" = "$host0" ] && [ ! -s "$J" ]
ok $? "a v2 host entry restored from inside $B goes to the host, not $B (rc $rc, $B reads $(nsx "$B" sysctl -n $K))"
[ $? -eq 0 ] || diag "$TMP/r2b"
nsx "$B" sysctl -qw $K="$b0"

# One place by two spellings: `ip netns exec $B` and `--side lab-b --lab`,
# in either order, are one entry holding the first original, and one
# restore puts it back there (two entries once restored the newer
# original last, and a lab-side spelling once moved the entry to the host).
for order in inside-first side-first; do
	if [ $order = inside-first ]; then
		nsx "$B" "$TUNETOP" knobs set $K=23 >"$TMP/s1" 2>&1
		"$TUNETOP" knobs set $K=24 --side lab-b --lab "$name" >"$TMP/s2" 2>&1
	else
		"$TUNETOP" knobs set $K=23 --side lab-b --lab "$name" >"$TMP/s1" 2>&1
		nsx "$B" "$TUNETOP" knobs set $K=24 >"$TMP/s2" 2>&1
	fi
	n=$(grep -c " $K " "$J")
	restore "$TMP/r3"
	[ "$n" -eq 1 ] && [ $RC -eq 0 ] && [ "$(nsx "$B" sysctl -n $K)" = "$b0" ] &&
		[ "$(sysctl -n $K)" = "$host0" ] && [ ! -s "$J" ]
	ok $? "$order: $K changed inside $B and as lab-b of $name is one journal entry ($n), restored to $b0 in $B (now $(nsx "$B" sysctl -n $K)), the host untouched"
	[ $? -eq 0 ] || { diag "$TMP/r3"; nsx "$B" sysctl -qw $K="$b0"; sysctl -qw $K="$host0"; }
done

# (b) tunetopd --knobs in side b, SIGKILLed while a client holds a knob.
"$TUNETOPD" --gen-key "$TMP/key" >/dev/null 2>&1
ok $? "a key written with tunetopd --gen-key"

# dkill: SIGKILL the daemon DPID and reap it.
dkill() {
	kill -9 "$DPID" 2>/dev/null
	wait "$DPID" 2>/dev/null
}

# remote_hold VALUE LOG ENTER...: tunetopd --knobs on the loopback of the
# namespace ENTER (ip netns exec NS, nsenter -t PID -n) runs in, and a client
# there holding $K=VALUE through it; sets DPID and CPID.  0 once the
# namespace reads VALUE.
remote_hold() {
	v=$1 log=$2
	shift 2
	DPORT=$(free_port)
	"$@" "$TUNETOPD" -f -L 127.0.0.1 -p "$DPORT" --knobs --key "$TMP/key" >"$log" 2>&1 &
	DPID=$!
	PIDS="$PIDS $DPID"
	wait_listening "$log" "$DPORT" || return 1
	"$@" "$TUNETOP" knobs set --side remote -H 127.0.0.1 -p "$DPORT" --key "$TMP/key" \
		--hold 60 $K="$v" >"$log.client" 2>&1 &
	CPID=$!
	PIDS="$PIDS $CPID"
	for _ in $(seq 100); do
		[ "$("$@" sysctl -n $K)" = "$v" ] && return 0
		sleep 0.1
	done
	diag "$log"
	diag "$log.client"
	return 1
}

remote_hold 21 "$TMP/d.log" ip netns exec "$B"
ok $? "a client sets $K=21 through tunetopd --knobs inside $B"
dkill
wait "$CPID" 2>/dev/null
[ "$(nsx "$B" sysctl -n $K)" = 21 ] && grep -q "^local - - $K [0-9]*:[0-9]*:[0-9]*:$B $DPID " "$J"
ok $? "tunetopd SIGKILLed: $B still reads 21, the entry names $B and the dead daemon: $(tail -1 "$J" 2>/dev/null)"
restore "$TMP/r3"
[ $RC -eq 0 ] && grep -q "restored 1 knob value" "$TMP/r3" && [ "$(nsx "$B" sysctl -n $K)" = "$b0" ] &&
	[ "$(sysctl -n $K)" = "$host0" ] && [ ! -s "$J" ]
ok $? "tunetop restore on the host puts $b0 back in $B, the host untouched (rc $RC)"
[ $? -eq 0 ] || diag "$TMP/r3"

# The same in a namespace without a name: found through the shell still in it.
unshare -n sh -c 'ip link set lo up; exec sleep 600' &
SHPID=$!
for _ in $(seq 100); do
	[ "$(cat /proc/$SHPID/comm 2>/dev/null)" = sleep ] && break	# lo is up
	sleep 0.1
done
n0=$(nsenter -t "$SHPID" -n sysctl -n $K)
remote_hold 22 "$TMP/d2.log" nsenter -t "$SHPID" -n
dkill
wait "$CPID" 2>/dev/null
[ "$(nsenter -t "$SHPID" -n sysctl -n $K)" = 22 ] && grep -q "^local - - $K [0-9]*:$SHPID:[0-9]*:- $DPID " "$J"
ok $? "a nameless namespace: 22 held, then tunetopd killed; the entry names the shell $SHPID in it: $(tail -1 "$J" 2>/dev/null)"
restore "$TMP/r4"
[ $RC -eq 0 ] && grep -q "restored 1 knob value" "$TMP/r4" &&
	[ "$(nsenter -t "$SHPID" -n sysctl -n $K)" = "$n0" ] && [ "$(sysctl -n $K)" = "$host0" ] &&
	[ ! -s "$J" ]
ok $? "tunetop restore on the host puts $n0 back in it through the shell, the host untouched (rc $RC)"
[ $? -eq 0 ] || diag "$TMP/r4"
kill -9 "$SHPID" 2>/dev/null
wait "$SHPID" 2>/dev/null
SHPID=""

# (c) Gone: a plain namespace deleted, then the lab taken down.
ip netns add "$P" && nsx "$P" "$TUNETOP" knobs set $K=15 >"$TMP/set" 2>&1
ok $? "ip netns add $P; knobs set $K=15 inside it"
ip netns delete "$P"
restore "$TMP/r5"
line="tunetop restore: could not restore, kept in the journal: $K on local in $P: its network namespace $P is gone (no /run/netns/$P, pid [0-9]* that was in it has ended)"
[ $RC -eq 1 ] && grep -qx "$line" "$TMP/r5" && ! grep -q "restored" "$TMP/r5" &&
	grep -q "^local - - $K [0-9]*:[0-9]*:[0-9]*:$P " "$J" && [ "$(sysctl -n $K)" = "$host0" ]
ok $? "$P deleted: restore exits 1, keeps the entry and says why in one line, restores nothing"
[ $? -eq 0 ] || { diag "$TMP/r5"; diag "$J"; }
restore "$TMP/r6"
[ $RC -eq 1 ] && grep -qx "$line" "$TMP/r6"
ok $? "a later restore still reports it (rc $RC)"
nsx "$A" "$TUNETOP" knobs set $K=16 >"$TMP/set" 2>&1
"$TUNETOP" lab down "$name" >"$TMP/down" 2>&1
restore "$TMP/r7"
[ $RC -eq 1 ] && grep -q "$K on local in $A: its network namespace $A is gone (no /run/netns/$A" "$TMP/r7" &&
	grep -q "$K on local in $P: its network namespace $P is gone" "$TMP/r7" &&
	[ "$(grep -c "^local - - $K " "$J")" -eq 2 ] && [ "$(sysctl -n $K)" = "$host0" ]
ok $? "a change inside the lab, then lab down: kept and named too, the host untouched (rc $RC)"
[ $? -eq 0 ] || { diag "$TMP/r7"; diag "$J"; }
rm -f "$J"

done_testing
