#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# tunetopd against whoever can reach its port (docs/security.md): UDP
# reflection, memory exhaustion, slots held by idle or half-open
# connections, the per-address limit, and two protocol corners.  Every
# socket is on loopback; 127.0.0.2..4 play other hosts.
. "$(dirname "$0")/lib.sh"
DSEC="$(dirname "$0")/dsec.py"

# json FILE EXPR: EXPR on the last JSON line of FILE (j).
json() {
	python3 -c 'import json,sys
lines=[l for l in open(sys.argv[1]) if l.startswith("{")]
j=json.loads(lines[-1]); print(eval(sys.argv[2]))' "$1" "$2" 2>/dev/null
}

rss_kb() {
	awk '/^VmRSS:/ { print $2 }' "/proc/$1/status"
}

start_daemon || exit 1
D1=$DPID P1=$PORT

# --- 1. UDP reflection ------------------------------------------------------
python3 "$DSEC" udp-strays "$P1" 100 >"$TMP/udp.txt" 2>&1
ok $? "UDP_RR: 100 datagrams from 127.0.0.2 and 5 from another client port get nothing back, are 105 strays, and stay out of the totals: $(head -1 "$TMP/udp.txt")"
grep -q '^# ' "$TMP/udp.txt" && diag "$TMP/udp.txt"

# The same through tunetop run: a flood during a real UDP_RR run.
"$TUNETOP" run -H 127.0.0.1 -p "$P1" -t UDP_RR -l 5 --json -- -r 1,1024 >"$TMP/udprun.json" 2>"$TMP/udprun.err" &
cpid=$!
python3 "$DSEC" flood "$P1" "$D1" 300 >"$TMP/flood.txt" 2>&1
frc=$?
wait $cpid
rc=$?
[ $rc -eq 0 ] && [ $frc -eq 0 ] && [ "$(json "$TMP/flood.txt" 'j["bytes_back"]')" = 0 ]
ok $? "a reflector flooding a running UDP_RR's port gets 0 bytes back: $(cat "$TMP/flood.txt")"
strays=$(jq_py "$TMP/udprun.json" 'j["remote"]["strays"]')
# Those the kernel dropped (a full receive buffer on a loaded machine, before
# the daemon reads) never reached it; each one that did must be a stray.
drops=$(json "$TMP/flood.txt" 'j["drops"]')
[ "${strays:-0}" -ge $((250 - ${drops:-0})) ] && [ "$(jq_py "$TMP/udprun.json" 'j["counts_agree"]')" = True ]
ok $? "tunetop run --json reports them as remote.strays ($strays of 300, ${drops:-?} dropped by the kernel) and its counts still agree"
[ $rc -eq 0 ] || diag "$TMP/udprun.err"
[ $frc -eq 0 ] || diag "$TMP/flood.txt"
"$TUNETOP" run -H 127.0.0.1 -p "$P1" -t UDP_STREAM -l 1 >"$TMP/udphuman.txt" 2>&1
grep -q "^Stray datagrams at the server .*: 0$" "$TMP/udphuman.txt"
ok $? "tunetop run shows the stray count of a UDP test: $(grep Stray "$TMP/udphuman.txt")"

# --- 2. memory ----------------------------------------------------------------
python3 "$DSEC" stream "$P1" "$D1" 128 67108864 3 >"$TMP/mem.txt" 2>&1
peak=$(json "$TMP/mem.txt" 'j["rss_peak_kb"]')
[ -n "$peak" ] && [ "$peak" -lt $((256 * 1024)) ] &&
	[ "$(json "$TMP/mem.txt" 'j["sent"] == j["server_bytes_recv"]')" = True ]
ok $? "TCP_STREAM, 128 flows of -m/-M 64M: runs in 1 MiB chunks, every byte counted, daemon VmRSS peak ${peak:-?} kB under the 256 MiB session budget"
[ -n "$peak" ] || diag "$TMP/mem.txt"
python3 "$DSEC" setup "$P1" TCP_STREAM 1024 67108864 0 >"$TMP/mem1024.txt" 2>&1
[ "$(json "$TMP/mem1024.txt" 'j["body"]["code"]')" = invalid ] &&
	grep -q -- "--session-mem" "$TMP/mem1024.txt" && [ "$(rss_kb "$D1")" -lt $((256 * 1024)) ]
ok $? "1024 flows of 64M: refused (invalid, naming --session-mem) before allocating; VmRSS $(rss_kb "$D1") kB"

start_daemon --session-mem 64M --mem 100M || exit 1
D2=$DPID P2=$PORT
python3 "$DSEC" setup "$P2" TCP_STREAM 128 67108864 0 >"$TMP/mem64.txt" 2>&1
[ "$(json "$TMP/mem64.txt" 'j["body"]["code"]')" = invalid ] && grep -q "64.0 MiB" "$TMP/mem64.txt"
ok $? "--session-mem 64M refuses the 128-flow SETUP: $(json "$TMP/mem64.txt" 'j["body"]["message"]')"
# A holds its reservation 30 s (killed below): B must come while it does,
# however slow a loaded machine is to start B.
python3 "$DSEC" setup "$P2" TCP_STREAM 50 1048576 30 >"$TMP/memA.txt" 2>&1 &
apid=$!
wait_file "$TMP/memA.txt"
python3 "$DSEC" setup "$P2" TCP_STREAM 50 1048576 0 >"$TMP/memB.txt" 2>&1
[ "$(json "$TMP/memA.txt" 'j["type"]')" = 4 ] && [ "$(json "$TMP/memB.txt" 'j["body"]["code"]')" = busy ] &&
	grep -q -- "--mem" "$TMP/memB.txt"
ok $? "--mem 100M: a second 53 MiB test beside a first is told busy: $(json "$TMP/memB.txt" 'j["body"]["message"]')"
[ "$(json "$TMP/memB.txt" 'j["body"]["code"]')" = busy ] || diag "$TMP/memB.txt"
kill $apid 2>/dev/null
wait $apid 2>/dev/null
sleep 0.5
python3 "$DSEC" setup "$P2" TCP_STREAM 50 1048576 0 >"$TMP/memC.txt" 2>&1
[ "$(json "$TMP/memC.txt" 'j["type"]')" = 4 ]
ok $? "and is served once the first session has ended (its memory returned)"

# --- 3. slots -----------------------------------------------------------------
# 16 idle read-only sessions (KNOB_GET, then nothing) from two addresses
# (8 each, the --per-peer default) hold every slot of -m 16.
python3 "$DSEC" hold "$P1" 16 127.0.0.2,127.0.0.3 15 "$TMP/hold.st" >"$TMP/hold.txt" 2>&1 &
hpid=$!
wait_file "$TMP/hold.st"
ok $? "16 idle sessions hold all 16 slots"
sleep 1.5
"$TUNETOP" run -H 127.0.0.1 -p "$P1" -t TCP_RR -l 1 >"$TMP/evict.txt" 2>&1
ok $? "a test run still gets a slot: an idle read-only session is evicted for it"
[ -s "$TMP/evict.txt" ] && grep -q "Trans" "$TMP/evict.txt" || diag "$TMP/evict.txt"
wait $hpid
[ "$(json "$TMP/hold.txt" 'len(j["evicted"])')" -ge 1 ] &&
	[ "$(json "$TMP/hold.txt" 'j["evicted"][0]["code"]')" = busy ] &&
	grep -q "evicted (idle read-only session)" "$TMP/tunetopd.log"
ok $? "the evicted session hears ERROR busy 'evicted' and the daemon logs it"

# 100 connections that never say HELLO: they hold no slot, the oldest are
# pushed out past 64, and a run is not kept waiting for their timeout.
python3 "$DSEC" bare "$P1" 100 10 "$TMP/bare.st" >"$TMP/bare.txt" 2>&1 &
bpid=$!
wait_file "$TMP/bare.st"
t0=$(date +%s%N)
"$TUNETOP" run -H 127.0.0.1 -p "$P1" -t TCP_RR -l 1 >"$TMP/bare-run.txt" 2>&1
rc=$?
took=$((($(date +%s%N) - t0) / 1000000))
# (Before, 16 of them took every slot: the run was told busy.)
[ $rc -eq 0 ] && kill -0 $bpid 2>/dev/null
ok $? "100 bare connects, still open, do not block a 1 s run (took $took ms)"
[ $rc -eq 0 ] || diag "$TMP/bare-run.txt"
grep -q "dropped before its HELLO" "$TMP/tunetopd.log"
ok $? "past 64 waiting connections the oldest is dropped, and logged"
wait $bpid

# --per-peer 2: two running tests from 127.0.0.1 use its share.
start_daemon --per-peer 2 || exit 1
P3=$PORT
# (-l 10: both still running when the third HELLO comes on a loaded machine)
"$TUNETOP" run -H 127.0.0.1 -p "$P3" -t TCP_RR -l 10 >/dev/null 2>&1 &
r1=$!
"$TUNETOP" run -H 127.0.0.1 -p "$P3" -t TCP_RR -l 10 >/dev/null 2>&1 &
r2=$!
# Both runs past SETUP (their setup may be slow on a loaded machine).
for _ in $(seq 300); do
	[ "$(grep -c "TCP_RR, 1 flow(s), 10 s" "$TMP/tunetopd.log")" -ge 2 ] && break
	sleep 0.1
done
python3 "$DSEC" hello-from "$P3" 127.0.0.1 >"$TMP/peer1.txt" 2>&1
python3 "$DSEC" hello-from "$P3" 127.0.0.4 >"$TMP/peer4.txt" 2>&1
[ "$(json "$TMP/peer1.txt" 'j["body"]["code"]')" = busy ] && grep -q -- "--per-peer" "$TMP/peer1.txt"
ok $? "--per-peer 2: a third session from 127.0.0.1 is told busy: $(json "$TMP/peer1.txt" 'j["body"]["message"]')"
grep -q -- "--per-peer" "$TMP/peer1.txt" || diag "$TMP/peer1.txt"
[ "$(json "$TMP/peer4.txt" 'j["type"]')" = 2 ]
ok $? "while 127.0.0.4 is served (HELLO_OK)"
wait $r1
rc1=$?
wait $r2
[ $rc1 -eq 0 ] && [ $? -eq 0 ]
ok $? "and the two runs complete"

# --- 6. protocol corners ----------------------------------------------------
python3 "$DSEC" auth-response-first "$P1" >"$TMP/auth.txt" 2>&1
[ "$(json "$TMP/auth.txt" 'j["body"]["code"]')" = auth ]
ok $? "AUTH_RESPONSE without AUTH_BEGIN gets ERROR auth: $(json "$TMP/auth.txt" 'j["body"]["message"]')"
python3 "$DSEC" setup "$P1" TCP_STREAM 1 0 0 >"$TMP/send0.txt" 2>&1
python3 "$DSEC" setup "$P1" UDP_STREAM 1 0 0 >"$TMP/send0u.txt" 2>&1
[ "$(json "$TMP/send0.txt" 'j["type"]')" = 4 ] && [ "$(json "$TMP/send0u.txt" 'j["type"]')" = 4 ]
ok $? "SETUP send_size 0 / recv_size 0 take the defaults (READY for TCP_STREAM and UDP_STREAM)"
python3 "$DSEC" slow-reader "$P1" 256 10 >"$TMP/slow.txt" 2>&1
[ "$(json "$TMP/slow.txt" 'j["result"]')" = True ] && grep -q "ticks not sent as SAMPLE" "$TMP/tunetopd.log"
ok $? "a client of 256 flows that reads no control frame for 10 s misses SAMPLEs (logged), not its session: $(tail -1 "$TMP/slow.txt")"

# The systemd unit make install puts in place (when configured with one).
unit="$top_builddir/data/tunetopd.service"
if [ -f "$unit" ] && command -v systemd-analyze >/dev/null; then
	sed -e "s|^ExecStart=[^ ]*|ExecStart=$TUNETOPD|" \
		-e "s|^Documentation=.*|Documentation=file://$top_srcdir/docs/tunetopd.8|" "$unit" >"$TMP/tunetopd.service"
	# What it says of the machine's other units (irtt.service, which
	# flent's packages bring, warns of User=nobody) is not ours to judge.
	systemd-analyze verify "$TMP/tunetopd.service" >"$TMP/verify.txt" 2>&1 &&
		! grep -q "tunetopd" "$TMP/verify.txt"
	ok $? "systemd-analyze verify accepts tunetopd.service"
	[ -s "$TMP/verify.txt" ] && diag "$TMP/verify.txt"
	grep -q "^CapabilityBoundingSet=CAP_NET_ADMIN$" "$unit" && grep -q "^ExecStart=.*/tunetopd -f " "$unit"
	ok $? "the unit keeps only CAP_NET_ADMIN and runs tunetopd in the foreground"
elif [ "${CI:-}" = true ]; then
	ok 1 "the systemd unit was not built or systemd-analyze is missing (quickstart installs systemd)"
else
	ok 0 "# SKIP no systemd unit configured or no systemd-analyze"
fi

kill -0 "$D1" && kill -0 "$D2"
ok $? "the daemons are still running"
! grep -q "ERROR: AddressSanitizer\|runtime error" "$TMP/tunetopd.log"
ok $? "no memory or undefined-behaviour error in their logs"

done_testing
