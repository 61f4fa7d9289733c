#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# A hostile peer's strings never reach a terminal, a log or the store raw:
# a rewriting proxy puts a window-title sequence, a colour and a newline in
# HELLO_OK's host and in a remote knob's value; clients put them in HELLO and in a KNOB_SET value.
# Everything they reach shows them escaped as \xNN, on one line.
. "$(dirname "$0")/lib.sh"

need_root "the hostile peer tests (the knob part runs in a network namespace of its own)"
isolated_state
HOSTILE="$top_srcdir/tests/integration/hostile.py"
ESC=$(printf '\033')
BEL=$(printf '\007')
WANT='\x1b]0;pwned\x07\x1b[31mevil\x0ahost'

# raw FILE...: true when a file holds an escape or a bell byte.
raw() {
	cat "$@" | grep -q "[$ESC$BEL]"
}

start_daemon || exit 1
PPORT=$(free_port)
python3 "$HOSTILE" proxy "$PPORT" "$PORT" >"$TMP/proxy" 2>&1 &
PIDS="$PIDS $!"
for _ in $(seq 50); do
	grep -q listening "$TMP/proxy" && break
	sleep 0.1
done

"$TUNETOP" run -H 127.0.0.1 -p "$PPORT" -l 1 -P 0 -- -k REMOTE_HOST,THROUGHPUT >"$TMP/kv" 2>"$TMP/kv.err"
rc=$?
[ $rc -eq 0 ] && grep -qxF "REMOTE_HOST=$WANT" "$TMP/kv" && ! raw "$TMP/kv" "$TMP/kv.err"
ok $? "run -H through a rewriting proxy: REMOTE_HOST is the host escaped, on one line (exit $rc)"
[ $? -eq 0 ] || { diag "$TMP/kv"; diag "$TMP/kv.err"; diag "$TMP/proxy"; }
"$TUNETOP" run -H 127.0.0.1 -p "$PPORT" -l 1 >"$TMP/human" 2>&1 &&
	"$TUNETOP" run -H 127.0.0.1 -p "$PPORT" -l 1 -- -o REMOTE_HOST >"$TMP/csv" 2>"$TMP/csv.err"
rc=$?
[ $rc -eq 0 ] && [ "$(tail -1 "$TMP/csv")" = "$WANT" ] && ! raw "$TMP/human" "$TMP/csv" "$TMP/csv.err"
ok $? "the human output and -o REMOTE_HOST: the host escaped, no escape or bell byte (exit $rc)"
[ $? -eq 0 ] || { diag "$TMP/human"; diag "$TMP/csv"; }
"$TUNETOP" run -H 127.0.0.1 -p "$PPORT" -l 1 --json >"$TMP/j.json" 2>/dev/null
"$TUNETOP" runs list >"$TMP/list" 2>&1 && "$TUNETOP" runs show 4 >"$TMP/show" 2>&1 &&
	"$TUNETOP" runs export 4 --json >"$TMP/export" 2>&1
rc=$?
[ $rc -eq 0 ] && [ "$(grep -c 'host:127.0.0.1' "$TMP/list")" -eq 4 ] &&
	! raw "$TMP/list" "$TMP/show" "$TMP/export" "$TMP/j.json"
ok $? "runs list, show and export of those runs: no escape or bell byte (exit $rc)"
r=$(jq_py "$TMP/export" "[k.get('value') for k in j['result']['knobs']['remote']['knobs'] if k['name'] == 'net.ipv4.tcp_congestion_control'] == [r'$WANT']")
[ "$r" = True ]
ok $? "a remote knob's value rewritten by the proxy is stored escaped ($r)"

# A RESULT with a member out of range: one line naming it, the prefix once.
BPORT=$(free_port)
python3 "$HOSTILE" proxy "$BPORT" "$PORT" badresult >"$TMP/bproxy" 2>&1 &
PIDS="$PIDS $!"
for _ in $(seq 50); do
	grep -q listening "$TMP/bproxy" && break
	sleep 0.1
done
"$TUNETOP" run -H 127.0.0.1 -p "$BPORT" -l 1 >"$TMP/br" 2>"$TMP/br.err"
rc=$?
[ $rc -eq 1 ] && [ "$(grep -c 'remote end' "$TMP/br.err")" -eq 1 ] &&
	[ "$(head -1 "$TMP/br.err")" = "tunetop run: remote end (127.0.0.1:$BPORT): bad result: member 'irq_dev': accepted is a string of 0..31 bytes" ]
ok $? "a RESULT whose irq_dev is 40 bytes: one line, the prefix once, the member named (exit $rc): $(head -1 "$TMP/br.err")"

python3 "$HOSTILE" hello "$PORT" >"$TMP/hello" 2>&1
grep -qF "hello: unknown member '$(printf '%s' "$WANT" | sed 's/\\/\\\\/g')'" "$TMP/hello" &&
	grep -qF "session ended: hello: unknown member '$WANT'" "$TMP/tunetopd.log" &&
	! raw "$TMP/tunetopd.log" && ! grep -q '^host' "$TMP/tunetopd.log"
ok $? "a hostile member name in HELLO: the ERROR and the daemon's log line show it escaped, one line"
[ $? -eq 0 ] || { diag "$TMP/hello"; diag "$TMP/tunetopd.log"; }

# A KNOB_SET value with a newline, from a client holding the key, to a
# tunetopd with knob control inside a network namespace of this test's own:
# the refusal is one log line, the value escaped; the knob is unchanged.
"$TUNETOPD" --gen-key "$TMP/key" >/dev/null 2>&1
KPORT=$(free_port)
unshare -n sh -c 'ip link set lo up &&
	"$1" -f -p "$2" --knobs --key "$3" >"$4/kd.log" 2>&1 &
	d=$!
	for _ in $(seq 50); do grep -q listening "$4/kd.log" && break; sleep 0.1; done
	before=$(sysctl -n net.ipv4.tcp_reordering)
	python3 "$5" knobset "$2" "$3" net.ipv4.tcp_reordering >"$4/ks" 2>&1
	after=$(sysctl -n net.ipv4.tcp_reordering)
	sleep 0.3
	kill $d; wait $d
	[ "$before" = "$after" ]' sh "$TUNETOPD" "$KPORT" "$TMP/key" "$TMP" "$HOSTILE"
rc=$?
[ $rc -eq 0 ] && grep -q '"ok": false' "$TMP/ks" &&
	grep -qF 'refused net.ipv4.tcp_reordering=3\x0aFAKE: set everything' "$TMP/kd.log" &&
	! grep -q '^FAKE' "$TMP/kd.log" && ! raw "$TMP/kd.log"
ok $? "a newline in a KNOB_SET value: one log line with it escaped, the knob unchanged (exit $rc)"
[ $? -eq 0 ] || { diag "$TMP/ks"; diag "$TMP/kd.log"; }

done_testing
