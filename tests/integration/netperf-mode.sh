#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# netperf mode (docs/netperf.md): tunetop run as `netperf` (the symlink make
# install puts in $(pkglibexecdir)/netperf-compat) or with --netperf prints
# netperf's stdout alone; tunetop's own lines go to stderr with --extras,
# else nowhere; the run is still stored unless --no-db.
. "$(dirname "$0")/lib.sh"

G="$top_srcdir/tests/data/netperf"
mkdir -p "$TMP/compat"
ln -s "$TUNETOP" "$TMP/compat/netperf"
NP="$TMP/compat/netperf"

# same_layout GOLDEN OUT: the lines of netperf's golden (its first line is
# the command) and of OUT alike with every number masked.
same_layout() {
	python3 - "$1" "$2" >"$TMP/cmp.txt" 2>&1 <<'PY'
import re, sys
mask = lambda l: re.sub(r"\d+(\.\d+)?", "N", l)
theirs = open(sys.argv[1]).read().split("\n")[1:]
mine = open(sys.argv[2]).read().split("\n")
assert [mask(l) for l in mine] == [mask(l) for l in theirs], "\n".join(map(repr, (mine, theirs)))
PY
}

# Run as netperf with no -H: loopback (netperf mode makes no lab).
"$NP" -t TCP_STREAM -l 1 >"$TMP/s.out" 2>"$TMP/s.err"
rc=$?
[ $rc -eq 0 ] && same_layout "$G/tcp_stream.txt" "$TMP/s.out"
ok $? "run as netperf: stdout is netperf's TCP_STREAM block alone (exit $rc)"
[ $? -eq 0 ] || { diag "$TMP/cmp.txt"; diag "$TMP/s.out"; }
[ ! -s "$TMP/s.err" ]
ok $? "run as netperf: nothing on stderr without --extras"
[ $? -eq 0 ] || diag "$TMP/s.err"

# The run is stored all the same, and the scripts' awk reads its rate.
"$TUNETOP" runs export 1 --json >"$TMP/s.json" 2>"$TMP/x.err"
rate=$(jq_py "$TMP/s.json" '"%.2f" % j["result"]["result"]["throughput"]' 2>>"$TMP/x.err")
awk5=$(tail -1 "$TMP/s.out" | awk '{print $5}')
[ -n "$rate" ] && [ "$awk5" = "$rate" ]
ok $? "tail -1 | awk '{print \$5}' is the rate ($awk5), the stored run's ($rate)"
[ $? -eq 0 ] || diag "$TMP/x.err"

# --netperf from tunetop itself, and --extras: the same stdout, tunetop's
# lines (target, latency, counts, limits, the stored run) on stderr.
"$TUNETOP" --netperf --extras -t TCP_RR -l 1 >"$TMP/r.out" 2>"$TMP/r.err"
rc=$?
[ $rc -eq 0 ] && same_layout "$G/tcp_rr.txt" "$TMP/r.out"
ok $? "tunetop --netperf --extras: stdout is netperf's TCP_RR block alone (exit $rc)"
[ $? -eq 0 ] || { diag "$TMP/cmp.txt"; diag "$TMP/r.out"; }
grep -q "^Target: loopback" "$TMP/r.err" && grep -q "^Latency (us): " "$TMP/r.err" &&
	grep -q "^Counts agree" "$TMP/r.err" && grep -q "^Stored as run 2$" "$TMP/r.err"
ok $? "--extras: the target, latency, counts and 'Stored as run 2' on stderr"
[ $? -eq 0 ] || diag "$TMP/r.err"

# -D: netperf's "Interim result:" lines, with no tunetop suffix; -P 0 and
# --no-db: the row alone, nothing stored.
"$NP" -t TCP_RR -l 1 -D 0.25 -P 0 --no-db >"$TMP/d.out" 2>"$TMP/d.err"
rc=$?
n=$(grep -c "^Interim result: " "$TMP/d.out")
[ $rc -eq 0 ] && [ "$n" -ge 2 ] &&
	! grep "^Interim result: " "$TMP/d.out" | grep -vq '^Interim result: [0-9]*\.[0-9][0-9] Trans/s over [0-9]*\.[0-9][0-9][0-9] seconds ending at [0-9]*\.[0-9][0-9][0-9]$' &&
	[ "$(grep -vc "^Interim result: " "$TMP/d.out")" -eq 2 ] && [ ! -s "$TMP/d.err" ]
ok $? "-D 0.25 -P 0: $n 'Interim result:' lines as netperf's, then its two rows"
[ $? -eq 0 ] || { diag "$TMP/d.out"; diag "$TMP/d.err"; }
"$TUNETOP" runs list >"$TMP/list.txt" 2>&1
[ "$(grep -c '^ *[0-9]' "$TMP/list.txt")" -eq 2 ]
ok $? "--no-db: the third run is not stored"
[ $? -eq 0 ] || diag "$TMP/list.txt"

# -f: the rate in netperf's unit on the screen, the run's own in the
# history (streams: 10^6bits/s; RR with a bit unit: its bytes both ways).
"$NP" -t TCP_STREAM -l 1 -f K -P 0 >"$TMP/fk.out" 2>"$TMP/fk.err"
"$NP" -t TCP_RR -l 1 -f k -P 0 -- -r 100,200 >"$TMP/fr.out" 2>>"$TMP/fk.err"
"$TUNETOP" runs export 3 --json >"$TMP/fk.json" 2>>"$TMP/fk.err"
"$TUNETOP" runs export 4 --json >"$TMP/fr.json" 2>>"$TMP/fk.err"
python3 - "$TMP/fk.out" "$TMP/fk.json" "$TMP/fr.out" "$TMP/fr.json" >"$TMP/f.txt" 2>&1 <<'PY'
import json, sys
kb = float(open(sys.argv[1]).read().split()[4])
mbit = json.load(open(sys.argv[2]))["result"]["result"]["throughput"]
# the stored figure has two decimals: 0.005 10^6bits/s is 0.61 KBytes/s
assert abs(kb - mbit * 1e6 / 8 / 1024) <= 0.62, (kb, mbit)
kbit = float(open(sys.argv[3]).read().split("\n")[0].split()[5])
trans = json.load(open(sys.argv[4]))["result"]["result"]["throughput"]
assert abs(kbit - trans * 300 * 8 / 1e3) <= 0.02, (kbit, trans)
print("%.2f KBytes/s of %.2f 10^6bits/s; %.2f 10^3bits/s of %.2f Trans/s" % (kb, mbit, kbit, trans))
PY
ok $? "-f K (TCP_STREAM), -f k (TCP_RR -r 100,200): $(tail -1 "$TMP/f.txt")"
[ $? -eq 0 ] || { diag "$TMP/f.txt"; diag "$TMP/fk.err"; }

# -i without -c/-C: netperf's warning gives the CPU intervals as 0.000 %
# (a width of 0.001 % is never reached in 2 iterations).
"$NP" -t TCP_RR -l 0.5 -i 2,2 -I 99,0.001 --no-db >"$TMP/i.out" 2>&1
grep -q "^!!! Confidence intervals: Throughput      : [0-9]*\.[0-9][0-9][0-9]%$" "$TMP/i.out" &&
	grep -q "^!!!                       Local CPU util  : 0\.000%$" "$TMP/i.out" &&
	grep -q "^!!!                       Remote CPU util : 0\.000%$" "$TMP/i.out"
ok $? "-i without -c/-C: the CPU confidence intervals are 0.000 %, as netperf's"
[ $? -eq 0 ] || diag "$TMP/i.out"

# Outside netperf mode tunetop's lines stay on stdout; --extras alone is refused.
"$TUNETOP" run --loopback --no-db -t TCP_RR -l 1 >"$TMP/t.out" 2>&1
grep -q "^Target: loopback" "$TMP/t.out"
ok $? "tunetop run: its own lines still follow netperf's block on stdout"
"$TUNETOP" run --extras -l 1 >"$TMP/e.out" 2>"$TMP/e.err"
rc=$?
[ $rc -eq 2 ] && [ ! -s "$TMP/e.out" ] && [ "$(wc -l <"$TMP/e.err")" -eq 1 ] &&
	grep -q "option --extras: .*accepted: --extras with --netperf" "$TMP/e.err"
ok $? "--extras without netperf mode: one line, exit 2 ($(cat "$TMP/e.err"))"

# make install puts the netperf symlink in a directory of tunetop's own.
make -s -C "$top_builddir" install-exec DESTDIR="$TMP/inst" >"$TMP/inst.txt" 2>&1
link=$(find "$TMP/inst" -path '*/netperf-compat/netperf' 2>/dev/null)
[ -n "$link" ] && [ -L "$link" ] && [ -x "$TMP/inst$(readlink "$link")" ] &&
	[ "$(basename "$(readlink "$link")")" = tunetop ] && ! [ -e "$(dirname "$link")/tunetop" ] &&
	case $link in */bin/*) false ;; esac
ok $? "make install: ${link#"$TMP/inst"} -> $(readlink "$link")"
[ $? -eq 0 ] || diag "$TMP/inst.txt"

done_testing
