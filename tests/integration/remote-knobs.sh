#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Remote knobs: tunetopd inside side b of a lab of the test's own, the client
# inside side a.  Reads for anyone; changes only with the right key, logged,
# and undone when the client goes, however it goes: by knobs set, and by
# run --set, sweeps, presets and ab with -H --key.  Host values untouched.
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
TUNETOP_DB="$TMP/runs.db"
export TUNETOP_DB

teardown() {
	for p in $PIDS; do
		kill "$p" 2>/dev/null || true
	done
	for p in $PIDS; do
		wait "$p" 2>/dev/null || true
	done
	PIDS=""
	[ -z "$S" ] || tmux -L "$S" kill-server 2>/dev/null || true
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
	wait_listening "$log" "$DPORT"
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

# wait_log N PATTERN FILE: until FILE has N lines matching PATTERN, within
# 5 s (tunetopd logs a restore just after the value is back); 0 if so.
wait_log() {
	for _ in $(seq 50); do
		[ "$(grep -c "$2" "$3")" -ge "$1" ] && return 0
		sleep 0.1
	done
	return 1
}

# journal_empty FILE: until FILE is empty or gone (within 5 s); 0 if so.
journal_empty() {
	for _ in $(seq 50); do
		[ ! -s "$1" ] && return 0
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
wait_log 1 ": restored $KNOB $new -> $reo0\$" "$TMP/d.log"
ok $? "tunetopd logs the restore"
journal_empty "$DSTATE/journal"
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
wait_log 2 ": restored $KNOB $new -> $reo0\$" "$TMP/d.log"
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

# Runs, sweeps, presets and A/B with -H --key change side b's knobs
# through tunetopd, and put them back when they end (or tunetopd does,
# when they die).  -t 2: a connection idle 2 s is dropped, knobs put
# back, so these also show that tunetop keeps its knob link alive.
dstart "$TMP/d3.log" -t 2 --knobs --key "$TMP/key"
ok $? "tunetopd -t 2 --knobs --key runs inside $B"
RPID=$DPID
RPORT=$DPORT

# sets_logged VALUE: how many times tunetopd logged setting $KNOB to VALUE.
sets_logged() {
	grep -c ": set $KNOB [0-9]* -> $1\$" "$TMP/d3.log"
}

H="-H 198.18.0.2 -p $RPORT"

# Without --key: one line saying a key is needed and how; nothing changed.
ka run $H -t TCP_RR -l 1 --no-db --set remote:$KNOB=$new >"$TMP/o" 2>&1
rc=$?
[ $rc -eq 2 ] && [ "$(wc -l <"$TMP/o")" -eq 1 ] &&
	grep -q "needs\|key" "$TMP/o" && grep -q -- "--key FILE" "$TMP/o" &&
	grep -q "tunetopd --gen-key" "$TMP/o"
ok $? "run --set remote: without --key is refused in one line (rc $rc): $(cat "$TMP/o")"
ka sweep knob remote:$KNOB=5,7 $H -l 1 --no-db >"$TMP/o" 2>&1
rc=$?
[ $rc -eq 2 ] && grep -q -- "--key FILE" "$TMP/o" && [ "$(wc -l <"$TMP/o")" -eq 1 ]
ok $? "sweep knob remote: without --key too (rc $rc): $(cat "$TMP/o")"
ka ab --a remote:$KNOB=5 --b remote:$KNOB=7 -n 3 $H -l 1 --no-db >"$TMP/o" 2>&1
rc=$?
[ $rc -eq 2 ] && grep -q -- "--key FILE" "$TMP/o" && [ "$(wc -l <"$TMP/o")" -eq 1 ]
ok $? "ab --a remote: without --key too (rc $rc): $(cat "$TMP/o")"
[ "$(bval)" = "$reo0" ] && ! grep -q ": set " "$TMP/d3.log"
ok $? "and nothing changed in $B"

# --netserver keeps its own refusal.
ka run -H 198.18.0.2 --netserver -l 1 --set remote:$KNOB=$new >"$TMP/o" 2>&1
[ $? -eq 2 ] && grep -q "netserver has no knobs to change" "$TMP/o"
ok $? "with --netserver remote: knobs are still refused: $(cat "$TMP/o")"
ka run $H --keep -l 1 --key "$TMP/key" --set remote:$KNOB=$new >"$TMP/o" 2>&1
[ $? -eq 2 ] && grep -q "option --keep" "$TMP/o"
ok $? "--keep of a remote knob is refused: $(cat "$TMP/o")"

# run --set remote: changed on side b during the run, back after.
ka run $H -t TCP_RR -l 4 --key "$TMP/key" --set remote:$KNOB=$new >"$TMP/run" 2>&1 &
cpid=$!
wait_b "$new" 10
ok $? "during run --set remote:$KNOB=$new, $KNOB in $B is $new"
wait $cpid
rc=$?
[ $rc -eq 0 ] && grep -q "Knob $KNOB on remote: $reo0 -> $new" "$TMP/run"
ok $? "the run ends well and says $reo0 -> $new on remote (rc $rc)"
[ $rc -eq 0 ] || diag "$TMP/run"
[ "$(bval)" = "$reo0" ]
ok $? "after the run $KNOB in $B is back to $reo0"
[ "$(sysctl -n $KNOB)" = "$host_reo" ] && [ "$(ip netns exec "$A" sysctl -n $KNOB)" = "$reo0" ]
ok $? "the host's and side a's $KNOB are untouched"
journal_empty "$DSTATE/journal"
ok $? "tunetopd's journal is empty again"

# A knob tunetopd's host lacks: said before the first point, nothing run.
ka sweep knob remote:adaptive-rx=on,off $H -l 1 --key "$TMP/key" >"$TMP/o" 2>&1
rc=$?
[ $rc -ne 0 ] && grep -q "adaptive-rx on remote" "$TMP/o" && ! grep -q "^Point\|^  *[0-9].*Trans" "$TMP/o"
ok $? "a knob side b lacks is said before the first point (rc $rc): $(head -2 "$TMP/o" | tr '\n' ' ')"

# A sweep over remote values: each applied on side b, then restored.
ka sweep knob remote:$KNOB=5,7,9 $H -t TCP_RR -l 1 --key "$TMP/key" --json >"$TMP/sw.json" 2>"$TMP/sw.err"
rc=$?
ok $rc "sweep knob remote:$KNOB=5,7,9 runs (rc $rc)"
[ $rc -eq 0 ] || diag "$TMP/sw.err"
[ "$(sets_logged 5)" -ge 1 ] && [ "$(sets_logged 7)" -ge 1 ] && [ "$(sets_logged 9)" -ge 1 ]
ok $? "tunetopd set $KNOB to 5, 7 and 9 in $B"
python3 - "$TMP/sw.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
pts = d["points"]
labels = [str(p.get("point", p.get("label", ""))) for p in pts]
ok = len(pts) == 3 and all(p.get("throughput", 0) > 0 for p in pts) and \
    all(l.endswith("=" + v) for l, v in zip(labels, ["5", "7", "9"]))
print(labels)
sys.exit(0 if ok else 1)
PY
ok $? "the sweep's JSON has three measured points, at 5, 7 and 9"
[ "$(bval)" = "$reo0" ]
ok $? "after the sweep $KNOB in $B is back to $reo0"

# A preset names its end: reordering sets both ends alike.
ka sweep preset reordering $H -t TCP_RR -l 1 --no-db --key "$TMP/key" >"$TMP/o" 2>&1
rc=$?
[ $rc -eq 0 ] && [ "$(sets_logged 127)" -ge 1 ]
ok $? "sweep preset reordering (both:) sets side b through tunetopd (rc $rc)"
[ $rc -eq 0 ] || diag "$TMP/o"
[ "$(bval)" = "$reo0" ] && [ "$(ip netns exec "$A" sysctl -n $KNOB)" = "$reo0" ]
ok $? "and both ends' $KNOB are back to $reo0"

# A/B with a remote knob on each side.
n5=$(sets_logged 5)
n9=$(sets_logged 9)
ka ab --a remote:$KNOB=5 --b remote:$KNOB=9 -n 3 --seed 7 $H -t TCP_RR -l 1 --no-db \
	--key "$TMP/key" >"$TMP/ab" 2>&1
rc=$?
[ $rc -eq 0 ] && [ "$(sets_logged 5)" -gt "$n5" ] && [ "$(sets_logged 9)" -gt "$n9" ]
ok $? "ab --a remote:$KNOB=5 --b remote:$KNOB=9 sets both values in $B (rc $rc)"
[ $rc -eq 0 ] || diag "$TMP/ab"
[ "$(bval)" = "$reo0" ]
ok $? "after the A/B $KNOB in $B is back to $reo0"

# SIGTERM mid-run: tunetop puts it back itself.
ip netns exec "$A" "$TUNETOP" run $H -t TCP_RR -l 30 --no-db --key "$TMP/key" \
	--set remote:$KNOB=$new >"$TMP/term" 2>&1 &
cpid=$!
wait_b "$new" 10
ok $? "a run holds $KNOB=$new in $B"
kill -TERM $cpid
kill -TERM $cpid 2>/dev/null
wait $cpid
rc=$?
[ "$(bval)" = "$reo0" ] && grep -q ": set $KNOB $new -> $reo0\$" "$TMP/d3.log"
ok $? "SIGTERM twice: the run ends (rc $rc) and puts $KNOB in $B back to $reo0 itself"

# kill -9 of the client mid-run: tunetopd puts it back when the link drops.
nr=$(grep -c ": restored $KNOB $new -> $reo0\$" "$TMP/d3.log")
ip netns exec "$A" "$TUNETOP" run $H -t TCP_RR -l 30 --no-db --key "$TMP/key" \
	--set remote:$KNOB=$new >"$TMP/k9" 2>&1 &
cpid=$!
wait_b "$new" 10
ok $? "another run holds $KNOB=$new in $B"
sleep 5
[ "$(bval)" = "$new" ]
ok $? "and still holds it 5 s later (its link outlives tunetopd -t 2)"
kill -9 $cpid
wait $cpid 2>/dev/null
wait_b "$reo0" 10
ok $? "kill -9 of that run: tunetopd put $KNOB back to $reo0"
wait_log $((nr + 1)) ": restored $KNOB $new -> $reo0\$" "$TMP/d3.log"
ok $? "and logged the restore"
journal_empty "$DSTATE/journal"
ok $? "tunetopd's journal is empty again"
kill -0 "$RPID"
ok $? "tunetopd is still running"

# The dashboard with -H --key, under tmux (inside side a): an edit of the
# remote end reaches side b through tunetopd -- its link, idle while the
# first run ran, was dropped by -t 2 and is made again -- and quitting
# with the default answer puts it back.
if command -v tmux >/dev/null 2>&1; then
	S="ttrk-$$"
	export LANG=C.UTF-8 LC_ALL=C.UTF-8 TERM=xterm-256color
	screen() { tmux -L "$S" capture-pane -p -t dash 2>/dev/null; }
	keys() { tmux -L "$S" send-keys -t dash "$@"; }
	tmux -L "$S" new-session -d -s dash -x 200 -y 60 \
		"ip netns exec $A $TUNETOP $H --key $TMP/key -t TCP_RR -l 1 --no-db 2>$TMP/derr; echo EXIT=\$? >$TMP/dexit"
	tmux -L "$S" set-option -t dash remain-on-exit on >/dev/null
	for _ in $(seq 200); do
		screen | grep -qE "run s?[0-9]+ done" && break
		sleep 0.1
	done
	screen | grep -qE "run s?[0-9]+ done"
	ok $? "the dashboard with -H --key runs against tunetopd"
	sleep 3
	keys Tab Tab Tab Tab / t c p _ r e o r d e r i n g Enter Right Enter
	keys BSpace BSpace BSpace BSpace 1 3 Enter
	wait_b 13 10
	ok $? "an edit of the remote end in the dashboard sets $KNOB=13 in $B"
	[ "$(bval)" = 13 ] || screen | sed 's/^/# /'
	[ "$(ip netns exec "$A" sysctl -n $KNOB)" = "$reo0" ]
	ok $? "and leaves side a's $KNOB alone"
	keys q
	for _ in $(seq 30); do
		screen | grep -q "keep them" && break
		sleep 0.1
	done
	keys Enter
	for _ in $(seq 100); do
		[ -s "$TMP/dexit" ] && break
		sleep 0.1
	done
	grep -q EXIT=0 "$TMP/dexit" && wait_b "$reo0" 5
	ok $? "quitting puts $KNOB in $B back to $reo0 ($(cat "$TMP/dexit" 2>/dev/null))"
	tmux -L "$S" kill-server 2>/dev/null
	S=""
else
	ok 1 "tmux is needed for the dashboard case (Debian package tmux)"
fi

[ "$(sysctl -n $KNOB)" = "$host_reo" ]
ok $? "the host's $KNOB is $host_reo, as before"
! grep -q "ERROR: AddressSanitizer\|runtime error" "$TMP/d.log" "$TMP/d2.log" "$TMP/d3.log"
ok $? "no sanitizer report in the daemons' logs"

teardown
done_testing
