#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# flent (Debian's package, which quickstart installs) with tunetop as its
# netperf (the netperf-compat symlink first on PATH, docs/netperf.md)
# against a tunetopd of the test's own on loopback: tcp_1up_noping and
# tcp_download give data points in flent's data file, about one per 0.2 s
# as with netperf's -D -0.20.
. "$(dirname "$0")/lib.sh"

if ! command -v flent >/dev/null; then
	if [ "${CI:-}" = true ]; then
		echo "not ok 1 - flent is not installed (./quickstart installs it)"
		echo "1..1"
		exit 1
	fi
	echo "1..0 # SKIP flent is not installed"
	exit 0
fi

mkdir -p "$TMP/compat" "$TMP/fl"
ln -s "$TUNETOP" "$TMP/compat/netperf"
start_daemon || { done_testing; exit 1; }

# one TEST SERIES: run flent TEST for 2 s; check its data file's SERIES.
n=0
one() {
	n=$((n + 1))
	mkdir -p "$TMP/fl/$n"
	(cd "$TMP/fl/$n" && PATH="$TMP/compat:$PATH" timeout 60 flent "$1" -l 2 -H 127.0.0.1 \
		--netperf-control-port "$PORT" -D . >flent.out 2>&1)
	rc=$?
	python3 - "$TMP/fl/$n" "$2" >"$TMP/fl/$n/check.txt" 2>&1 <<'PY'
import glob, gzip, json, sys
d, series = sys.argv[1], sys.argv[2]
f = glob.glob(d + "/*.flent.gz")
assert len(f) == 1, "no data file: %r" % f
j = json.load(gzip.open(f[0]))
md = j["metadata"]
assert md.get("FAILED_RUNNERS") == 0, "failed runners: %r" % md.get("FAILED_RUNNERS")
pts = [p for p in j["raw_values"][series] if p.get("val") is not None]
# netperf's -D -0.20 over 2 s: ten points; a loaded host may lose one or two.
assert 7 <= len(pts) <= 12, "%d data points" % len(pts)
# Each interval about 0.2 s (one may stretch while a loaded host lags).
durs = sorted(p["dur"] for p in pts)
assert all(p["val"] > 0 and 0 < p["dur"] < 1 for p in pts), pts
assert 0.15 <= durs[len(durs) // 2] <= 0.3, durs
meta = md["SERIES_META"][series]
assert meta["MEAN_VALUE"] > 0 and meta["UNITS"] == "Mbits/s", meta
print("%d data points, mean %.0f %s, congestion control %s" % (
    len(pts), meta["MEAN_VALUE"], meta["UNITS"], meta.get("CONG_CONTROL")))
PY
	c=$?
	[ $rc -eq 0 ] && [ $c -eq 0 ]
}

one tcp_1up_noping "TCP upload"
ok $? "flent tcp_1up_noping with tunetop as netperf: $(tail -1 "$TMP/fl/$n/check.txt")"
[ $? -eq 0 ] || { diag "$TMP/fl/$n/flent.out"; diag "$TMP/fl/$n/check.txt"; }

one tcp_download "TCP download"
ok $? "flent tcp_download with tunetop as netperf: $(tail -1 "$TMP/fl/$n/check.txt")"
[ $? -eq 0 ] || { diag "$TMP/fl/$n/flent.out"; diag "$TMP/fl/$n/check.txt"; }

# Each netperf flent ran is a run in the history, as tunetop run's.
"$TUNETOP" runs list >"$TMP/list.txt" 2>&1
[ "$(grep -c '^ *[0-9]' "$TMP/list.txt")" -ge 2 ]
ok $? "flent's netperf runs are stored in the history"
[ $? -eq 0 ] || diag "$TMP/list.txt"

done_testing
