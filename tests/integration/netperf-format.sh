#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# tunetop's output against netperf 2.7.1's real output (tests/data/netperf):
# every test type with and without -c -C and -P 0, -i, -o/-O/-k, the banner
# bits, column for column; the numbers against the JSON of the same run.
. "$(dirname "$0")/lib.sh"

G="$top_srcdir/tests/data/netperf"
PY="$top_srcdir/tests/integration/netperf_format.py"

python3 "$PY" selfcheck "$G" >"$TMP/self.txt" 2>&1
ok $? "the row formats are netperf's: every golden row re-prints from its own numbers"
diag "$TMP/self.txt"

# one NAME GOLDEN ARGS...: run tunetop on loopback into its own history,
# keep stdout, stderr and the stored JSON of that very run.
n=0
one() {
	name=$1
	shift
	n=$((n + 1))
	rm -f "$TMP/db$n"
	"$TUNETOP" run --loopback --db "$TMP/db$n" -l 1 "$@" >"$TMP/$name.out" 2>"$TMP/$name.err"
	rc=$?
	"$TUNETOP" runs --db "$TMP/db$n" export 1 --json >"$TMP/$name.json" 2>>"$TMP/$name.err"
	return $rc
}

for t in TCP_RR TCP_CRR TCP_STREAM TCP_MAERTS UDP_RR UDP_STREAM; do
	lc=$(echo "$t" | tr 'A-Z' 'a-z')
	extra=
	[ "$t" = UDP_STREAM ] && extra="-- -m 1472"
	for v in "" -cC -P0 -P0-cC; do
		args=
		p0=
		case $v in
		*cC) args="-c -C" ;;
		esac
		case $v in
		-P0*) args="$args -P 0"; p0=--p0 ;;
		esac
		# shellcheck disable=SC2086
		one "$lc$v" -t "$t" $args $extra
		ok $? "$t $args runs"
		python3 "$PY" human "$G/$lc$v.txt" "$TMP/$lc$v.out" "$TMP/$lc$v.err" "$TMP/$lc$v.json" $p0 >"$TMP/cmp.txt" 2>&1
		rc=$?
		ok $rc "$t $args: netperf's lines, columns and formats; numbers equal the run's JSON"
		[ $rc -eq 0 ] || { diag "$TMP/cmp.txt"; diag "$TMP/$lc$v.out"; }
	done
done

# -P 0 | awk picks netperf's field: the rate of RR is $6, of streams $5.
for t in TCP_RR:6:throughput UDP_RR:6:throughput TCP_STREAM:5:throughput TCP_MAERTS:5:throughput; do
	lc=$(echo "${t%%:*}" | tr 'A-Z' 'a-z')
	f=$(echo "$t" | cut -d: -f2)
	key=${t##*:}
	mine=$(awk "NR == 1 {print \$$f}" "$TMP/$lc-P0.out")
	theirs=$(awk "NR == 1 {print \$$f}" "$G/$lc-P0.txt" | head -1)
	# The golden's first line is the command: its row is line 2.
	theirs=$(sed -n 2p "$G/$lc-P0.txt" | awk "{print \$$f}")
	want=$(jq_py "$TMP/$lc-P0.json" "'%.2f' % j['result']['result']['$key']")
	[ "$mine" = "$want" ] && echo "$theirs" | grep -Eq '^[0-9]+\.[0-9]{2}$'
	ok $? "${t%%:*} -P 0 | awk '{print \$$f}' is the rate, as in netperf ($mine, JSON $want, netperf's $theirs)"
done
mine=$(tail -2 "$TMP/udp_stream-P0.out" | head -1 | awk '{print $4}')
want=$(jq_py "$TMP/udp_stream-P0.json" "'%.2f' % j['result']['result']['throughput']")
[ "$mine" = "$want" ]
ok $? "UDP_STREAM -P 0: the receiving line's \$4 is the throughput ($mine, JSON $want)"

# -i/-I: netperf's banner with the confidence asked for, the warning block
# when not reached, then the -c -C table.
one i -t TCP_RR -c -C -i 3,2 -I 99,5
ok $? "TCP_RR -i 3,2 -I 99,5 runs"
head -1 "$TMP/i.out" | grep -qx "MIGRATED TCP REQUEST/RESPONSE TEST from 0.0.0.0 (0.0.0.0) port 0 AF_INET to 127.0.0.1 () port 0 AF_INET : +/-2.500% @ 99% conf.  : histogram : demo : first burst 0"
ok $? "-i: netperf's banner with +/-2.500% @ 99% conf."
python3 - "$G/tcp_rr-i.txt" "$TMP/i.out" "$TMP/i.json" >"$TMP/cmp.txt" 2>&1 <<'PY'
import json, re, sys
g = open(sys.argv[1]).read().split("\n")[1:]
t = open(sys.argv[2]).read().split("\n")
j = json.load(open(sys.argv[3]))["result"]
reached = j["confidence"]["reached"]
warn = [l for l in g if l.startswith("!!!")] + [""]
if not reached:
    pat = [re.escape(l) for l in warn]
    pat = [re.sub(r"\d+\\\.\d{3}%", r"\\d+\\.\\d{3}%", p) for p in pat]
    for p, l in zip(pat, t[1:1 + len(warn)]):
        assert re.fullmatch(p, l), (p, l)
    width = float(re.search(r": ([\d.]+)%", t[5]).group(1))
    assert abs(width - j["confidence"]["throughput"]["width_pct"]) < 0.0006, (width, j["confidence"])
    rest = t[1 + len(warn):]
else:
    assert not any(l.startswith("!!!") for l in t), t
    rest = t[1:]
gt = g[1 + len(warn):1 + len(warn) + 5]
assert rest[:5] == gt, (rest[:5], gt)
PY
rc=$?
ok $rc "-i: the warning block as netperf prints it (when not reached), then netperf's titles"
[ $rc -eq 0 ] || diag "$TMP/cmp.txt"

# The banner bits: -b, -D (TCP_NODELAY) and the socket sizes asked for.
one bd -t TCP_RR -- -r 1,1 -b 15 -D
[ "$(head -1 "$TMP/bd.out")" = "$(sed -n 2p "$G/tcp_rr-b-D.txt")" ]
ok $? "-b 15 -D: the banner is netperf's (: nodelay ... : first burst 15)"
one ss -t TCP_STREAM -- -m 16K -s 64K -S 64K
python3 "$PY" human "$G/tcp_stream-sS.txt" "$TMP/ss.out" "$TMP/ss.err" "$TMP/ss.json" >"$TMP/cmp.txt" 2>&1 &&
	[ "$(sed -n 7p "$TMP/ss.out" | awk '{print $1, $2, $3}')" = "$(sed -n 8p "$G/tcp_stream-sS.txt" | awk '{print $1, $2, $3}')" ]
ok $? "-s 64K -S 64K: the rows show the sizes before connect, as netperf's (131072 131072 16384)"
diag "$TMP/cmp.txt"

# IPv6: netperf's banner "from ::0 (::) ... to ::1 (::1)" (it prints an
# address only when it is shorter than 8 characters: see banner_addr).
one v6 -6 -t TCP_RR
[ "$(head -1 "$TMP/v6.out")" = "$(sed -n 2p "$G/dropin/tcp_rr-6.txt")" ]
ok $? "-6: the banner is netperf's ($(head -1 "$TMP/v6.out" | cut -c1-80))"

# -D: the banner first, the interim lines after it, then netperf's table.
"$TUNETOP" run --loopback --no-db -t TCP_RR -l 2 -D 0.5 >"$TMP/d.out" 2>&1
head -1 "$TMP/d.out" | grep -q "^MIGRATED TCP REQUEST/RESPONSE TEST" &&
	sed -n 2p "$TMP/d.out" | grep -q "^Interim result: [0-9.]* Trans/s over [0-9.]* seconds ending at [0-9]*\.[0-9]\{3\}" &&
	[ "$(grep -n '^Local /Remote' "$TMP/d.out" | cut -d: -f1)" -gt "$(grep -n '^Interim result' "$TMP/d.out" | tail -1 | cut -d: -f1)" ]
ok $? "-D 0.5: the banner first, then the interim lines, then the table"

# -v 0: the banner, then the rate alone as netperf's "%7.2f \n".
for name in tcp_rr-v0 tcp_stream-v0; do
	t=$(echo "${name%-v0}" | tr a-z A-Z)
	one "$name" -t "$t" -v 0
	python3 - "$G/dropin/$name.txt" "$TMP/$name.out" "$TMP/$name.json" >"$TMP/cmp.txt" 2>&1 <<'PY'
import json, re, sys
theirs = open(sys.argv[1]).read().split("\n")[1:]
mine = open(sys.argv[2]).read().split("\n")
mask = lambda l: re.sub(r"\d+\.\d\d", "F", l)
assert [mask(l) for l in mine] == [mask(l) for l in theirs], (mine, theirs)
rate = json.load(open(sys.argv[3]))["result"]["result"]["throughput"]
assert abs(float(mine[1]) - rate) < 0.006, (mine[1], rate)
print("%r as netperf's, the stored rate %.2f" % (mine[1], rate))
PY
	rc=$?
	ok $rc "$name: -v 0 prints the banner and the rate alone ($(tail -1 "$TMP/cmp.txt"))"
	[ $rc -eq 0 ] || { diag "$TMP/cmp.txt"; diag "$TMP/$name.out"; }
done

# -D with -k and -o: netperf's interim lines in its keyval and CSV forms
# (what flent reads), the index counting from 0, then the final result.
for s in "tcp_rr-D-k:-P 0 -t TCP_RR -D 0.3 -- -k THROUGHPUT,MEAN_LATENCY" \
	 "tcp_stream-D-o:-t TCP_STREAM -D 0.3 -- -o THROUGHPUT,THROUGHPUT_UNITS"; do
	name=${s%%:*}
	# shellcheck disable=SC2086
	one "$name" ${s#*:}
	python3 - "$G/dropin/$name.txt" "$TMP/$name.out" >"$TMP/cmp.txt" 2>&1 <<'PY'
import re, sys
mask = lambda l: re.sub(r"\[\d+\]", "[i]", re.sub(r"\d+\.\d+", "F", l))
theirs = open(sys.argv[1]).read().split("\n")[1:]
mine = open(sys.argv[2]).read().split("\n")
def shape(lines):
    """(lines before the interim block, one interim block, times, the rest)"""
    m = [mask(l) for l in lines]
    first = next(i for i, l in enumerate(m) if l.startswith("NETPERF_INTERIM") or re.match(r"^F,[^,]+,F,F$", l))
    size = 4 if m[first].startswith("NETPERF") else 1
    block, k = m[first:first + size], 0
    while m[first + k * size:first + (k + 1) * size] == block:
        k += 1
    return m[:first], block, k, m[first + k * size:]
t, mi = shape(theirs), shape(mine)
assert (t[0], t[1], t[3]) == (mi[0], mi[1], mi[3]), "\n".join(map(repr, (t, mi)))
assert mi[2] >= 2, "%d interim results" % mi[2]
idx = [int(x) for x in re.findall(r"^NETPERF_INTERIM_RESULT\[(\d+)\]", "\n".join(mine), re.M)]
assert idx == list(range(len(idx))), idx
print("%d interim results, layout as netperf's" % mi[2])
PY
	rc=$?
	ok $rc "$name: -D's interim lines as netperf prints them with ${name##*-} ($(tail -1 "$TMP/cmp.txt"))"
	[ $rc -eq 0 ] || { diag "$TMP/cmp.txt"; diag "$TMP/$name.out"; }
done

# Output selectors: netperf's titles, formats and layouts.
for s in "tcp_rr-o:-t TCP_RR -- -r 1,1 -o THROUGHPUT,THROUGHPUT_UNITS,MEAN_LATENCY,P50_LATENCY,P90_LATENCY,P99_LATENCY,LSS_SIZE,LSS_SIZE_END,RSR_SIZE,RSR_SIZE_END" \
	 "tcp_rr-o-P0:-t TCP_RR -P 0 -- -r 1,1 -o THROUGHPUT,MEAN_LATENCY,P99_LATENCY" \
	 "tcp_rr-O:-t TCP_RR -- -r 1,1 -O THROUGHPUT,MEAN_LATENCY,P99_LATENCY,LOCAL_CPU_UTIL" \
	 "tcp_rr-k:-t TCP_RR -c -C -- -r 1,1 -k THROUGHPUT,MEAN_LATENCY,P99_LATENCY,LOCAL_CPU_UTIL,LOCAL_SD,LSS_SIZE,LSS_SIZE_END" \
	 "tcp_stream-o:-t TCP_STREAM -c -C -- -m 64K -o THROUGHPUT,THROUGHPUT_UNITS,LOCAL_CPU_UTIL,LOCAL_SD,REMOTE_CPU_UTIL,REMOTE_SD,LSS_SIZE,LSS_SIZE_END,RSR_SIZE,RSR_SIZE_END"; do
	name=${s%%:*}
	# shellcheck disable=SC2086
	one "$name" ${s#*:}
	ok $? "$name runs"
	python3 "$PY" sel "$G/$name.txt" "$TMP/$name.out" "$TMP/$name.json" >"$TMP/cmp.txt" 2>&1
	rc=$?
	ok $rc "$name: netperf's banner, titles, formats and layout; values equal the JSON"
	[ $rc -eq 0 ] || { diag "$TMP/cmp.txt"; diag "$TMP/$name.out"; }
done
grep -q "^Target: loopback" "$TMP/tcp_rr-k.err" && ! grep -q "Target" "$TMP/tcp_rr-k.out"
ok $? "-k: the Target: line goes to stderr, stdout stays netperf's"

"$TUNETOP" run -- -o '?' >"$TMP/sel.txt" 2>&1
python3 - "$G/tcp_rr-sel-help.txt" "$TMP/sel.txt" >"$TMP/cmp.txt" 2>&1 <<'PY'
import sys
theirs = open(sys.argv[1]).read().split("\n")[1].split(",")
mine = open(sys.argv[2]).read().strip().split(",")
common = [n for n in theirs if n in mine]
assert mine[:len(common)] == common, "netperf's names first, in netperf's order"
assert len(common) >= 60, len(common)
assert "TARGET" in mine and "DATA_SEGS_OUT_PER_TRANS" in mine
PY
ok $? "-o ?: netperf's names in netperf's order, then tunetop's"
diag "$TMP/cmp.txt"

done_testing
