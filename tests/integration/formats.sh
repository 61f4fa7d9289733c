#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Output formats parse back: human, -o CSV, -k keyval, --json, --json-stream.
. "$(dirname "$0")/lib.sh"
start_daemon || exit 1
run() { "$TUNETOP" run -H 127.0.0.1 -p "$PORT" -l 1 "$@"; }

run -t TCP_RR >"$TMP/h.txt" 2>&1
ok $? "human output exits 0"
grep -q "Trans/s\|Trans.*Rate\|Rate" "$TMP/h.txt"
ok $? "human output names its units"

run -t TCP_RR -- -o THROUGHPUT,THROUGHPUT_UNITS,P99_LATENCY,REQUEST_SIZE >"$TMP/o.csv" 2>>"$TMP/stderr"
ok $? "-o with selectors exits 0"
python3 - "$TMP/o.csv" <<'PY'
import csv, sys
rows = list(csv.reader(open(sys.argv[1])))
assert rows[-2] == ["Throughput", "Throughput Units", "99th Percentile Latency Microseconds", "Request Size Bytes"], rows
v = rows[-1]
assert len(v) == 4 and float(v[0]) > 0 and v[1] == "Trans/s" and int(v[2]) > 0 and v[3] == "1", v
PY
ok $? "CSV: netperf's titles over the values, P99_LATENCY an integer as netperf prints it"

run -t TCP_STREAM -- -k THROUGHPUT,LOCAL_SEND_SIZE,ELAPSED_TIME >"$TMP/k.txt" 2>>"$TMP/stderr"
ok $? "-k exits 0"
python3 - "$TMP/k.txt" <<'PY'
import sys
kv = dict(l.strip().split("=", 1) for l in open(sys.argv[1]) if "=" in l)
assert float(kv["THROUGHPUT"]) > 0 and int(kv["LOCAL_SEND_SIZE"]) == 16384 and float(kv["ELAPSED_TIME"]) >= 0.9, kv
PY
ok $? "keyval gives KEY=value lines with the right values"

run -t TCP_RR -- -o BOGUS_SELECTOR >"$TMP/b.txt" 2>&1
[ $? -eq 2 ]
ok $? "an unknown selector is an error (exit 2)"
grep -q "BOGUS_SELECTOR" "$TMP/b.txt"
ok $? "the error names the unknown selector"
[ "$(wc -l <"$TMP/b.txt")" -eq 1 ]
ok $? "the error is one line"

"$TUNETOP" run -- -o help >"$TMP/help.txt" 2>&1
ok $? "-o help exits 0"
grep -q "P99_LATENCY" "$TMP/help.txt"
ok $? "-o help lists the selectors"
"$TUNETOP" run -- -o '?' >"$TMP/q.txt" 2>&1
[ $? -eq 0 ] && [ "$(wc -l <"$TMP/q.txt")" -eq 1 ] && grep -q "^SOCKET_TYPE,PROTOCOL,DIRECTION,ELAPSED_TIME,THROUGHPUT,THROUGHPUT_UNITS,LSS_SIZE_REQ," "$TMP/q.txt" &&
	grep -q ",TARGET," "$TMP/q.txt"
ok $? "-o ? lists every name on one line, netperf's in netperf's order, then tunetop's"

run -t TCP_RR -c -C --json >"$TMP/j.json" 2>>"$TMP/stderr"
ok $? "--json exits 0"
python3 - "$TMP/j.json" <<'PY'
import json, sys
j = json.load(open(sys.argv[1]))
r = j["result"]
assert r["throughput"] > 0 and r["p50_latency"] > 0 and r["local_sd"] > 0, r
assert j["counts_agree"] is True
# Both ends' knobs: the local ones, and tunetopd's read over the control
# connection (KNOB_GET) before the test; here both ends are this host.
k = j["knobs"]
assert k["local"]["knobs"] and k["remote"]["knobs"] and k["note"] is None, k.get("note")
lv = {x["name"]: x.get("value") for x in k["local"]["knobs"]}
rv = {x["name"]: x.get("value") for x in k["remote"]["knobs"]}
assert lv["net.ipv4.tcp_sack"] == rv["net.ipv4.tcp_sack"] is not None, (lv, rv)
PY
ok $? "--json is one document with throughput, latency, service demand and both ends' knobs"
python3 - "$TMP/j.json" <<'PY'
import json, sys
j = json.load(open(sys.argv[1]))
# What watching cost each end (its sampler thread's CPU) beside the test's
# own threads: both measured, the sampler's far below the test's, and no
# thread used more than the run's length of one CPU.
for e in ("local", "remote"):
    s, f, el = j[e]["sampler_cpu"], j[e]["flows_cpu"], j[e]["elapsed"]
    assert 0 < s < f / 10 and f <= el * 1.05, (e, s, f, el)
PY
ok $? "--json: each end's sampler and test threads' CPU seconds ($(python3 -c 'import json,sys; j=json.load(open(sys.argv[1])); print([(j[e]["sampler_cpu"], j[e]["flows_cpu"]) for e in ("local","remote")])' "$TMP/j.json" 2>&1))"
run -t TCP_RR -c -C >"$TMP/cc.txt" 2>>"$TMP/stderr"
grep -Eq '^Sampler CPU: local [0-9.]+ %, remote [0-9.]+ % of one CPU [(]test threads [0-9.]+ %, [0-9.]+ %[)]$' "$TMP/cc.txt"
ok $? "-c -C prints what the samplers cost beside the test threads ($(grep '^Sampler CPU' "$TMP/cc.txt"))"

run -t TCP_RR -D 0.25 --json-stream >"$TMP/js.txt" 2>>"$TMP/stderr"
ok $? "--json-stream exits 0"
python3 - "$TMP/js.txt" <<'PY'
import json, sys
lines = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
iv = [l for l in lines if l.get("type") == "interval"]
assert len(iv) >= 3, len(iv)
assert lines[-1]["type"] == "result"
# Every tick has the local end; the remote end's sample may still be on its
# way at a tick (the first, or one on a loaded machine: capture.sh saw it),
# so a line without it is allowed once after the first, and the last has it.
assert all(x["local"] is not None and x["local"]["rate"] > 0 for x in iv), iv
late = [x["remote"] is None for x in iv]
assert sum(late[1:]) <= 1 and not late[-1], late
ctx = [x["local"]["ctx_vol"] for x in iv]
assert ctx == sorted(ctx), ctx
PY
ok $? "--json-stream: interval lines with both ends, then the result"

done_testing
