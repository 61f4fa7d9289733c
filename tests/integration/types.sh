#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Every test type against a real tunetopd on 127.0.0.1 and ::1: both ends' counts agree.
. "$(dirname "$0")/lib.sh"
start_daemon || exit 1

for addr in 127.0.0.1 ::1; do
	for t in TCP_RR TCP_CRR TCP_STREAM TCP_MAERTS UDP_RR UDP_STREAM; do
		out="$TMP/$t.json"
		"$TUNETOP" run -H "$addr" -p "$PORT" -t "$t" -l 1 --json >"$out" 2>"$TMP/err"
		rc=$?
		ok $rc "$t on $addr exits 0"
		[ $rc -eq 0 ] || diag "$TMP/err"
		agree=$(jq_py "$out" 'j["counts_agree"]' 2>/dev/null)
		[ "$agree" = True ]
		ok $? "$t on $addr: both ends' counts agree"
		thr=$(jq_py "$out" 'j["result"]["throughput"] > 0' 2>/dev/null)
		[ "$thr" = True ]
		ok $? "$t on $addr: throughput is positive"
	done
done

# flent's way of running netperf (its tcp_download, without -f m):
# -P 0 -v 0, a negative -D, -H with a family, the control host again as
# the data host, and -k with interim lines.
"$TUNETOP" run -P 0 -v 0 -D -0.20 -4 -H 127.0.0.1,4 -p "$PORT" -t TCP_MAERTS -l 1 -F /dev/urandom -- -H 127.0.0.1 \
	-k THROUGHPUT,LOCAL_CONG_CONTROL,REMOTE_CONG_CONTROL,TRANSPORT_MSS,DIRECTION,ELAPSED_TIME,PROTOCOL \
	>"$TMP/flent.out" 2>"$TMP/err"
rc=$?
n=$(grep -c "^NETPERF_INTERIM_RESULT\[[0-9]*\]=[0-9.]*$" "$TMP/flent.out")
[ $rc -eq 0 ] && [ "$n" -ge 3 ] && grep -q "^THROUGHPUT=[0-9.]*$" "$TMP/flent.out" &&
	grep -q "^DIRECTION=Receive$" "$TMP/flent.out" && grep -Eq "^REMOTE_CONG_CONTROL=[a-z0-9_]+$" "$TMP/flent.out" &&
	[ "$(grep -cv "^NETPERF_\|^[A-Z_]*=" "$TMP/flent.out")" -eq 0 ]
ok $? "flent's command line for tcp_download: exit $rc, $n interim results, nothing but NETPERF_* and KEY= lines"
[ $? -eq 0 ] || { diag "$TMP/flent.out"; diag "$TMP/err"; }

# -F FILE: the data sent is the file's bytes, as seen on the wire: the
# run's own capture (-w), filtered on its data port, so what other tests
# send over lo at the same time is not counted (a tcpdump of all of lo
# once caught 20 segments of another test's).
if [ "$(id -u)" -eq 0 ]; then
	python3 -c 'import sys; open(sys.argv[1], "wb").write(b"TUNETOP-FILL-" * 400)' "$TMP/fill.bin"
	"$TUNETOP" run -H 127.0.0.1 -p "$PORT" -t TCP_STREAM -l 1 -P 0 -F "$TMP/fill.bin" \
		-w "$TMP/fill.pcap" >"$TMP/fo" 2>"$TMP/err"
	rc=$?
	n=$(python3 -c 'import sys; print(open(sys.argv[1], "rb").read().count(b"TUNETOP-FILL-"))' "$TMP/fill.pcap" 2>/dev/null)
	[ $rc -eq 0 ] && [ "${n:-0}" -ge 20 ]
	ok $? "-F FILE: the segments on the wire carry the file's bytes ($n copies of its pattern in the run's capture)"
	[ $? -eq 0 ] || diag "$TMP/err"
elif [ "${CI:-}" = true ]; then
	ok 1 "-F FILE: checking the wire needs root (a capture), which CI has"
fi

# Test options that change the data path.
"$TUNETOP" run -H 127.0.0.1 -p "$PORT" -t TCP_RR -l 1 --json -- -r 100,2000 -b 7 -D -n 3 >"$TMP/o.json" 2>"$TMP/err"
ok $? "TCP_RR -r 100,2000 -b 7 -D -n 3 runs"
[ "$(jq_py "$TMP/o.json" 'j["counts_agree"]')" = True ]
ok $? "three flows with burst: counts agree"
"$TUNETOP" run -H 127.0.0.1 -p "$PORT" -t TCP_STREAM -l 1 --json -- -m 64K -s 128K -S 256K >"$TMP/s.json" 2>"$TMP/err"
ok $? "TCP_STREAM -m 64K -s 128K -S 256K runs"
lss=$(jq_py "$TMP/s.json" 'j["result"]["lss_size"]')
[ "$lss" = 262144 ] || [ "$lss" = 262144.0 ]
ok $? "-s 128K gives a local send buffer of 2 x 128K as the kernel doubles it (got $lss)"

# Embedded server on loopback (no -H, --loopback), said so.
"$TUNETOP" run -t TCP_RR -l 1 --loopback >"$TMP/e.txt" 2>&1
ok $? "embedded server run exits 0"
grep -q "loopback: embedded tunetopd on 127.0.0.1 (asked for with --loopback)" "$TMP/e.txt"
ok $? "output says the embedded loopback server was used, and why"

done_testing
