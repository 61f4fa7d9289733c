#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Remote knobs: tunetopd inside side b of a lab of the test's own, the client
# inside side a.  Reads for anyone; changes only with the right key, logged,
# and undone when the client goes, however it goes.  Host values untouched.
. "$(dirname "$0")/lib.sh"

need_root "the remote knob tests"

# The journals of this test only: the client's and the daemon's.
TUNETOP_STATE_DIR="$TMP/state"
export TUNETOP_STATE_DIR
DSTATE="$TMP/dstate"
name="ttrk-$$"
A="$name-a"
B="$name-b"
KNOB=net.ipv4.tcp_reordering

teardown() {
	for p in $PIDS; do
		kill "$p" 2>/dev/null || true
	done
	for p in $PIDS; do
		wait "$p" 2>/dev/null || true
	done
	PIDS=""
	"$TUNETOP" lab down "$name" >/dev/null 2>&1 || true
}
trap 'teardown; cleanup' EXIT

host_reo=$(sysctl -n $KNOB)

"$TUNETOP" lab up --name "$name" >"$TMP/up" 2>&1
ok $? "lab up --name $name"
[ $? -eq 0 ] || { diag "$TMP/up"; done_testing; exit 1; }

"$TUNETOPD" --gen-key "$TMP/key" >/dev/null 2>&1 &&
	"$TUNETOPD" --gen-key "$TMP/wrong" >/dev/null 2>&1
ok $? "two keys written with tunetopd --gen-key"

# dstart LOGFILE ARGS...: tunetopd inside side b on 198.18.0.2; sets DPID, DPORT.
dstart() {
	log=$1
	shift
	DPORT=$(free_port)
	TUNETOP_STATE_DIR="$DSTATE" ip netns exec "$B" "$TUNETOPD" -f -L 198.18.0.2 \
		-p "$DPORT" "$@" >>"$log" 2>&1 &
	DPID=$!
	PIDS="$PIDS $DPID"
	for _ in $(seq 50); do
		grep -q "listening on .* port $DPORT" "$log" 2>/dev/null && return 0
		sleep 0.1
	done
	echo "# tunetopd did not start"
	diag "$log"
	return 1
}

# ka ARGS...: tunetop inside side a.
ka() {
	ip netns exec "$A" "$TUNETOP" "$@"
}

bval() {
	ip netns exec "$B" sysctl -n $KNOB
}

# wait_b VALUE SECS: until side b's value is VALUE; 0 if it got there.
wait_b() {
	for _ in $(seq $(($2 * 10))); do
		[ "$(bval)" = "$1" ] && return 0
		sleep 0.1
	done
	return 1
}

# Refusals at start.
"$TUNETOPD" -f -p 1 --knobs >"$TMP/o" 2>&1
[ $? -eq 2 ] && grep -q "needs both --knobs and --key FILE" "$TMP/o"
ok $? "tunetopd --knobs without --key is refused: $(cat "$TMP/o")"
cp "$TMP/key" "$TMP/loose" && chmod 644 "$TMP/loose"
"$TUNETOPD" -f -p 1 --knobs --key "$TMP/loose" >"$TMP/o" 2>&1
[ $? -eq 1 ] && grep -q "mode 0644 lets others read it" "$TMP/o"
ok $? "a key file others can read is refused: $(cat "$TMP/o")"

dstart "$TMP/d.log" --knobs --key "$TMP/key"
ok $? "tunetopd --knobs --key runs inside $B"
KPID=$DPID
KPORT=$DPORT
grep -q "knob control on, key $TMP/key, journal in $DSTATE" "$TMP/d.log"
ok $? "it says knob control is on and where its journal is"

reo0=$(bval)
[ "$reo0" = 10 ] && new=11 || new=10

# Reads: any client, no key.
ka knobs get $KNOB --side remote -H 198.18.0.2 -p "$KPORT" >"$TMP/o" 2>&1
[ $? -eq 0 ] && grep -qx "$KNOB: $reo0" "$TMP/o"
ok $? "knobs get --side remote without a key reads $reo0 from $B: $(cat "$TMP/o")"
ka knobs list --side remote -H 198.18.0.2 -p "$KPORT" --json >"$TMP/l.json" 2>>"$TMP/stderr" &&
	python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); k={x["name"]:x for x in d["knobs"]}; sys.exit(0 if d["side"] == "remote" and k[sys.argv[2]]["value"] == sys.argv[3] and len(k) > 60 else 1)' \
		"$TMP/l.json" $KNOB "$reo0"
ok $? "knobs list --side remote --json gives every knob, $KNOB $reo0"

# No key: refused by the client, nothing changed.
ka knobs set $KNOB=$new --side remote -H 198.18.0.2 -p "$KPORT" >"$TMP/o" 2>&1
[ $? -eq 2 ] && grep -q "\-\-key FILE is required" "$TMP/o"
ok $? "set --side remote without --key is refused clearly: $(cat "$TMP/o")"
[ "$(bval)" = "$reo0" ]
ok $? "and $KNOB in $B is still $reo0"

# No authentication at all, straight KNOB_SET on the wire: ERROR auth.
ip netns exec "$A" python3 - 198.18.0.2 "$KPORT" $KNOB $new >"$TMP/o" 2>&1 <<'PY'
import json, socket, struct, sys
def frame(t, body):
    b = json.dumps(body).encode()
    return b"TT" + bytes([1, t]) + struct.pack(">I", len(b)) + b
def recv(s):
    h = b""
    while len(h) < 8:
        c = s.recv(8 - len(h))
        if not c:
            return None, None
        h += c
    n = struct.unpack(">I", h[4:])[0]
    b = b""
    while len(b) < n:
        b += s.recv(n - len(b))
    return h[3], json.loads(b)
s = socket.create_connection((sys.argv[1], int(sys.argv[2])), 5)
s.sendall(frame(1, {"name": "probe", "version": "0"}))
print(recv(s))
s.sendall(frame(17, {"settings": [{"name": sys.argv[3], "value": sys.argv[4]}], "dev": ""}))
t, b = recv(s)
print(t, b)
sys.exit(0 if t == 9 and b["code"] == "auth" else 1)
PY
ok $? "KNOB_SET without AUTH gets ERROR auth: $(tail -1 "$TMP/o")"
[ "$(bval)" = "$reo0" ]
ok $? "and $KNOB in $B is still $reo0"

# Wrong key: ERROR auth, nothing changed.
ka knobs set $KNOB=$new --side remote -H 198.18.0.2 -p "$KPORT" --key "$TMP/wrong" >"$TMP/o" 2>&1
[ $? -eq 1 ] && grep -q "wrong key" "$TMP/o"
ok $? "set with a wrong key is refused: $(cat "$TMP/o")"
[ "$(bval)" = "$reo0" ]
ok $? "and $KNOB in $B is still $reo0"
grep -q "authentication failed: wrong key" "$TMP/d.log"
ok $? "tunetopd logs the failed authentication"

# Right key: changed during --hold, logged, restored after the client exits.
ka knobs set $KNOB=$new --side remote -H 198.18.0.2 -p "$KPORT" --key "$TMP/key" --hold 3 >"$TMP/set" 2>&1 &
cpid=$!
wait_b "$new" 3
ok $? "with the right key $KNOB in $B becomes $new during --hold 3"
[ "$(sysctl -n $KNOB)" = "$host_reo" ]
ok $? "the host's $KNOB is still $host_reo"
grep -q ": set $KNOB $reo0 -> $new\$" "$TMP/d.log"
ok $? "tunetopd logs the change ($reo0 -> $new)"
[ -s "$DSTATE/journal" ] && grep -q " $KNOB .* $reo0\$" "$DSTATE/journal"
ok $? "tunetopd journaled the original in its state directory"
wait $cpid
rc=$?
[ $rc -eq 0 ] && grep -qx "$KNOB: $reo0 -> $new" "$TMP/set" && grep -q "restored when this command exits" "$TMP/set"
ok $? "the client said before -> after and that it is restored on exit (rc $rc): $(tr '\n' ' ' <"$TMP/set")"
wait_b "$reo0" 3
ok $? "after the client exits $KNOB in $B is back to $reo0"
grep -q ": restored $KNOB $new -> $reo0\$" "$TMP/d.log"
ok $? "tunetopd logs the restore"
[ ! -s "$DSTATE/journal" ]
ok $? "and its journal entry is gone"

# kill -9 of a client holding a change: restored within a few seconds.
# (not through ka: $! must be tunetop itself, which ip netns exec becomes)
ip netns exec "$A" "$TUNETOP" knobs set $KNOB=$new --side remote -H 198.18.0.2 -p "$KPORT" \
	--key "$TMP/key" --hold 20 >"$TMP/set" 2>&1 &
cpid=$!
wait_b "$new" 3
ok $? "a second client holds $KNOB=$new"
kill -9 $cpid
wait $cpid 2>/dev/null
wait_b "$reo0" 5
ok $? "kill -9 of that client: tunetopd put $KNOB back to $reo0 within 5 s"
[ "$(grep -c ": restored $KNOB $new -> $reo0\$" "$TMP/d.log")" -eq 2 ]
ok $? "and logged that restore too"
kill -0 "$KPID"
ok $? "tunetopd is still running"

# A daemon without --knobs: reads yes, changes no.
dstart "$TMP/d2.log"
ok $? "tunetopd without --knobs runs inside $B"
ka knobs get $KNOB --side remote -H 198.18.0.2 -p "$DPORT" >"$TMP/o" 2>&1
grep -qx "$KNOB: $reo0" "$TMP/o"
ok $? "it answers knob reads: $(cat "$TMP/o")"
ka knobs set $KNOB=$new --side remote -H 198.18.0.2 -p "$DPORT" --key "$TMP/key" >"$TMP/o" 2>&1
[ $? -eq 1 ] && grep -q "knob control is off on this tunetopd (start it with --knobs --key FILE)" "$TMP/o"
ok $? "and refuses a set: $(cat "$TMP/o")"
[ "$(bval)" = "$reo0" ]
ok $? "with $KNOB in $B still $reo0"

[ "$(sysctl -n $KNOB)" = "$host_reo" ]
ok $? "the host's $KNOB is $host_reo, as before"
! grep -q "ERROR: AddressSanitizer\|runtime error" "$TMP/d.log" "$TMP/d2.log"
ok $? "no sanitizer report in the daemons' logs"

teardown
done_testing
