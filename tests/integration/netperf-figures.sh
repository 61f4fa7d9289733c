#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Figures a netperf user can trust: service demand of an iterated run from
# the means, socket sizes read when netperf reads them, data segments per
# transaction, where a run went, and runs that do not inherit the kernel's
# TCP metrics cache from earlier ones (labs; loopback says it cannot).
. "$(dirname "$0")/lib.sh"
isolated_state

LABS=""
labs_down() {
	for l in $LABS; do
		"$TUNETOP" lab down "$l" >/dev/null 2>&1
	done
}
trap 'labs_down; cleanup' EXIT

# val FILE NAME: the value of NAME in -k output.
val() {
	sed -n "s/^$2=//p" "$1"
}

# near A B PCT: A within PCT percent of B.
near() {
	python3 -c 'import sys; a,b,p=map(float,sys.argv[1:]); sys.exit(0 if abs(a-b) <= p/100*abs(b) else 1)' "$1" "$2" "$3" 2>/dev/null
}

# between X LO HI
between() {
	python3 -c 'import sys; x,lo,hi=map(float,sys.argv[1:]); sys.exit(0 if lo <= x <= hi else 1)' "$1" "$2" "$3" 2>/dev/null
}

# 1. An iterated run: SD is netperf's formula on the mean throughput and CPU.
"$TUNETOP" run --loopback -t TCP_STREAM -l 1 -c -C -i 5,3 -- -m 256K \
	-k THROUGHPUT,LOCAL_CPU_UTIL,REMOTE_CPU_UTIL,LOCAL_SD,REMOTE_SD,LOCAL_CPU_COUNT,CONFIDENCE_ITERATION,THROUGHPUT_CONFID,LOCAL_CPU_CONFID,LOCAL_SD_CONFID,REMOTE_SD_CONFID \
	>"$TMP/si.txt" 2>&1
rc=$?
thr=$(val "$TMP/si.txt" THROUGHPUT)
lcpu=$(val "$TMP/si.txt" LOCAL_CPU_UTIL)
rcpu=$(val "$TMP/si.txt" REMOTE_CPU_UTIL)
ncpu=$(val "$TMP/si.txt" LOCAL_CPU_COUNT)
want_l=$(python3 -c "print($lcpu/100*$ncpu*1e6/($thr*1e6/8/1024))" 2>/dev/null)
want_r=$(python3 -c "print($rcpu/100*$ncpu*1e6/($thr*1e6/8/1024))" 2>/dev/null)
[ $rc -eq 0 ] && near "$(val "$TMP/si.txt" LOCAL_SD)" "$want_l" 3 &&
	near "$(val "$TMP/si.txt" REMOTE_SD)" "$want_r" 3
ok $? "stream -i: LOCAL_SD $(val "$TMP/si.txt" LOCAL_SD) and REMOTE_SD $(val "$TMP/si.txt" REMOTE_SD) us/KB are netperf's formula on the means ($want_l, $want_r)"
[ "$(val "$TMP/si.txt" CONFIDENCE_ITERATION)" -ge 3 ] &&
	! grep -Eq "_CONFID=(n/a|-1\.000)" "$TMP/si.txt"
ok $? "stream -i: throughput, CPU and SD each have an interval"

"$TUNETOP" run --loopback -t TCP_RR -l 1 -c -i 4,3 --json >"$TMP/ri.json" 2>>"$TMP/stderr"
python3 - "$TMP/ri.json" <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
r, c = d["result"], d["confidence"]
want = r["local_cpu_util"] / 100 * r["local_cpu_count"] * 1e6 / r["throughput"]
n = d["iterations"]
ok = abs(r["local_sd"] - want) <= 0.03 * want
for k in ("throughput", "local_cpu", "local_sd"):
    ok = ok and c[k] is not None and c[k]["n"] == n
ok = ok and abs(c["throughput"]["mean"] - r["throughput"]) <= 0.01 * r["throughput"]
sys.exit(0 if ok else 1)
EOF
ok $? "RR -i --json: SD in us/Tran from the means; every interval over the same $(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["iterations"])' "$TMP/ri.json" 2>/dev/null) iterations"

# 2. Socket sizes: initial = before connect, as netperf reads them.
wmem=$(awk '{print $2}' /proc/sys/net/ipv4/tcp_wmem)
rmem=$(awk '{print $2}' /proc/sys/net/ipv4/tcp_rmem)
"$TUNETOP" run --loopback -t TCP_STREAM -l 1 -- \
	-k LSS_SIZE,LSR_SIZE,RSS_SIZE,RSR_SIZE,LSS_SIZE_CONN,LSS_SIZE_END,RSR_SIZE_END >"$TMP/sz.txt" 2>&1
[ "$(val "$TMP/sz.txt" LSS_SIZE)" = "$wmem" ] && [ "$(val "$TMP/sz.txt" RSS_SIZE)" = "$wmem" ] &&
	[ "$(val "$TMP/sz.txt" LSR_SIZE)" = "$rmem" ] && [ "$(val "$TMP/sz.txt" RSR_SIZE)" = "$rmem" ]
ok $? "loopback stream: initial sizes on both ends are tcp_wmem/tcp_rmem's defaults $wmem/$rmem, as netperf prints"
[ "$(val "$TMP/sz.txt" LSS_SIZE_CONN)" -gt "$wmem" ]
ok $? "the after-connect send buffer is its own figure ($(val "$TMP/sz.txt" LSS_SIZE_CONN))"
"$TUNETOP" run --loopback -t TCP_STREAM -l 1 -- -s 64K -S 64K \
	-k LSS_SIZE,LSR_SIZE,RSS_SIZE,RSR_SIZE,LSS_SIZE_END >"$TMP/ss.txt" 2>&1
[ "$(val "$TMP/ss.txt" LSS_SIZE)" = 131072 ] && [ "$(val "$TMP/ss.txt" RSR_SIZE)" = 131072 ] &&
	[ "$(val "$TMP/ss.txt" LSS_SIZE_END)" = 131072 ]
ok $? "-s 64K -S 64K: 131072 initial and final, as netperf's tcp_stream-sS"
"$TUNETOP" run --loopback -t TCP_CRR -l 1 -- \
	-k LSS_SIZE,LSR_SIZE,RSS_SIZE,RSR_SIZE,LSS_SIZE_END,SEGS_OUT_PER_TRANS >"$TMP/crr.txt" 2>&1
[ "$(val "$TMP/crr.txt" LSS_SIZE)" = "$wmem" ] && [ "$(val "$TMP/crr.txt" RSR_SIZE)" = "$rmem" ] &&
	[ "$(val "$TMP/crr.txt" LSS_SIZE_END)" = -1 ] && [ "$(val "$TMP/crr.txt" SEGS_OUT_PER_TRANS)" = n/a ]
ok $? "CRR: initial sizes of a connection before connect; no end size (-1, netperf's) or segments (n/a) as no socket lives through the run"

# 4. Data segments per transaction beside all segments, both ends.
"$TUNETOP" run --loopback -t TCP_RR -l 1 -- -r 1,200000 \
	-k SEGS_OUT_PER_TRANS,DATA_SEGS_OUT_PER_TRANS,SEGS_IN_PER_TRANS,DATA_SEGS_IN_PER_TRANS,REMOTE_SEGS_OUT_PER_TRANS,REMOTE_DATA_SEGS_OUT_PER_TRANS,REMOTE_SEGS_IN_PER_TRANS,REMOTE_DATA_SEGS_IN_PER_TRANS \
	>"$TMP/sg.txt" 2>&1
echo "# $TMP/sg.txt"
between "$(val "$TMP/sg.txt" DATA_SEGS_OUT_PER_TRANS)" 0.99 1.01 &&
	between "$(val "$TMP/sg.txt" REMOTE_DATA_SEGS_IN_PER_TRANS)" 0.99 1.01 &&
	python3 -c 'import sys; a=list(map(float,sys.argv[1:])); sys.exit(0 if a[0] > a[1] and a[2] >= 2 and abs(a[2]-a[3]) < 0.05 else 1)' \
		"$(val "$TMP/sg.txt" SEGS_OUT_PER_TRANS)" "$(val "$TMP/sg.txt" DATA_SEGS_OUT_PER_TRANS)" \
		"$(val "$TMP/sg.txt" DATA_SEGS_IN_PER_TRANS)" "$(val "$TMP/sg.txt" REMOTE_DATA_SEGS_OUT_PER_TRANS)"
ok $? "-r 1,200000: one data segment out per request, pure ACKs on top; data in matches the server's data out"
"$TUNETOP" run --loopback -t TCP_RR -l 1 >"$TMP/h.txt" 2>&1
grep -q "Segments per transaction.*client out .* (.*), in .*server out" "$TMP/h.txt"
ok $? "the human extras line shows data segments beside all, client and server"
"$TUNETOP" run --loopback -t TCP_RR -l 1 --json >"$TMP/sg.json" 2>>"$TMP/stderr"
python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); sys.exit(0 if d["local"]["data_segs_out"] > 0 and d["remote"]["data_segs_in"] > 0 and d["local"]["socks"][0]["sndbuf_conn"] > 0 else 1)' "$TMP/sg.json"
ok $? "json: data segments of both ends and the after-connect size"

# 5 and 3 on loopback: where it went, and the host's state it cannot clear.
"$TUNETOP" run --loopback -t TCP_RR -l 1 -- -k TARGET,LOCAL_TCP_METRICS,REMOTE_TCP_METRICS,STATE_NOTE >"$TMP/t.txt" 2>>"$TMP/stderr"
[ "$(val "$TMP/t.txt" TARGET)" = loopback ] && grep -q "^LOCAL_TCP_METRICS=.*host" "$TMP/t.txt"
ok $? "loopback: TARGET=loopback, the host's metrics cache named"
if [ "$(cat /proc/sys/net/ipv4/tcp_no_metrics_save)" = 0 ]; then
	grep -q "^STATE_NOTE=.*keep.*TCP metrics cache.*runs may influence each other" "$TMP/t.txt" &&
		grep -q "^Note: .*TCP metrics cache" "$TMP/h.txt" &&
		python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); sys.exit(0 if d["target_short"] == "loopback" and "influence" in d["tcp_metrics"]["note"] else 1)' "$TMP/sg.json"
	ok $? "loopback: one line says runs may influence each other (output, -k, json)"
fi
"$TUNETOP" runs list >"$TMP/list.txt" 2>&1
grep -q "TARGET" "$TMP/list.txt" && grep -q " loopback  .* loopback: embedded" "$TMP/list.txt"
ok $? "runs list shows where each run went"
start_daemon
"$TUNETOP" run -H 127.0.0.1 -p "$PORT" -t TCP_RR -l 1 -- -k TARGET,REMOTE_TCP_METRICS,STATE_NOTE >"$TMP/hh.txt" 2>>"$TMP/stderr"
[ "$(val "$TMP/hh.txt" TARGET)" = host:127.0.0.1 ] && [ "$(val "$TMP/hh.txt" REMOTE_TCP_METRICS)" = "kept (remote host)" ] &&
	grep -Eq "^STATE_NOTE=.* keeps? (its|their) host's TCP metrics cache \(host\): runs may influence each other" "$TMP/hh.txt"
ok $? "-H: TARGET=host:127.0.0.1, the remote cache kept, and said so: $(val "$TMP/hh.txt" STATE_NOTE)"

if [ "$(id -u)" -ne 0 ]; then
	[ "${CI:-}" = true ] && { ok 1 "the lab half needs root, and CI runs as root"; }
	done_testing
	exit $?
fi

# conn_buf LAB: SO_SNDBUF right after connect of a plain connection from
# side a to side b: what the kernel gives a new connection there now.
conn_buf() {
	ip netns exec "$1-b" python3 -c '
import socket, sys
s = socket.socket(); s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
s.bind(("198.18.0.2", 47001)); s.listen(1); sys.stdout.write("up\n"); sys.stdout.flush()
c, _ = s.accept(); c.recv(1); c.close()' >"$TMP/lst" 2>&1 &
	lp=$!
	for _ in $(seq 50); do grep -q up "$TMP/lst" && break; sleep 0.1; done
	ip netns exec "$1-a" python3 -c '
import socket
c = socket.create_connection(("198.18.0.2", 47001))
print(c.getsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF)); c.send(b"x"); c.close()'
	wait "$lp"
}

# seed LAB: leave "reordering 300" in side a's TCP metrics cache: a
# connection made while tcp_reordering is 300, closed after it is back.
# The connection is held open until the knobs are restored, so no timing
# decides the outcome (a run racing a restore lost on loaded CI hosts).
seed() {
	for s in lab-a lab-b; do
		"$TUNETOP" knobs set net.ipv4.tcp_reordering=300 --side $s --lab "$1" >"$TMP/seedk.out" 2>&1 ||
			{ echo "# knobs set: $(cat "$TMP/seedk.out")"; return 1; }
	done
	rm -f "$TMP/seed.go"
	ip netns exec "$1-b" python3 -c '
import socket, sys
s = socket.socket(); s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
s.bind(("198.18.0.2", 47002)); s.listen(1); sys.stdout.write("up\n"); sys.stdout.flush()
c, _ = s.accept()
while c.recv(65536): pass
c.close()' >"$TMP/seedl.out" 2>&1 &
	lp=$!
	for _ in $(seq 50); do grep -q up "$TMP/seedl.out" && break; sleep 0.1; done
	# The kernel saves a connection's reordering only when it closes in
	# slow start after a loss, or in recovery (tcp_update_metrics; see
	# docs/HACKING.md, kernel facts): send through the lab's rate limit until so.
	ip netns exec "$1-a" python3 -c '
import array, fcntl, os, socket, struct, sys, termios, time
def state(c):
	b = c.getsockopt(socket.IPPROTO_TCP, socket.TCP_INFO, 104)
	return b[1], struct.unpack_from("I", b, 76)[0], struct.unpack_from("I", b, 80)[0]
c = socket.create_connection(("198.18.0.2", 47002))
for _ in range(80):
	c.sendall(b"x" * 262144)
	q = array.array("i", [1])
	while q[0]:	# SIOCOUTQ: bytes not yet acknowledged
		fcntl.ioctl(c.fileno(), termios.TIOCOUTQ, q); time.sleep(0.01)
	ca, ssthresh, cwnd = state(c)
	if ssthresh < 0x7fffffff and (ca != 0 or cwnd + 2 < ssthresh):
		break
print("sent: ca_state %d ssthresh %d cwnd %d" % state(c), flush=True)
while not os.path.exists(sys.argv[1]): time.sleep(0.05)
c.close()' "$TMP/seed.go" >"$TMP/seed.out" 2>&1 &
	cp=$!
	for _ in $(seq 300); do grep -q sent "$TMP/seed.out" && break; sleep 0.1; done
	"$TUNETOP" knobs restore >"$TMP/seedk.out" 2>&1 || echo "# knobs restore: $(cat "$TMP/seedk.out")"
	touch "$TMP/seed.go"
	wait "$cp"; wait "$lp"
	ip netns exec "$1-a" ip tcp_metrics show | grep -q "reordering 300" && return 0
	echo "# client: $(cat "$TMP/seed.out") listener: $(cat "$TMP/seedl.out")"
	echo "# side a: $(ip netns exec "$1-a" sysctl -n net.ipv4.tcp_reordering) cache: $(ip netns exec "$1-a" ip tcp_metrics show)"
	return 1
}

# lss_conn_of SWEEP_OR_AB_ID: "point=LSS_SIZE_CONN" of each of its runs.
lss_conn_of() {
	python3 - "$TUNETOP_DB" "$1" <<'EOF'
import json, sqlite3, sys
db = sqlite3.connect(sys.argv[1])
rows = db.execute("SELECT point, result FROM runs WHERE sweep_id = ? ORDER BY id", (int(sys.argv[2]),))
print(" ".join("%s=%s" % (p, json.loads(r)["result"]["lss_size_conn"]) for p, r in rows))
EOF
}
last_sweep() {
	python3 -c 'import sqlite3,sys; print(sqlite3.connect(sys.argv[1]).execute("SELECT max(id) FROM sweeps").fetchone()[0])' "$TUNETOP_DB"
}

L=nfig$$
LABS="$L"
"$TUNETOP" lab up --name "$L" --rate 100mbit >/dev/null 2>&1
ok $? "lab $L up"
"$TUNETOP" run --lab "$L" -t TCP_RR -l 1 -- -k TARGET,LSS_SIZE,LSS_SIZE_CONN,LOCAL_TCP_METRICS,REMOTE_TCP_METRICS,STATE_NOTE >"$TMP/f.txt" 2>>"$TMP/stderr"
fresh=$(val "$TMP/f.txt" LSS_SIZE_CONN)
[ "$(val "$TMP/f.txt" TARGET)" = "lab:$L" ] && [ "$(val "$TMP/f.txt" LOCAL_TCP_METRICS)" = flushed ] &&
	[ "$(val "$TMP/f.txt" REMOTE_TCP_METRICS)" = flushed ] && [ "$(val "$TMP/f.txt" STATE_NOTE)" = n/a ]
ok $? "lab: TARGET=lab:$L, both caches flushed, no note (fresh send buffer after connect $fresh)"
# Congestion control, read from each end's socket: side b's set to reno.
"$TUNETOP" run --lab "$L" --no-db --set remote:net.ipv4.tcp_congestion_control=reno -t TCP_STREAM -l 0.5 \
	-- -k LOCAL_CONG_CONTROL,REMOTE_CONG_CONTROL >"$TMP/cc.txt" 2>>"$TMP/stderr"
ca=$(ip netns exec "$L-a" sysctl -n net.ipv4.tcp_congestion_control)
[ "$(val "$TMP/cc.txt" LOCAL_CONG_CONTROL)" = "$ca" ] && [ "$(val "$TMP/cc.txt" REMOTE_CONG_CONTROL)" = reno ] &&
	[ "$(ip netns exec "$L-b" sysctl -n net.ipv4.tcp_congestion_control)" != reno ]
ok $? "LOCAL_CONG_CONTROL is side a's $ca, REMOTE_CONG_CONTROL side b's reno, put back after: $(tr '\n' ' ' <"$TMP/cc.txt")"
"$TUNETOP" run -t TCP_RR -l 1 -- -k TARGET >"$TMP/own.txt" 2>>"$TMP/stderr"
grep -q "^TARGET=lab:tunetop-[0-9]*$" "$TMP/own.txt"
ok $? "a plain run as root says it measured a lab of its own ($(cat "$TMP/own.txt"))"

seed "$L"
ok $? "a run with tcp_reordering set and restored via knobs left reordering 300 in the cache"
dirty=$(conn_buf "$L")
[ -n "$dirty" ] && [ "$dirty" != "$fresh" ]
ok $? "without a flush a new connection there gets $dirty, not $fresh"
"$TUNETOP" run --lab "$L" -t TCP_RR -l 1 -- -k LSS_SIZE_CONN >"$TMP/a.txt" 2>>"$TMP/stderr"
[ "$(val "$TMP/a.txt" LSS_SIZE_CONN)" = "$fresh" ]
ok $? "the next run in the reused lab gets the fresh-lab send buffer ($(val "$TMP/a.txt" LSS_SIZE_CONN))"

# A size sweep in the reused (seeded) lab and in a fresh one agree.
seed "$L" >/dev/null
"$TUNETOP" sweep size --mss 1448 --lab "$L" -t TCP_RR -l 0.3 >"$TMP/sw1.txt" 2>&1
ok $? "size sweep in the reused lab"
s1=$(lss_conn_of "$(last_sweep)")
"$TUNETOP" sweep size --mss 1448 -t TCP_RR -l 0.3 >"$TMP/sw2.txt" 2>&1
s2=$(lss_conn_of "$(last_sweep)")
[ -n "$s1" ] && [ "$s1" = "$s2" ] && ! echo "$s1" | grep -q "=None"
ok $? "its after-connect send buffers equal a fresh lab's, point by point ($s1)"

# An A/B in the reused lab and in a fresh one agree.
ab="--a net.ipv4.tcp_reordering=3 --b net.ipv4.tcp_reordering=300,remote:net.ipv4.tcp_reordering=300 -n 3 --seed 7 -t TCP_RR -l 0.3"
seed "$L" >/dev/null
# shellcheck disable=SC2086
"$TUNETOP" ab $ab --lab "$L" >"$TMP/ab1.txt" 2>&1
ok $? "A/B in the reused lab"
a1=$(lss_conn_of "$(last_sweep)")
# shellcheck disable=SC2086
"$TUNETOP" ab $ab >"$TMP/ab2.txt" 2>&1
a2=$(lss_conn_of "$(last_sweep)")
[ -n "$a1" ] && [ "$a1" = "$a2" ] && echo "$a1" | grep -q "a=$fresh"
ok $? "its runs' after-connect send buffers equal a fresh lab's ($a1)"

done_testing
