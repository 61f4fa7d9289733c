#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The run history: every run stored; runs list/show/diff/export/rm/baseline/
# check; a corrupt database is named and the results still printed.
. "$(dirname "$0")/lib.sh"

need_root "the run history tests (a regression made in a lab)"
isolated_state

"$TUNETOP" run --loopback -l 1 -P 0 -- -r 1,1 -o THROUGHPUT >"$TMP/r1" 2>"$TMP/e1"
[ $? -eq 0 ] && grep -qx "Stored as run 1" "$TMP/e1" && grep -qE '^[0-9.]+$' "$TMP/r1" &&
	[ "$(grep -c . "$TMP/r1")" -eq 1 ]
ok $? "a run stores itself (exit 0): 'Stored as run 1' on stderr, stdout only the figure"
[ $? -eq 0 ] || diag "$TMP/e1"
"$TUNETOP" run --loopback -l 1 -P 0 -- -r 64,64 -o THROUGHPUT >"$TMP/r2" 2>"$TMP/e2"
"$TUNETOP" run --loopback -l 1 -P 0 --no-db -- -o THROUGHPUT >/dev/null 2>&1
"$TUNETOP" runs list >"$TMP/list" 2>&1
ok $? "runs list exits 0"
[ "$(grep -c 'TCP_RR' "$TMP/list")" -eq 2 ]
ok $? "two runs are listed; --no-db stored nothing"
grep -q "TCP_RR -l 1 -- -r 64,64" "$TMP/list"
ok $? "the list shows each run's test as tunetop run's options"
"$TUNETOP" runs list --json >"$TMP/list.json"
r=$(jq_py "$TMP/list.json" "[x['id'] for x in j] == [1, 2] and all(x['source'] == 'run' for x in j) and abs(j[0]['throughput'] - float(open('$TMP/r1').read().split()[-1])) < 0.01")
[ "$r" = True ]
ok $? "runs list --json: ids, source, the throughput printed by the run"
"$TUNETOP" runs show 1 >"$TMP/show" 2>&1 && grep -q "^Run 1: " "$TMP/show" && grep -q "Ticks stored: 10" "$TMP/show"
ok $? "runs show names the run and its 10 ticks"
sed -n '/^What limited it:$/,$p' "$TMP/show" | sed -n 2p | grep -q "^  1\. "
ok $? "runs show lists what limited the run, numbered"
"$TUNETOP" runs export 1 --csv >"$TMP/csv" && head -1 "$TMP/csv" | grep -q "^t,rate,p50_us,p99_us" &&
	[ "$(grep -c . "$TMP/csv")" -eq 11 ]
ok $? "runs export --csv: a header and a row per tick"
"$TUNETOP" runs export 2 --json >"$TMP/e.json"
r=$(jq_py "$TMP/e.json" "j['result']['params']['req_size'] == 64 and len(j['series']['t']) == 10 and j['result']['knobs']['local']['knobs'] != []")
[ "$r" = True ]
ok $? "runs export --json: the whole result, its params, knobs and series"
[ "$r" = True ] || echo "# req_size, ticks, local knobs: $(jq_py "$TMP/e.json" "(j['result']['params'].get('req_size'), j['series']['t'], len(j['result']['knobs']['local']['knobs'] or []))")"
"$TUNETOP" runs diff 1 2 >"$TMP/diff" 2>&1 &&
	grep -q "^Test options that differ (run 1 -> run 2): -r request 1 -> 64, -r response 1 -> 64$" "$TMP/diff" &&
	grep -qE "^request_size +1 +64 " "$TMP/diff"
ok $? "runs diff puts the figures side by side"
grep -q "^What limited A:$" "$TMP/diff" && grep -q "^What limited B:$" "$TMP/diff"
ok $? "runs diff names what limited each run"
grep -qE "^Throughput A -> B: .*: (WORSE|BETTER|~|can't tell) " "$TMP/diff" &&
	grep -q "^What moved with it" "$TMP/diff"
ok $? "runs diff: the throughput's verdict against the noise, then what moved with it"

# A regression against a baseline, in a lab: the same stream rate-limited.
name="ttruns-$$"
"$TUNETOP" lab up --name "$name" >/dev/null 2>&1
# A 1 Gbit/s tbf holds the baseline and its repeat to one rate: an unlimited
# veth stream swings by more than 30 % beside the tests make -j runs with it.
"$TUNETOP" knobs set --side lab-a --lab "$name" lab-rate=1gbit >/dev/null 2>&1
"$TUNETOP" run --lab "$name" -t TCP_STREAM -l 2 -P 0 -- -o THROUGHPUT >/dev/null 2>&1
base=$("$TUNETOP" runs list --json | python3 -c 'import json,sys; print(json.load(sys.stdin)[-1]["id"])')
"$TUNETOP" runs baseline "$base" >"$TMP/b" 2>&1
ok $? "runs baseline $base"
"$TUNETOP" run --lab "$name" -t TCP_STREAM -l 2 -P 0 -- -o THROUGHPUT >/dev/null 2>&1
same=$("$TUNETOP" runs list --json | python3 -c 'import json,sys; print(json.load(sys.stdin)[-1]["id"])')
"$TUNETOP" runs check "$same" --against baseline --threshold 30 >"$TMP/c1" 2>&1
ok $? "the same stream again passes runs check against the baseline (threshold 30 %)"
[ $? -eq 0 ] || diag "$TMP/c1"
# runs list tells apart runs that differ only in a knob or a flag.
g="$TMP/g.db"
"$TUNETOP" run --lab "$name" --db "$g" -l 0.5 -P 0 -- -o THROUGHPUT >/dev/null 2>&1
"$TUNETOP" run --lab "$name" --db "$g" -l 0.5 -P 0 --set remote:gro=on -- -o THROUGHPUT >/dev/null 2>&1
"$TUNETOP" run --lab "$name" --db "$g" -l 0.3 -P 0 -c -C -i 3,2 -- -o THROUGHPUT >/dev/null 2>&1
# stderr apart: the table's lines are counted from the top.
"$TUNETOP" runs --db "$g" list >"$TMP/gl" 2>"$TMP/gle"
ok $? "runs list of three runs in a lab exits 0"
diag "$TMP/gl"
diag "$TMP/gle"
head -1 "$TMP/gl" | grep -q "FLAGS .*KNOBS CHANGED"
ok $? "it has FLAGS and KNOBS CHANGED columns"
sed -n 2p "$TMP/gl" | grep -qE "^ +1 .* - +[0-9.]+ Trans/s .* - +lab: "
ok $? "the first run has no flags and nothing to compare its knobs with"
sed -n 3p "$TMP/gl" | grep -qE "^ +2 .* - +[0-9.]+ Trans/s .*remote:gro=on +lab: " &&
	! sed -n 3p "$TMP/gl" | grep -q "remote:gro=on,\|, remote:gro=on"
ok $? "a run differing only in GRO shows remote:gro=on, and only that"
sed -n 4p "$TMP/gl" | grep -qE "^ +3 .* -c -C -i3,2 +[0-9.]+ Trans/s .*remote:gro=off +lab: "
ok $? "the next shows -c -C -i3,2 and GRO back off on the remote end"
"$TUNETOP" runs --db "$g" list --json >"$TMP/gl.json"
[ "$(jq_py "$TMP/gl.json" '[(x["flags"], x["knobs_changed"]) for x in j]')" = "[('', ''), ('', 'remote:gro=on'), ('-c -C -i3,2', 'remote:gro=off')]" ]
ok $? "runs list --json has flags and knobs_changed: $(jq_py "$TMP/gl.json" '[(x["flags"], x["knobs_changed"]) for x in j]')"
"$TUNETOP" knobs set --side lab-a --lab "$name" lab-rate=200mbit >/dev/null 2>&1
"$TUNETOP" run --lab "$name" -t TCP_STREAM -l 2 -P 0 -- -o THROUGHPUT >/dev/null 2>&1
slow=$("$TUNETOP" runs list --json | python3 -c 'import json,sys; print(json.load(sys.stdin)[-1]["id"])')
"$TUNETOP" runs check "$slow" --against baseline >"$TMP/c2" 2>&1
[ $? -eq 1 ] && grep -q "REGRESSION" "$TMP/c2" && grep -q "WORSE" "$TMP/c2"
ok $? "a stream limited to 200 Mbit/s fails runs check against the baseline (exit 1)"
[ $? -eq 0 ] || diag "$TMP/c2"
"$TUNETOP" knobs restore >/dev/null 2>&1
"$TUNETOP" lab down "$name" >/dev/null 2>&1
"$TUNETOP" runs rm "$slow" >"$TMP/rm" 2>&1 && ! "$TUNETOP" runs show "$slow" >/dev/null 2>&1
ok $? "runs rm removes a run; runs show of it fails"

# Bad input and a bad database.
"$TUNETOP" runs show 999 >"$TMP/o" 2>&1
[ $? -eq 1 ] && grep -q "999" "$TMP/o"
ok $? "runs show of an unknown id: exit 1 naming it"
"$TUNETOP" runs show abc >"$TMP/o" 2>&1
[ $? -eq 2 ] && grep -q "accepted: a number from tunetop runs list, last or last-N" "$TMP/o"
ok $? "a run id that is not a number: exit 2"
newest=$("$TUNETOP" runs list --json | python3 -c 'import json,sys; print(max(x["id"] for x in json.load(sys.stdin)))')
"$TUNETOP" runs show last >"$TMP/o" 2>&1 && head -1 "$TMP/o" | grep -q "^Run $newest: "
ok $? "runs show last is the newest run, $newest ($(head -1 "$TMP/o"))"
"$TUNETOP" runs show last-1 >"$TMP/o" 2>&1 && head -1 "$TMP/o" | grep -Eq "^Run [0-9]+[ :]" &&
	[ "$(head -1 "$TMP/o" | sed 's/^Run \([0-9]*\)[ :].*/\1/')" -lt "$newest" ]
ok $? "runs show last-1 is an older run ($(head -1 "$TMP/o"))"
"$TUNETOP" runs show last-100000 >"$TMP/o" 2>&1
[ $? -eq 1 ] && grep -q "last-100000: fewer than 100001 runs stored in" "$TMP/o"
ok $? "last-N beyond the history: exit 1 saying so, as a missing run number"
"$TUNETOP" runs --db "$TMP/empty.db" show last >"$TMP/o" 2>&1
[ $? -eq 1 ] && grep -q "last: no runs stored in $TMP/empty.db" "$TMP/o"
ok $? "last with no runs stored: exit 1 saying so"
"$TUNETOP" runs frob >"$TMP/o" 2>&1
[ $? -eq 2 ] && grep -q "accepted: list, show" "$TMP/o"
ok $? "an unknown runs command: exit 2 naming what is accepted"
head -c 4096 /dev/urandom >"$TMP/bad.db"
cp "$TMP/bad.db" "$TMP/bad.copy"
"$TUNETOP" run --loopback -l 1 -P 0 --db "$TMP/bad.db" -- -o THROUGHPUT >"$TMP/o" 2>"$TMP/e"
rc=$?
[ $rc -eq 3 ] && grep -qE '^[0-9.]+$' "$TMP/o" && grep -q "not stored: .*bad.db: not a tunetop database" "$TMP/e" &&
	! grep -q "Stored as" "$TMP/e" && cmp -s "$TMP/bad.db" "$TMP/bad.copy"
ok $? "a corrupt database: the results are printed, one line says why nothing was stored, exit 3, the file is untouched"
[ $? -eq 0 ] || diag "$TMP/e"
"$TUNETOP" run --loopback -l 1 -P 0 --db "$TMP/bad.db" -- -o THROUGHPUT >/dev/null 2>&1 &&
	echo "# the run exited 0" && false
[ $? -ne 0 ]
ok $? "tunetop run ... && tunetop runs check N: the && does not go on when the run was not stored"

# A full database (capped at the pages it has): exit 3 naming it.
"$TUNETOP" run --loopback -l 1 -P 0 --db "$TMP/full.db" -- -o THROUGHPUT >/dev/null 2>&1
pages=$(python3 -c 'import sqlite3,sys; print(sqlite3.connect(sys.argv[1]).execute("PRAGMA page_count").fetchone()[0])' "$TMP/full.db")
TUNETOP_DB_MAX_PAGES=$pages "$TUNETOP" run --loopback -l 1 -P 0 --db "$TMP/full.db" -- -o THROUGHPUT >"$TMP/o" 2>"$TMP/e"
rc=$?
[ $rc -eq 3 ] && grep -qE '^[0-9.]+$' "$TMP/o" && grep -q "not stored: $TMP/full.db: add run: disk full" "$TMP/e"
ok $? "a full database: the results are printed, exit 3 naming the file and 'disk full' (exit $rc)"
[ $? -eq 0 ] || diag "$TMP/e"

# A read-only database (a read-only bind mount in a mount namespace of
# this test's own): the real cause and the path, exit 3.
mkdir -p "$TMP/ro"
"$TUNETOP" run --loopback -l 1 -P 0 --db "$TMP/ro/runs.db" -- -o THROUGHPUT >/dev/null 2>&1
unshare -m sh -c 'mount --bind "$1" "$1" && mount -o remount,bind,ro "$1" &&
	"$2" run --loopback -l 1 -P 0 --db "$1/runs.db" -- -o THROUGHPUT' sh "$TMP/ro" "$TUNETOP" >"$TMP/o" 2>"$TMP/e"
rc=$?
[ $rc -eq 3 ] && grep -qE '^[0-9.]+$' "$TMP/o" &&
	grep -q "not stored: $TMP/ro/runs.db: .*Read-only file system" "$TMP/e" && ! grep -q "No such file" "$TMP/e"
ok $? "a read-only database: exit 3 naming the path and 'Read-only file system' (exit $rc)"
[ $? -eq 0 ] || diag "$TMP/e"

# One corrupt row: the others are listed, the bad one named, exit 1.
cp "$TUNETOP_DB" "$TMP/rows.db"
python3 -c 'import sqlite3,sys; c=sqlite3.connect(sys.argv[1]); c.execute("UPDATE runs SET params = ? WHERE id = 2", ("{not json",)); c.commit()' "$TMP/rows.db"
"$TUNETOP" runs --db "$TMP/rows.db" list >"$TMP/o" 2>"$TMP/e"
rc=$?
[ $rc -eq 1 ] && grep -qE '^ +1 ' "$TMP/o" && ! grep -qE '^ +2 ' "$TMP/o" &&
	grep -q "rows.db: run 2: params: bad JSON" "$TMP/e"
ok $? "one corrupt row: runs list shows the others, names run 2 and what is wrong, exit 1 (exit $rc)"
[ $? -eq 0 ] || { diag "$TMP/o"; diag "$TMP/e"; }

# A run whose remote end goes away part way: its partial figures are
# stored, and said to be FAILED where the id is given and in the list.
start_daemon -L 127.0.0.1
"$TUNETOP" run -H 127.0.0.1 -p "$PORT" --db "$TMP/fail.db" -t TCP_RR -l 5 -D 0.2 >"$TMP/fo" 2>"$TMP/fe" &
rp=$!
wait_file "$TMP/fo" && for _ in $(seq 100); do grep -q "^Interim result:" "$TMP/fo" && break; sleep 0.1; done
kill -9 "$DPID"; wait "$DPID" 2>/dev/null
wait "$rp"
rc=$?
"$TUNETOP" runs --db "$TMP/fail.db" list >"$TMP/fl" 2>&1
[ $rc -eq 1 ] && grep -qx "Stored as run 1, marked FAILED (partial figures)" "$TMP/fe" &&
	grep -qE "^ +1 .* FAILED " "$TMP/fl"
ok $? "a run whose tunetopd was killed part way: exit 1, 'Stored as run 1, marked FAILED (partial figures)', listed FAILED (exit $rc)"
[ $? -eq 0 ] || { diag "$TMP/fe"; diag "$TMP/fl"; }

done_testing
