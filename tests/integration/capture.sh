#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Live capture: segment sizes on both ends in the lab, over loopback and
# through tunetopd; tso on/off, a 1-byte RR, -w read back, drops, no privilege.
. "$(dirname "$0")/lib.sh"

need_root "the capture tests"

isolated_state

# cap FILE END DIR FIELD: a figure of one direction of one end's capture.
cap() {
	jq_py "$1" "j['$2']['capture']['$3']['$4']"
}

# A 1-byte TCP_RR in the lab: both ends captured, nothing dropped, and
# nearly every data segment 1 byte long in every direction.
"$TUNETOP" run -t TCP_RR -l 2 --capture --json >"$TMP/rr.json" 2>"$TMP/rr.err"
ok $? "TCP_RR --capture in the lab exits 0"
r=$(jq_py "$TMP/rr.json" "j['local']['capture']['dev'] + ' ' + j['remote']['capture']['dev']")
[ "$r" = "veth-a veth-b" ]
ok $? "the local end captures on veth-a, the remote end on veth-b ($r)"
r=$(jq_py "$TMP/rr.json" "j['local']['capture']['counts']['kernel_drop'] + j['local']['capture']['counts']['if_drop'] + j['remote']['capture']['counts']['kernel_drop'] + j['remote']['capture']['counts']['if_drop']")
[ "$r" = 0 ]
ok $? "a full-rate 1-byte TCP_RR is captured with zero drops on both ends ($r)"
r=$(jq_py "$TMP/rr.json" "min(dict(x['sizes']).get(1,0) / max(x['data'],1) for e in ('local','remote') for x in (j[e]['capture']['sent'], j[e]['capture']['received']))")
python3 -c "import sys; sys.exit(0 if float(sys.argv[1]) >= 0.99 else 1)" "$r"
ok $? "1-byte RR: at least 99 % of data segments are 1 byte in all four directions ($r)"
r=$(jq_py "$TMP/rr.json" "(j['local']['capture']['sent']['data'], j['local']['total']['trans'])")
python3 -c "import sys; d,t=eval(sys.argv[1]); sys.exit(0 if t > 1000 and d >= t else 1)" "$r"
ok $? "the client's sent 1-byte segments cover every transaction ($r)"
r=$(jq_py "$TMP/rr.json" "(j['local']['capture']['sent']['mss'], j['local']['capture']['received']['mss'], j['local']['socks'][0]['tcp']['snd_mss'])")
[ "$r" = "(1448, 1448, 1448)" ]
ok $? "the MSS of both directions is the connection's (MTU 1500: 1448) ($r)"
# In a lab each capture takes only what arrives on its veth; the other
# end's capture gives what it sent (checked against a real capture below, -w).
r=$(jq_py "$TMP/rr.json" "[(j[e]['capture']['counts']['counted'], j[e]['capture']['received']['packets'], j[e]['capture']['sent']['packets'] > 1000) for e in ('local','remote')]")
python3 -c "import sys; sys.exit(0 if all(c == r and s for c, r, s in eval(sys.argv[1])) else 1)" "$r"
ok $? "lab: each end's capture counted only the packets it received, and both ends' sent are there ($r)"

# Human output names the devices, the filter and the drops.
"$TUNETOP" run -t TCP_RR -l 1 --capture >"$TMP/rr.txt" 2>&1
grep -q '^Capture, local end: veth-a, filter "tcp and port [0-9]* and host 198.18.0.2": [0-9]* packets counted, none dropped$' "$TMP/rr.txt" &&
	grep -q '^Capture, remote end: veth-b, filter "tcp and port [0-9]* and host 198.18.0.1"' "$TMP/rr.txt" &&
	grep -q '^local end sent  MSS 1448 (SYN)$' "$TMP/rr.txt" &&
	grep -q '^remote end received  MSS 1448' "$TMP/rr.txt"
ok $? "human output: a capture line per end and the sizes of each direction"
[ $? -eq 0 ] || diag "$TMP/rr.txt"
"$TUNETOP" run -t TCP_RR -l 1 >"$TMP/nocap.txt" 2>&1
! grep -q 'Capture\|Segment sizes' "$TMP/nocap.txt"
ok $? "without --capture nothing is captured or printed"

# A stream with TSO on: the sender hands the device super-segments.
"$TUNETOP" run -t TCP_STREAM -l 2 --capture --json >"$TMP/tso.json" 2>"$TMP/tso.err"
ok $? "TCP_STREAM --capture exits 0"
r=$(cap "$TMP/tso.json" local sent largest)
[ "$r" -gt 1500 ]
ok $? "tso on: the sender shows super-segments larger than the MTU (largest $r)"
r=$(jq_py "$TMP/tso.json" "j['local']['capture']['sent']['classes']['super-multiple']['segments'] + j['local']['capture']['sent']['classes']['super-other']['segments']")
[ "$r" -gt 0 ]
ok $? "and counts them as super-segments ($r)"

# TSO and GSO off on the sender: every data segment <= MSS on both ends.
"$TUNETOP" run -t TCP_STREAM -l 2 --capture --set local:tso=off --json >"$TMP/notso.json" 2>"$TMP/notso.err"
ok $? "TCP_STREAM --capture --set local:tso=off exits 0"
[ $? -eq 0 ] || diag "$TMP/notso.err"
r=$(jq_py "$TMP/notso.json" "[j[e]['capture'][d]['largest'] for e in ('local','remote') for d in ('sent','received') if j[e]['capture'][d]['data']]")
r2=$(jq_py "$TMP/notso.json" "all(s <= 1448 for e in ('local','remote') for d in ('sent','received') for s, c in j[e]['capture'][d]['sizes']) and j['local']['capture']['sent']['data'] > 1000")
[ "$r2" = True ]
ok $? "tso off on the sender: every data segment <= MSS 1448 on both ends (largest $r)"

# -w writes a pcap file; read back offline it gives the live histogram.
"$TUNETOP" run -t TCP_STREAM -l 1 -w "$TMP/w.pcap" --json >"$TMP/w.json" 2>"$TMP/w.err"
ok $? "-w FILE runs and implies --capture"
tcpdump -nr "$TMP/w.pcap" 2>/dev/null | head -1 | grep -q 'Flags \[S\]'
ok $? "tcpdump reads the file, starting with the SYN of the data connection"
"$TUNETOP" pcap "$TMP/w.pcap" --json >"$TMP/off.json" 2>"$TMP/off.err"
ok $? "tunetop pcap reads the -w file"
live=$(jq_py "$TMP/w.json" "sorted([tuple(x) for x in j['local']['capture']['sent']['sizes']]), sorted([tuple(x) for x in j['local']['capture']['received']['sizes']]), j['local']['capture']['sent']['acks'], j['local']['capture']['received']['acks']")
off=$(jq_py "$TMP/off.json" "[d for d in j['directions'] if d['src'] == '198.18.0.1'][0]['sizes'], [d for d in j['directions'] if d['src'] == '198.18.0.2'][0]['sizes'], [d for d in j['directions'] if d['src'] == '198.18.0.1'][0]['acks'], [d for d in j['directions'] if d['src'] == '198.18.0.2'][0]['acks']")
off=$(python3 -c "import sys; a,b,c,d = eval(sys.argv[1]); print((sorted(map(tuple,a)), sorted(map(tuple,b)), c, d))" "$off")
[ "$live" = "$off" ]
ok $? "the -w file's histograms read offline equal the live ones"
[ "$live" = "$off" ] || { echo "# live: $live" | cut -c1-300; echo "# off:  $off" | cut -c1-300; }
# With -w the local end captures both ways itself (the file holds them),
# the remote end still only what arrives: two taps of the same packets.
r=$(jq_py "$TMP/w.json" "j['local']['capture']['sent']['sizes'] == j['remote']['capture']['received']['sizes'] and j['local']['capture']['sent']['data'] > 1000 and j['remote']['capture']['counts']['counted'] == j['remote']['capture']['received']['packets']")
[ "$r" = True ]
ok $? "-w: what the local end's capture saw leave, the remote end's saw arrive, size for size"

# IPv6 in the lab.
"$TUNETOP" run -6 -t TCP_RR -l 1 --capture --json >"$TMP/v6.json" 2>>"$TMP/stderr"
r=$(jq_py "$TMP/v6.json" "j['local']['capture']['filter'], dict(j['remote']['capture']['received']['sizes']).get(1, 0) > 100")
case "$r" in *"host fd74:7400::2"*True*) r=0 ;; *) r=1 ;; esac
ok $r "IPv6: captured with a filter on the peer's IPv6 address"

# Loopback: both ends capture on lo.
"$TUNETOP" run -t TCP_RR -l 1 --loopback --capture --json >"$TMP/lo.json" 2>>"$TMP/stderr"
r=$(jq_py "$TMP/lo.json" "j['local']['capture']['dev'], j['remote']['capture']['dev'], j['local']['capture']['sent']['data'] > 100")
[ "$r" = "('lo', 'lo', True)" ]
ok $? "loopback: both ends capture on lo ($r)"
# kernel_recv may also count the last packets after the final read.
r=$(jq_py "$TMP/lo.json" "[(j[e]['capture']['counts']['kernel_recv'], j[e]['capture']['counts']['seen']) for e in ('local','remote')]")
python3 -c "import sys; sys.exit(0 if all(n > 100 and n <= k < 1.5 * n for k, n in eval(sys.argv[1])) else 1)" "$r"
ok $? "loopback: the kernel hands each capture every packet once, not its outgoing copy too ($r)"

# A real tunetopd captures its side and sends it with its samples.
start_daemon
"$TUNETOP" run -H 127.0.0.1 -p "$PORT" -t TCP_RR -l 1 --capture --json-stream >"$TMP/rem.jsonl" 2>>"$TMP/stderr"
ok $? "a run against tunetopd with --capture exits 0"
python3 - "$TMP/rem.jsonl" <<'EOF'
import json, sys
lines = [json.loads(l) for l in open(sys.argv[1]) if l.startswith('{')]
iv = [l for l in lines if l.get('type') == 'interval']
res = [l for l in lines if l.get('type') != 'interval'][-1]
# A tick whose remote sample is late has "remote": null (a loaded machine, the
# ASan build); every remote sample after the first two must carry the capture.
rem = [l['remote'] for l in iv[2:] if l.get('remote')]
pk = [r['capture']['dirs'][0]['packets'] if r.get('capture') else None for r in rem]
rc = res.get('remote') or {}
ok = (len(rem) >= 3 and None not in pk and pk[-1] > pk[0] and
      (rc.get('capture') or {}).get('dev') == 'lo' and rc['capture']['sent']['data'] > 100)
if not ok:
    print('# %d ticks, remote packets per tick from the third: %s; result capture: %s'
          % (len(iv), pk, json.dumps(rc.get('capture'))[:300]))
sys.exit(0 if ok else 1)
EOF
ok $? "the remote end's histograms arrive with every sample and grow, and in the result"

# No CAP_NET_RAW: --capture fails with one clear line; auto goes on.
setpriv --reuid=65534 --regid=65534 --clear-groups "$TUNETOP" run -t TCP_RR -l 1 --capture >"$TMP/np.txt" 2>&1
rc=$?
[ $rc -ne 0 ] && grep -q 'capture on lo: permission denied (needs CAP_NET_RAW' "$TMP/np.txt"
ok $? "unprivileged --capture: exit $rc and one line naming the device and the privilege"
[ $? -eq 0 ] || diag "$TMP/np.txt"
setpriv --reuid=65534 --regid=65534 --clear-groups "$TUNETOP" run -t TCP_RR -l 1 --capture=auto --no-db >"$TMP/na.txt" 2>&1
rc=$?
[ $rc -eq 0 ] && grep -q '^Capture, local end: none: capture on lo: permission denied' "$TMP/na.txt"
ok $? "unprivileged --capture=auto: the run goes on and says why there is no capture"

# Bad values.
"$TUNETOP" run -l 1 --capture=sometimes >"$TMP/b1.txt" 2>&1
[ $? -eq 2 ] && grep -q 'accepted: --capture, --capture=on, --capture=auto' "$TMP/b1.txt"
ok $? "--capture=sometimes is refused naming what is accepted"
"$TUNETOP" run -l 1 -w /nonexistent/dir/x.pcap >"$TMP/b2.txt" 2>&1
[ $? -eq 2 ] && grep -q -- '-w /nonexistent/dir/x.pcap: cannot write in /nonexistent/dir' "$TMP/b2.txt" && [ "$(grep -c . "$TMP/b2.txt")" -eq 1 ]
ok $? "-w into a missing directory: exit 2 and one line naming the file"
[ $? -eq 0 ] || diag "$TMP/b2.txt"
done_testing
