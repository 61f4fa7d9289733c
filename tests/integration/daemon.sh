#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# tunetopd under abuse: malformed frames, a daemon killed mid-run, a client
# killed mid-run, the session limit, half-open connections.
. "$(dirname "$0")/lib.sh"
start_daemon -m 2 || exit 1

python3 "$(dirname "$0")/frames.py" 127.0.0.1 "$PORT" 100 >"$TMP/frames.txt" 2>&1
rc=$?
ok $rc "100 malformed frames each get an ERROR or a close"
[ $rc -eq 0 ] || diag "$TMP/frames.txt"
kill -0 "$DPID"
ok $? "tunetopd is still running after them"
"$TUNETOP" run -H 127.0.0.1 -p "$PORT" -t TCP_RR -l 1 >"$TMP/after.txt" 2>&1
ok $? "and still serves a test"

# A client killed mid-run ends only its own session.
"$TUNETOP" run -H 127.0.0.1 -p "$PORT" -t TCP_STREAM -l 30 >/dev/null 2>&1 &
victim=$!
"$TUNETOP" run -H 127.0.0.1 -p "$PORT" -t TCP_RR -l 3 --json >"$TMP/other.json" 2>>"$TMP/stderr" &
other=$!
sleep 1
kill -9 $victim
wait $victim 2>/dev/null
wait $other
rc=$?
ok $rc "a run beside a client killed with SIGKILL completes"
[ $rc -eq 0 ] || tail -5 "$TMP/other.json" | sed 's/^/# /'
[ "$(jq_py "$TMP/other.json" 'j["counts_agree"]')" = True ]
ok $? "and its counts agree"
sleep 0.5
grep -q "closed the control connection mid-run\|Connection reset" "$TMP/tunetopd.log"
ok $? "tunetopd logs the vanished client"
kill -0 "$DPID"
ok $? "tunetopd is still running after the vanished client"
! grep -q "ERROR: AddressSanitizer\|runtime error" "$TMP/tunetopd.log"
ok $? "tunetopd reported no memory or undefined-behaviour error so far"

# The session limit: -m 2, a third concurrent client hears "busy".
"$TUNETOP" run -H 127.0.0.1 -p "$PORT" -t TCP_RR -l 3 >/dev/null 2>&1 &
a=$!
"$TUNETOP" run -H 127.0.0.1 -p "$PORT" -t TCP_RR -l 3 >/dev/null 2>&1 &
b=$!
sleep 1
"$TUNETOP" run -H 127.0.0.1 -p "$PORT" -t TCP_RR -l 1 >"$TMP/busy.txt" 2>&1
rc=$?
[ $rc -ne 0 ] && grep -q busy "$TMP/busy.txt"
ok $? "a third client beyond -m 2 is told the server is busy"
wait $a; wait $b

# Half-open: a connection that never says HELLO is dropped.
python3 - "$PORT" <<'PY'
import socket, sys, time
s = socket.create_connection(("127.0.0.1", int(sys.argv[1])))
s.settimeout(15)
t = time.time()
data = s.recv(100)
while data:
    data = s.recv(100)
assert time.time() - t < 12
PY
ok $? "a silent connection is closed by tunetopd within its HELLO timeout"

# Idle between tests: a client that said HELLO and then nothing for -t 1 s
# gets an ERROR "timeout" and a close (a second daemon, with -t 1).
PORT1=$(free_port)
"$TUNETOPD" -f -p "$PORT1" -t 1 >>"$TMP/idle.log" 2>&1 &
PIDS="$PIDS $!"
for _ in $(seq 50); do grep -q "listening" "$TMP/idle.log" 2>/dev/null && break; sleep 0.1; done
python3 - "$PORT1" <<'PY'
import json, socket, struct, sys, time
s = socket.create_connection(("127.0.0.1", int(sys.argv[1])))
b = json.dumps({"name": "idle", "version": "1"}).encode()
s.sendall(b"TT" + struct.pack(">BBI", 1, 1, len(b)) + b)
s.settimeout(10)
t = time.time()
data = b""
while True:
    chunk = s.recv(4096)
    if not chunk:
        break
    data += chunk
took = time.time() - t
types, off = [], 0
while off + 8 <= len(data):
    _, _, ty, ln = struct.unpack(">2sBBI", data[off:off + 8])
    types.append((ty, data[off + 8:off + 8 + ln]))
    off += 8 + ln
assert [t for t, _ in types] == [2, 9], types
assert json.loads(types[1][1])["code"] == "timeout", types
assert 0.8 < took < 4, took
PY
ok $? "a client idle beyond tunetopd -t 1 gets ERROR timeout and a close"

# A daemon killed mid-run: the client names the remote end, prints what it
# measured, and exits non-zero.
"$TUNETOP" run -H 127.0.0.1 -p "$PORT" -t TCP_RR -l 10 >"$TMP/killed.txt" 2>&1 &
cpid=$!
sleep 1.5
kill -9 "$DPID"
wait "$cpid"
rc=$?
[ $rc -ne 0 ]
ok $? "the client exits non-zero when tunetopd is killed (rc $rc)"
grep -qi "remote end" "$TMP/killed.txt"
ok $? "the client says the remote end failed"
grep -q "Trans/s\|Trans" "$TMP/killed.txt"
ok $? "the client prints what it measured so far"
[ $rc -ne 0 ] && [ "$(grep -ci "remote end" "$TMP/killed.txt")" -ge 1 ] || diag "$TMP/killed.txt"

done_testing
