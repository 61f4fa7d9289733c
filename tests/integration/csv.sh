#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Every CSV output is RFC 4180 (src/core/csv.c): a value with a comma and a
# double quote - here the host's name, set in a UTS namespace of the test's
# own - comes back whole through Python's csv module from run -o and from a
# sweep's -o; pcap -o (whose fields nobody can set) parses back too.
. "$(dirname "$0")/lib.sh"

need_root "the CSV tests (a host name set in a UTS namespace of their own)"
isolated_state
export TUNETOP_DB="$TMP/runs.db"
NAME='a,b "c" d'

# uts CMD...: CMD with the host name NAME, in a UTS namespace of its own.
uts() {
	unshare -u sh -c 'printf "%s" "$1" >/proc/sys/kernel/hostname && shift && exec "$@"' \
		sh "$NAME" "$@"
}

uts "$TUNETOP" run --loopback -l 0.5 -- -o LOCAL_HOST,THROUGHPUT,THROUGHPUT_UNITS >"$TMP/run.csv" 2>"$TMP/run.err"
rc=$?
python3 - "$TMP/run.csv" "$NAME" <<'PY'
import csv, sys
rows = list(csv.reader(open(sys.argv[1], newline="")))
rows = rows[-2:]		# after netperf's banner
assert rows[0] == ["LOCAL_HOST", "Throughput", "Throughput Units"], rows[0]
assert rows[1][0] == sys.argv[2] and float(rows[1][1]) > 0 and rows[1][2] == "Trans/s", rows[1]
PY
[ $? -eq 0 ] && [ $rc -eq 0 ]
ok $? "run -o: LOCAL_HOST '$NAME' is one field that parses back whole ($(tail -1 "$TMP/run.csv"))"
[ $? -eq 0 ] || { diag "$TMP/run.csv"; diag "$TMP/run.err"; }
grep -qF '"a,b ""c"" d"' "$TMP/run.csv"
ok $? "run -o: the field is quoted, its quotes doubled"

uts "$TUNETOP" sweep burst 0,1 --loopback -l 0.3 -- -o LOCAL_HOST >"$TMP/sweep.csv" 2>"$TMP/sweep.err"
rc=$?
python3 - "$TMP/sweep.csv" "$NAME" <<'PY'
import csv, sys
rows = list(csv.reader(open(sys.argv[1], newline="")))
assert rows[0] == ["POINT", "THROUGHPUT", "LOCAL_HOST", "CLIFF", "RUN_ID"], rows[0]
assert len(rows) == 3, rows
for r in rows[1:]:
    assert len(r) == 5 and r[2] == sys.argv[2] and float(r[1]) > 0, r
PY
[ $? -eq 0 ] && [ $rc -eq 0 ]
ok $? "sweep -o: the LOCAL_HOST column parses back whole on every point"
[ $? -eq 0 ] || { diag "$TMP/sweep.csv"; diag "$TMP/sweep.err"; }
sed -n 2p "$TMP/sweep.csv" | grep -q '^"[^"]*",'
ok $? "sweep -o: POINT stays in double quotes, as before ($(sed -n 2p "$TMP/sweep.csv"))"

"$TUNETOP" pcap "$top_srcdir/tests/data/pcap/en10mb-v6.pcap" -o >"$TMP/pcap.csv" 2>"$TMP/pcap.err"
rc=$?
python3 - "$TMP/pcap.csv" <<'PY'
import csv, sys
rows = list(csv.reader(open(sys.argv[1], newline="")))
assert rows[0] == ["direction", "size", "count", "class"], rows[0]
assert len(rows) > 1 and all(len(r) == 4 and int(r[1]) >= 0 for r in rows[1:]), rows
PY
[ $? -eq 0 ] && [ $rc -eq 0 ]
ok $? "pcap -o: four fields a row"

done_testing
