#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# seeds.sh - the five seed threads of docs/seeds.md, redone in a lab of the
# test's own with short runs: each thread's columns are there and numbers,
# each knob preset acts on the end its thread did, seed004-back's --reverse
# sends the requests from side b, seed 003's ab gives a verdict with its
# intervals, and every knob is put back.
. "$(dirname "$0")/lib.sh"

need_root "the seed threads"

isolated_state
name="ttseeds-$$"
A="$name-a"
B="$name-b"

# The test's lab goes with it, whatever happens.
trap '"$TUNETOP" lab down "$name" >/dev/null 2>&1; cleanup' EXIT

# knobvals: every knob a seed command changes, read in both namespaces.
knobvals() {
	for s in a b; do
		ns="$name-$s"
		echo "$ns: $(ip netns exec "$ns" sysctl -n net.ipv4.tcp_reordering \
			net.ipv4.tcp_notsent_lowat | tr '\n' ' ')"
		ip netns exec "$ns" ethtool -k "veth-$s" |
			grep -E '^(generic-receive-offload|tcp-segmentation-offload|generic-segmentation-offload):' |
			sed "s/^/$ns: /"
		echo "$ns: $(ip -n "$ns" -o link show "veth-$s" | grep -o 'mtu [0-9]*')"
	done
}

# cols FILE COLUMN...: every point of sweep document FILE ran and has each
# COLUMN as a number (not null, "-" or n/a); prints what is wrong.
cols() {
	python3 - "$@" <<'PY'
import json, os, sqlite3, sys
j = json.load(open(sys.argv[1]))
want = sys.argv[2:]
bad = []
# What the stored run says of a point without a rate, for the log.
def stored(run_id):
	r = sqlite3.connect(os.environ["TUNETOP_DB"]).execute(
		"SELECT result FROM runs WHERE id=?", (run_id,)).fetchone()
	if not r:
		return "not stored"
	r = json.loads(r[0])
	x = r.get("result", {})
	return "elapsed %s, counts %s, retrans %s/%s" % (x.get("elapsed_time"),
		r.get("counts"), x.get("local_transport_retrans"),
		x.get("remote_transport_retrans"))
if not j["points"] or j["planned"] != len(j["points"]):
	bad.append("%d of %d points" % (len(j["points"]), j["planned"]))
for c in want:
	if c not in j["columns"]:
		bad.append("no column " + c)
for p in j["points"]:
	if p["failed"]:
		bad.append("%s failed: %s" % (p["point"], p["failure"]))
		continue
	if not isinstance(p["throughput"], (int, float)) or p["throughput"] <= 0:
		bad.append("%s: throughput %r (%s)" % (p["point"], p["throughput"],
						      stored(p["run_id"])))
	for c in want:
		v = p["columns"].get(c)
		if isinstance(v, bool) or not isinstance(v, (int, float)):
			bad.append("%s: %s is %r" % (p["point"], c, v))
for b in bad:
	print("# " + b)
sys.exit(1 if bad else 0)
PY
}

# table FILE COLUMN...: the table users read (`sweep show` of the sweep
# of document FILE) heads the COLUMNs after the rate, and each row has a
# number under each, not n/a or "-".
table() {
	"$TUNETOP" sweep show "$(jq_py "$1" 'j["sweep_id"]')" >"$TMP/show" 2>&1 &&
		python3 - "$TMP/show" "$@" <<'PY'
import sys
lines = open(sys.argv[1]).read().splitlines()
want = sys.argv[3:]
head = [i for i, l in enumerate(lines) if l.startswith("Point ")]
if not head:
	sys.exit("# no table")
h = lines[head[0]].split()
cols = [c for c in h if c in want]
rows = []
for l in lines[head[0] + 1:]:
	if not l.strip() or l.startswith("Cliffs"):
		break
	rows.append(l.split("<--")[0].split())
# After the point's name, every field (rate, columns, run) is a number.
bad = []
for r in rows:
	try:
		[float(x) for x in r[1:]]
	except ValueError:
		bad.append(r[0])
print("# table: %d rows, columns %s, bad rows %s" % (len(rows), cols, bad))
sys.exit(0 if cols == want and rows and not bad else 1)
PY
}

# ends FILE KNOB AFTER_POINT: from the stored runs of sweep document FILE,
# KNOB as each run's two ends recorded it, "point local remote" per line.
ends() {
	python3 - "$TUNETOP_DB" "$1" "$2" <<'PY'
import json, sqlite3, sys
c = sqlite3.connect(sys.argv[1])
j = json.load(open(sys.argv[2]))
for p in j["points"]:
	r = json.loads(c.execute("SELECT result FROM runs WHERE id=?",
				 (p["run_id"],)).fetchone()[0])
	v = {}
	for end in ("local", "remote"):
		k = r["knobs"][end]
		v[end] = k["side"] + "=" + ",".join(x["value"] for x in k["knobs"]
						    if x["name"] == sys.argv[3])
	print(p["point"], v["local"], v["remote"])
PY
}

# tcpstat NS: data bytes sent by the namespace's veth and its TCP active opens.
tcpstat() {
	python3 - "$1" "veth-${1##*-}" <<'PY'
import json, subprocess, sys
ns, dev = sys.argv[1], sys.argv[2]
link = json.loads(subprocess.check_output(["ip", "-n", ns, "-s", "-j", "link", "show", dev]))
snmp = subprocess.check_output(["ip", "netns", "exec", ns, "cat", "/proc/net/snmp"], text=True)
tcp = [l.split() for l in snmp.splitlines() if l.startswith("Tcp:")]
print(link[0]["stats64"]["tx"]["bytes"], tcp[1][tcp[0].index("ActiveOpens")])
PY
}

"$TUNETOP" lab up --name "$name" >"$TMP/up" 2>&1
ok $? "lab up --name $name"
knobvals >"$TMP/before"

# --- seed 000: request sizes around the MSS, segment sizes on the wire -------
"$TUNETOP" sweep preset seed000 --lab "$name" -l 0.2 --json >"$TMP/s0.json" 2>"$TMP/s0.err"
rc=$?
[ $rc -eq 0 ] && cols "$TMP/s0.json" LOCAL_CAP_SENT_MEAN_SIZE REMOTE_CAP_SENT_MEAN_SIZE P50_LATENCY
ok $? "seed000: every size has the rate, both ends' mean segment size on the wire and p50 (rc $rc)"
[ $rc -eq 0 ] || diag "$TMP/s0.err"
# A request up to the MSS is one segment of its size; the 1-byte response one byte.
python3 - "$TMP/s0.json" <<'PY'
import json, sys
j = json.load(open(sys.argv[1]))
m = j["mss"]
got = [p["value"] for p in j["points"]]
bad = [p["point"] for p in j["points"] if p["value"] <= m and
       abs(p["columns"]["LOCAL_CAP_SENT_MEAN_SIZE"] - p["value"]) > 0.01 * p["value"]]
bad += [p["point"] for p in j["points"]
	if abs(p["columns"]["REMOTE_CAP_SENT_MEAN_SIZE"] - 1) > 0.01]
print("# mss %s, points %s, off: %s" % (m, got, bad))
sys.exit(0 if got[-6:] == [m, m + 1, 2 * m, 2 * m + 1, 3 * m, 3 * m + 1] and not bad else 1)
PY
ok $? "seed000: MSS multiples and +1 close the sweep; the capture sees each request's size sent, 1 byte back"
table "$TMP/s0.json" LOCAL_CAP_SENT_MEAN_SIZE REMOTE_CAP_SENT_MEAN_SIZE
ok $? "seed000: sweep show's table has the segment sizes beside the rate, a number in every row"

# --- seed 001: socket buffers per burst size, initial and final, both ends ---
"$TUNETOP" sweep preset seed001 --lab "$name" -l 0.5 --json -- -D >"$TMP/s1.json" 2>"$TMP/s1.err"
rc=$?
[ $rc -eq 0 ] && cols "$TMP/s1.json" LSS_SIZE LSS_SIZE_END LSR_SIZE LSR_SIZE_END \
	RSS_SIZE RSS_SIZE_END RSR_SIZE RSR_SIZE_END
ok $? "seed001: every burst has both ends' initial and final SO_SNDBUF/SO_RCVBUF (rc $rc)"
[ $rc -eq 0 ] || diag "$TMP/s1.err"
wmem=$(ip netns exec "$A" sysctl -n net.ipv4.tcp_wmem | awk '{ print $2 }')
rmem=$(ip netns exec "$B" sysctl -n net.ipv4.tcp_rmem | awk '{ print $2 }')
python3 - "$TMP/s1.json" "$wmem" "$rmem" <<'PY'
import json, sys
j = json.load(open(sys.argv[1]))
w, r = int(sys.argv[2]), int(sys.argv[3])
c = [p["columns"] for p in j["points"]]
init = all(x["LSS_SIZE"] == w and x["RSS_SIZE"] == w and x["LSR_SIZE"] == r and
	   x["RSR_SIZE"] == r for x in c)
final = all(x[k + "_SIZE_END"] >= x[k + "_SIZE"] for x in c
	    for k in ("LSS", "LSR", "RSS", "RSR"))
# How far autotuning went depends on how many transactions ran (load).
grew = [p["point"] for p in j["points"]
	if p["columns"]["LSR_SIZE_END"] > r or p["columns"]["RSR_SIZE_END"] > r]
print("# initial send %d, receive %d; a receive buffer grew at %s" % (w, r, grew))
sys.exit(0 if init and final and j["points"][0]["value"] == 0 else 1)
PY
ok $? "seed001: initial sizes are tcp_wmem[1]/tcp_rmem[1] on both ends, final ones no smaller"
grep -q '"test": "TCP_RR .*-D' "$TMP/s1.json"
ok $? "seed001: -- -D (TCP_NODELAY, as the thread) reaches the test"
table "$TMP/s1.json" LSS_SIZE LSS_SIZE_END LSR_SIZE LSR_SIZE_END RSS_SIZE RSS_SIZE_END RSR_SIZE RSR_SIZE_END
ok $? "seed001: sweep show's table has the eight socket buffer columns, a number in every row"

# --- seed 002: GRO on the server, tcp_reordering on both, CPU and SD ---------
# Watch veth GRO on both sides while the sweep runs: side b's must move.
"$TUNETOP" sweep preset gro --lab "$name" -t TCP_STREAM -l 1 --json >"$TMP/gro.json" 2>"$TMP/gro.err" &
pid=$!
: >"$TMP/watch"
while kill -0 $pid 2>/dev/null; do
	for s in a b; do
		v=$(ip netns exec "$name-$s" ethtool -k "veth-$s" 2>/dev/null |
			sed -n 's/^generic-receive-offload: \([a-z]*\).*/\1/p')
		echo "$s $v" >>"$TMP/watch"
	done
	sleep 0.05
done
wait $pid
rc=$?
[ $rc -eq 0 ] && cols "$TMP/gro.json" LOCAL_CPU_UTIL REMOTE_CPU_UTIL LOCAL_SD REMOTE_SD
ok $? "seed002 gro: each point has both ends' CPU and service demand (rc $rc)"
[ $rc -eq 0 ] || diag "$TMP/gro.err"
gro_a=$(sed -n "s/^$A: generic-receive-offload: \\([a-z]*\\).*/\\1/p" "$TMP/before")
ends "$TMP/gro.json" gro >"$TMP/gro.ends"
[ "$(cat "$TMP/gro.ends")" = "remote:gro=on lab-a=$gro_a lab-b=on
remote:gro=off lab-a=$gro_a lab-b=off" ]
ok $? "seed002 gro: each run recorded GRO at the point's value on lab-b, the server: $(tr '\n' ';' <"$TMP/gro.ends")"
grep -q '^b on$' "$TMP/watch" && ! grep -v "^a $gro_a\$" "$TMP/watch" | grep -q '^a'
ok $? "seed002 gro: read in the namespaces during the sweep, only veth-b's GRO changed ($(sort "$TMP/watch" | uniq -c | tr -s ' \n' ' '))"

"$TUNETOP" sweep preset reordering --lab "$name" -t TCP_STREAM -l 0.3 --json >"$TMP/reo.json" 2>"$TMP/reo.err"
rc=$?
[ $rc -eq 0 ] && cols "$TMP/reo.json" LOCAL_CPU_UTIL REMOTE_CPU_UTIL LOCAL_SD REMOTE_SD
ok $? "seed002 reordering: each point has both ends' CPU and service demand (rc $rc)"
ends "$TMP/reo.json" net.ipv4.tcp_reordering >"$TMP/reo.ends"
[ "$(cat "$TMP/reo.ends")" = "both:net.ipv4.tcp_reordering=3 lab-a=3 lab-b=3
both:net.ipv4.tcp_reordering=10 lab-a=10 lab-b=10
both:net.ipv4.tcp_reordering=127 lab-a=127 lab-b=127" ]
ok $? "seed002 reordering: each run recorded the value on both ends: $(tr '\n' ';' <"$TMP/reo.ends")"

"$TUNETOP" sweep knob local:tso=on,off remote:gro=on,off --columns LOCAL_CPU_UTIL,REMOTE_CPU_UTIL,LOCAL_SD,REMOTE_SD \
	--lab "$name" -t TCP_STREAM -l 0.5 --json >"$TMP/tg.json" 2>"$TMP/tg.err"
rc=$?
[ $rc -eq 0 ] && cols "$TMP/tg.json" LOCAL_CPU_UTIL REMOTE_CPU_UTIL LOCAL_SD REMOTE_SD &&
	[ "$(jq_py "$TMP/tg.json" '",".join(k["side"] + ":" + k["name"] for k in j["knobs"])')" = "local:tso,remote:gro" ]
ok $? "seed002 TSO on the client x GRO on the server: 4 points with CPU and SD (rc $rc)"
ends "$TMP/tg.json" tso | awk '{ print $2 }' | tr '\n' ' ' >"$TMP/tso.ends"
[ "$(cat "$TMP/tso.ends")" = "lab-a=on lab-a=on lab-a=off lab-a=off " ]
ok $? "seed002: TSO moved on lab-a, the client: $(cat "$TMP/tso.ends")"

"$TUNETOP" sweep knob local:gso=on,off --columns LOCAL_CPU_UTIL,REMOTE_CPU_UTIL,LOCAL_SD,REMOTE_SD \
	--set local:tso=off --lab "$name" -t TCP_STREAM -l 0.2 --json >"$TMP/gso.json" 2>"$TMP/gso.err"
rc=$?
[ $rc -eq 0 ] && cols "$TMP/gso.json" LOCAL_CPU_UTIL REMOTE_CPU_UTIL LOCAL_SD REMOTE_SD &&
	[ "$(ends "$TMP/gso.json" gso | awk '{ print $2 }' | tr '\n' ' ')" = "lab-a=on lab-a=off " ] &&
	[ "$(ends "$TMP/gso.json" tso | awk '{ print $2 }' | tr '\n' ' ')" = "lab-a=off lab-a=off " ]
ok $? "seed002: GSO swept on the client with its TSO off, CPU and SD per point (rc $rc)"

"$TUNETOP" sweep preset gro -t TCP_STREAM -l 0.2 --mtu 9000 --json >"$TMP/g9.json" 2>"$TMP/g9.err"
rc=$?
[ $rc -eq 0 ] && cols "$TMP/g9.json" LOCAL_SD REMOTE_SD && grep -q '"target": "lab: .*MTU 9000' "$TMP/g9.json"
ok $? "seed002 at MTU 9000: a lab of its own with MTU 9000, CPU and SD per point (rc $rc)"

# --- seed 003: tcp_notsent_lowat on the sender, -i, SD, context switches ----
"$TUNETOP" sweep preset notsent --lab "$name" -t TCP_STREAM -l 0.3 -i 3,2 --json -- -m 256K \
	>"$TMP/ns.json" 2>"$TMP/ns.err"
rc=$?
[ $rc -eq 0 ] && cols "$TMP/ns.json" LOCAL_SD LOCAL_SD_CONFID LOCAL_CTX_PER_SEC LSS_SIZE_END
ok $? "seed003 notsent: SD with its interval, context switches/s and SO_SNDBUF per point (rc $rc)"
[ $rc -eq 0 ] || diag "$TMP/ns.err"
python3 - "$TMP/ns.json" <<'PY'
import json, sys
j = json.load(open(sys.argv[1]))
sys.exit(0 if all(isinstance(p["ci"], (int, float)) and p["iterations"] >= 2
		  for p in j["points"]) else 1)
PY
ok $? "seed003 notsent: each point iterated (-i 3,2) and has its throughput's confidence interval"
table "$TMP/ns.json" +-99%ci LOCAL_SD LOCAL_SD_CONFID LOCAL_CTX_PER_SEC LSS_SIZE_END
ok $? "seed003 notsent: sweep show's table has the interval, SD, its width, context switches, a number in every row"
ends "$TMP/ns.json" net.ipv4.tcp_notsent_lowat >"$TMP/ns.ends"
lowat_b=$(ip netns exec "$B" sysctl -n net.ipv4.tcp_notsent_lowat)
[ "$(cat "$TMP/ns.ends")" = "net.ipv4.tcp_notsent_lowat=4294967295 lab-a=4294967295 lab-b=$lowat_b
net.ipv4.tcp_notsent_lowat=131072 lab-a=131072 lab-b=$lowat_b" ]
ok $? "seed003 notsent: set on lab-a, the sender, only: $(tr '\n' ';' <"$TMP/ns.ends")"

"$TUNETOP" ab --lab "$name" --a local:net.ipv4.tcp_notsent_lowat=4294967295 \
	--b local:net.ipv4.tcp_notsent_lowat=131072 -n 4 --seed 3 -t TCP_STREAM -l 0.3 -c \
	--json -- -m 256K >"$TMP/ab.json" 2>"$TMP/ab.err"
rc=$?
python3 - "$TMP/ab.json" <<'PY'
import json, sys
j = json.load(open(sys.argv[1]))
bad = []
for m in ("throughput", "local_sd"):
	x = j["metrics"][m]
	for f in ("median_a", "median_b", "delta_pct", "ci_lo_pct", "ci_hi_pct", "p"):
		if isinstance(x[f], bool) or not isinstance(x[f], (int, float)):
			bad.append("%s %s %r" % (m, f, x[f]))
	if not (x["ci_lo_pct"] <= x["delta_pct"] <= x["ci_hi_pct"]):
		bad.append("%s: delta outside its interval" % m)
	if not x["verdict"] or (x["verdict"] != "~") != x["significant"]:
		bad.append("%s: verdict %r" % (m, x["verdict"]))
	print("# %s: %s %+.1f %% [%.1f %%, %.1f %%] p=%.2g" % (m, x["verdict"],
	      x["delta_pct"], x["ci_lo_pct"], x["ci_hi_pct"], x["p"]))
if j["pairs_done"] != 4 or not j["restored"] or j["failed"]:
	bad.append("pairs %s restored %s failed %s" % (j["pairs_done"], j["restored"], j["failed"]))
for b in bad:
	print("# " + b)
sys.exit(1 if bad else 0)
PY
[ $? -eq 0 ] && [ $rc -eq 0 ]
ok $? "seed003 ab: is the difference real? a verdict on throughput and SD with a 95 % interval (rc $rc)"
[ $rc -eq 0 ] || diag "$TMP/ab.err"

# --- seed 004: data segments per transaction, forward and backward ----------
# Requests of 1000 bytes, responses of 1: the direction shows in the bytes
# each side's veth sends and in which namespace the connections opened.
for pr in seed004 seed004-back; do
	sa0=$(tcpstat "$A"); sb0=$(tcpstat "$B")
	"$TUNETOP" sweep preset $pr --lab "$name" -l 0.2 --json -- -r 1000,1 >"$TMP/$pr.json" 2>"$TMP/$pr.err"
	rc=$?
	sa1=$(tcpstat "$A"); sb1=$(tcpstat "$B")
	[ $rc -eq 0 ] && cols "$TMP/$pr.json" DATA_SEGS_OUT_PER_TRANS DATA_SEGS_IN_PER_TRANS
	ok $? "$pr: every burst has data segments per transaction both ways (rc $rc)"
	[ $rc -eq 0 ] || diag "$TMP/$pr.err"
	echo "$pr ${sa0% *} ${sa1% *} ${sa0#* } ${sa1#* } ${sb0% *} ${sb1% *} ${sb0#* } ${sb1#* }" >>"$TMP/dir"
done
python3 - "$TMP/dir" <<'PY'
import sys
r = {}
for l in open(sys.argv[1]):
	f = l.split()
	n = [int(x) for x in f[1:]]
	r[f[0]] = dict(a_tx=n[1] - n[0], a_open=n[3] - n[2], b_tx=n[5] - n[4], b_open=n[7] - n[6])
	print("# %s: veth-a sent %d bytes, %d connects from a; veth-b sent %d bytes, %d from b" %
	      (f[0], r[f[0]]["a_tx"], r[f[0]]["a_open"], r[f[0]]["b_tx"], r[f[0]]["b_open"]))
fw, bk = r["seed004"], r["seed004-back"]
sys.exit(0 if fw["a_tx"] > 5 * fw["b_tx"] and fw["a_open"] > 0 and
	 bk["b_tx"] > 5 * bk["a_tx"] and bk["b_open"] > 0 else 1)
PY
ok $? "seed004-back: the requests come from side b (forward they come from side a)"
grep -q '"reverse": true' "$TMP/seed004-back.json" && grep -q '"reverse": false' "$TMP/seed004.json"
ok $? "seed004-back's document says reverse, seed004's does not"
table "$TMP/seed004-back.json" DATA_SEGS_OUT_PER_TRANS DATA_SEGS_IN_PER_TRANS
ok $? "seed004-back: sweep show's table has the segments per transaction, a number in every row"

# --- everything put back ---------------------------------------------------
knobvals >"$TMP/after"
cmp -s "$TMP/before" "$TMP/after"
rc=$?
ok $rc "every knob a seed command touched is back in $A and $B"
[ $rc -eq 0 ] || diff "$TMP/before" "$TMP/after" | sed 's/^/# /'
"$TUNETOP" restore >"$TMP/restore" 2>&1 &&
	grep -q "no changed knob to restore" "$TMP/restore"
ok $? "tunetop restore finds nothing: $(tail -1 "$TMP/restore")"

done_testing
