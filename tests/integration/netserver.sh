#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# run --netserver against netserver 2.7's recorded bytes (tests/tools/nsreplay
# replays them), all six test types, and again without --netserver (found by
# the padded HELLO); -i on one control connection as netperf's; A/B with
# local knobs; and the wrong guesses, which must fail with one line and never
# hang: a tunetopd, an older netserver, a port that sends garbage, closes, or
# says nothing.
. "$(dirname "$0")/lib.sh"
NSREPLAY="$top_srcdir/tests/tools/nsreplay"

# start_replay MODE: nsreplay in MODE on a port of its own; sets RPORT.
start_replay() {
	rm -f "$TMP/port.$1"
	python3 "$NSREPLAY" --mode "$1" --port-file "$TMP/port.$1" --log "$TMP/requests.$1" \
		2>>"$TMP/nsreplay.$1.log" &
	PIDS="$PIDS $!"
	wait_file "$TMP/port.$1" && RPORT=$(cat "$TMP/port.$1") && return 0
	echo "# nsreplay --mode $1 did not start"
	return 1
}

start_replay replay || exit 1
P=$RPORT

# type, JSON check of netserver's own figures in the result (from its
# recorded results message), what the human output must show; with $HOW
# "found" the run has no --netserver and must find the netserver itself.
HOW=--netserver
check_type() {
	t=$1 expr=$2
	timeout 60 "$TUNETOP" run -H 127.0.0.1 $NSOPT -p "$P" -t "$t" -l 1 -c -C --json \
		>"$TMP/$t.json" 2>"$TMP/$t.err"
	rc=$?
	ok $rc "$t against the replayed netserver ($HOW) completes"
	[ $rc -eq 0 ] || { diag "$TMP/$t.err"; diag "$TMP/nsreplay.replay.log"; return; }
	if [ "$HOW" = found ]; then
		[ "$(grep -c netserver "$TMP/$t.err")" -eq 1 ] &&
			head -1 "$TMP/$t.err" | grep -q "^tunetop: 127\.0\.0\.1:$P is a netserver: running as --netserver\$"
		ok $? "$t: one line on stderr says the port is a netserver: $(head -1 "$TMP/$t.err")"
	fi
	[ "$(jq_py "$TMP/$t.json" "$expr")" = True ]
	ok $? "$t: netserver's figures are the remote end's ($expr)"
	[ "$(jq_py "$TMP/$t.json" 'j["target_short"]')" = "netserver:127.0.0.1" ]
	ok $? "$t: the result is marked as against netserver"
	[ "$(jq_py "$TMP/$t.json" 'j["result"]["remote_ctx_per_sec"] is None and j["result"]["local_ctx_per_sec"] is not None and j["result"]["remote_sampler_cpu"] is None and j["result"]["local_sampler_cpu"] > 0')" = True ]
	ok $? "$t: netserver's context switches and sampler CPU are n/a, not 0"
	[ "$(jq_py "$TMP/$t.json" 'j["result"]["local_bytes_sent"] > 0 or j["result"]["local_bytes_recvd"] > 0')" = True ]
	ok $? "$t: the local end ran its own flow to the data port netserver announced"
}
check_all_types() {
	check_type TCP_RR 'j["result"]["remote_transactions"] == 18139 and abs(j["result"]["remote_cpu_util"] - 29.24) < 0.01 and j["result"]["remote_cpu_count"] == 2'
	check_type TCP_CRR 'j["result"]["remote_transactions"] == 12785 and j["result"]["remote_cpu_util"] is None'
	check_type TCP_STREAM 'j["result"]["remote_bytes_recvd"] == 3111174144 and abs(j["result"]["remote_cpu_util"] - 71.81) < 0.01 and j["result"]["remote_cong_control"] == "bbr"'
	check_type TCP_MAERTS 'j["result"]["remote_bytes_sent"] == 3098165248 and j["result"]["local_bytes_recvd"] > 0'
	check_type UDP_RR 'j["result"]["remote_transactions"] == 18362 and j["result"]["rsr_size"] == 212992'
	check_type UDP_STREAM 'j["result"]["remote_recv_calls"] == 175359 and j["result"]["remote_bytes_recvd"] == 258128448'
}
NSOPT=--netserver HOW=--netserver
check_all_types
# Without --netserver: the padded HELLO gets netserver's answer to an
# unknown request, and the run goes on as with --netserver.
NSOPT= HOW=found
check_all_types

# The human output: netperf's block with netserver's CPU, and the target.
timeout 60 "$TUNETOP" run -H 127.0.0.1 --netserver -p "$P" -t TCP_RR -l 1 -C >"$TMP/human.txt" 2>&1
rc=$?
grep -q "^Target: netserver at 127.0.0.1 port $P" "$TMP/human.txt" &&
	grep -Eq "^16384 +131072 +1 +1 .* 29\.24 " "$TMP/human.txt"
ok $((rc + $?)) "the human output shows netserver's socket sizes and CPU (29.24%)"
[ $? -eq 0 ] || diag "$TMP/human.txt"

# -i: one control connection for the iterations, the data port of the first
# asked for again, as in netperf's recording tcp_rr_ci.
: >"$TMP/requests.replay"
timeout 90 "$TUNETOP" run -H 127.0.0.1 --netserver -p "$P" -t TCP_RR -l 1 -i 3,3 --json >"$TMP/iter.json" 2>"$TMP/iter.err"
ok $? "-i 3,3 against netserver completes"
[ "$(jq_py "$TMP/iter.json" 'j["iterations"]')" = 3 ]
ok $? "and iterates three times"
# same_as_recording LOG: the requests of LOG, as netperf's -i 3,3 sent them
same_as_recording() {
	python3 - "$1" "$top_srcdir/tests/data/netserver" <<'PY'
import json, struct, sys
log = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
def w(name, i):
    return struct.unpack_from('>I', open('%s/tcp_rr_ci-%s.bin' % (sys.argv[2], name), 'rb').read(), 4 * i)[0]
# the recording: (type, word 22) of each request; netserver's port = word 13 of its first answer
first = w('02-reply', 13)
rec = [(w(n, 0), 'first' if w(n, 22) == first else w(n, 22))
       for n in ('01-request', '04-request', '07-request')]
ours = [(r['type'], 'first' if r['data_port'] == log[0]['announced'] else r['data_port']) for r in log]
conns = {r['conn'] for r in log}
print('recording', rec, 'tunetop', ours, 'connections', len(conns), file=sys.stderr)
sys.exit(0 if ours == rec and len(conns) == 1 and rec == [(97, 0), (97, 'first'), (97, 'first')] else 1)
PY
}
same_as_recording "$TMP/requests.replay" 2>"$TMP/iter.cmp"
ok $? "-i 3,3: three DO_OMNI on one control connection, the 2nd and 3rd asking for the first data port, as recorded ($(cat "$TMP/iter.cmp"))"

# The stored runs are marked as against netserver.
n=$("$TUNETOP" runs list --json | python3 -c 'import json,sys; print(sum(1 for r in json.load(sys.stdin) if r["target_short"] == "netserver:127.0.0.1" and r["target"].startswith("netserver at 127.0.0.1")))')
[ "$n" -ge 8 ]
ok $? "the runs are stored with target netserver:127.0.0.1 ($n)"

id=$("$TUNETOP" runs list --json | python3 -c 'import json,sys; print(json.load(sys.stdin)[0]["id"])')
"$TUNETOP" runs list >"$TMP/list.txt" 2>&1 && grep -Eq "^ +$id .* netserver:127\.0\.0\.1 " "$TMP/list.txt"
ok $? "runs list: TARGET of run $id is netserver:127.0.0.1"
"$TUNETOP" runs show "$id" >"$TMP/show.txt" 2>&1 && grep -q "^Target: netserver at 127.0.0.1 port $P" "$TMP/show.txt"
ok $? "runs show $id: Target: netserver at 127.0.0.1 port $P"

# What netserver cannot do is refused before anything runs.
"$TUNETOP" run -H 127.0.0.1 --netserver -p "$P" --set remote:gro=off -t TCP_RR -l 1 >"$TMP/set.out" 2>"$TMP/set.err"
[ $? -eq 2 ] && grep -q "netserver has no knobs" "$TMP/set.err" && [ "$(wc -l <"$TMP/set.err")" -eq 1 ]
ok $? "--set remote: with --netserver is refused in one line"
"$TUNETOP" sweep knob remote:gro=on,off -H 127.0.0.1 --netserver -p "$P" -t TCP_RR -l 1 >"$TMP/swk.out" 2>"$TMP/swk.err"
[ $? -eq 2 ] && grep -q "with --netserver: netserver has no knobs" "$TMP/swk.err"
ok $? "sweep knob remote: with --netserver is refused"
timeout 60 "$TUNETOP" sweep burst 0,1 -H 127.0.0.1 --netserver -p "$P" -t TCP_RR -l 1 >"$TMP/sweep.out" 2>&1 &&
	grep -q "2 of 2 points, netserver at 127.0.0.1 port $P" "$TMP/sweep.out"
ok $? "a sweep runs its points against netserver"
grep -q "^Target: netserver at 127.0.0.1 port $P\$" "$TMP/sweep.out"
ok $? "and its header names the netserver: $(grep "^Target" "$TMP/sweep.out")"
"$TUNETOP" ab --a remote:gro=on --b remote:gro=off -H 127.0.0.1 --netserver -p "$P" -t TCP_RR -l 1 >"$TMP/ab.out" 2>"$TMP/ab.err"
[ $? -eq 2 ] && grep -q "with --netserver: netserver has no knobs" "$TMP/ab.err" && [ "$(wc -l <"$TMP/ab.err")" -eq 1 ]
ok $? "ab --a remote: with --netserver is refused in one line"
"$TUNETOP" run --netserver -t TCP_RR -l 1 >"$TMP/nohost.out" 2>"$TMP/nohost.err"
[ $? -eq 2 ] && grep -q "needs -H HOST" "$TMP/nohost.err"
ok $? "--netserver without -H is refused"
timeout 20 "$TUNETOP" run -H 127.0.0.1 --netserver -p "$P" -t TCP_RR -l 1 -- -n 2 >"$TMP/n2.out" 2>"$TMP/n2.err"
[ $? -eq 1 ] && grep -q "one data connection per test" "$TMP/n2.err"
ok $? "-n 2 with --netserver is refused"

# The dashboard: local panels live, the remote end says it has no live
# figures until netserver's results come.
if command -v tmux >/dev/null 2>&1; then
	S="tunetop-ns-$$"
	# pane_until FILE TRIES PATTERN...: the pane into FILE every 0.1 s until
	# every (extended) PATTERN is in it; 0, or 1 after TRIES.
	pane_until() {
		f=$1 n=$2
		shift 2
		for _ in $(seq "$n"); do
			tmux -L "$S" capture-pane -p -t dash >"$f" 2>/dev/null
			all=0
			for pat in "$@"; do
				grep -Eq "$pat" "$f" || { all=1; break; }
			done
			[ $all -eq 0 ] && return 0
			sleep 0.1
		done
		return 1
	}
	tmux -L "$S" new-session -d -s dash -x 160 -y 50 \
		"$TUNETOP -H 127.0.0.1 --netserver -p $P -t TCP_STREAM -l 3 2>$TMP/dash.err; echo EXIT=\$? >$TMP/dash.exit"
	pane_until "$TMP/dash.txt" 100 "RUNNING" "remote netserver: no live figures" "now [0-9.]+k? ?[MG]bit/s"
	seen=$?
	ok $seen "dashboard: local rate live, remote panels say netserver: no live figures"
	[ $seen -eq 0 ] || diag "$TMP/dash.txt"
	pane_until "$TMP/dash.txt" 150 "run [0-9]+ done" "TCP_STREAM done"
	done=$?
	ok $done "dashboard: the run ends with netserver's figures"
	[ $done -eq 0 ] || diag "$TMP/dash.txt"
	tmux -L "$S" send-keys -t dash q
	for _ in $(seq 50); do [ -s "$TMP/dash.exit" ] && break; sleep 0.1; done
	grep -q "EXIT=0" "$TMP/dash.exit" 2>/dev/null
	ok $? "dashboard: q quits with status 0"
	tmux -L "$S" kill-server 2>/dev/null
	# without --netserver: found, said in the status line, panels as above
	tmux -L "$S" new-session -d -s dash -x 160 -y 50 \
		"$TUNETOP -H 127.0.0.1 -p $P -t TCP_STREAM -l 3 2>$TMP/dash2.err; echo EXIT=\$? >$TMP/dash2.exit"
	pane_until "$TMP/dash2.txt" 100 "127\\.0\\.0\\.1:$P is a netserver: running as --netserver" \
		"remote netserver: no live figures"
	seen=$?
	ok $seen "dashboard without --netserver: the status line says it found a netserver, the remote panels have no live figures"
	[ $seen -eq 0 ] || diag "$TMP/dash2.txt"
	head -1 "$TMP/dash2.txt" | grep -q "netserver at 127\.0\.0\.1 port $P"
	ok $? "dashboard without --netserver: the header names the netserver, not a tunetopd: $(head -1 "$TMP/dash2.txt")"
	tmux -L "$S" send-keys -t dash q
	for _ in $(seq 100); do [ -s "$TMP/dash2.exit" ] && break; sleep 0.1; done
	tmux -L "$S" kill-server 2>/dev/null
else
	ok 1 "dashboard: tmux is needed (Debian package tmux; quickstart installs it)"
fi

# misdetect NAME PORT PATTERN: fails within 20 s, one line naming it.
misdetect() {
	start=$(date +%s)
	timeout 20 "$TUNETOP" run -H 127.0.0.1 --netserver -p "$2" --connect-timeout 2 -t TCP_RR -l 1 \
		>"$TMP/$1.out" 2>"$TMP/$1.err"
	rc=$?
	took=$(($(date +%s) - start))
	[ $rc -eq 1 ] && [ "$(wc -l <"$TMP/$1.err")" -eq 1 ] && grep -q "$3" "$TMP/$1.err"
	ok $? "$1: fails cleanly in ${took} s (rc $rc): $(cat "$TMP/$1.err")"
}
start_daemon || exit 1
misdetect "a tunetopd" "$PORT" "tunetop's own protocol (a tunetopd"
start_replay old || exit 1
misdetect "an older netserver" "$RPORT" "does not know the omni test"
start_replay garbage || exit 1
misdetect "a port sending garbage" "$RPORT" "no complete reply within 2.0 s: 37 of the 656 bytes.*not netserver 2.7"
start_replay silent || exit 1
misdetect "a port saying nothing" "$RPORT" "no answer within 2.0 s: not netserver 2.7"
# 2 s is a deadline for the whole answer, not a silence: never "went quiet".
start_replay trickle || exit 1
misdetect "a port sending a byte every 0.5 s" "$RPORT" "no complete reply within 2.0 s: [1-9] of the 656 bytes netserver 2.7 answers (first bytes 787878"
misdetect "a closed port" "$(free_port)" "Connection refused"

# Without --netserver: a tunetopd runs as ever; the other wrong guesses fail
# in one line within --connect-timeout.
timeout 20 "$TUNETOP" run -H 127.0.0.1 -p "$PORT" --connect-timeout 2 -t TCP_RR -l 1 \
	>"$TMP/td.out" 2>"$TMP/td.err" &&
	grep -q "^Target: host: tunetopd at 127.0.0.1 port $PORT" "$TMP/td.out" &&
	grep -q "^Stored as run [0-9]*$" "$TMP/td.err" && [ "$(wc -l <"$TMP/td.err")" -eq 1 ]
ok $? "no --netserver, a tunetopd: the run is a tunetopd run, stderr says only where it is stored"
# found NAME PORT PATTERN [LINES]: fails within 20 s; stderr has LINES
# lines (1), the last matching PATTERN.
found() {
	start=$(date +%s)
	timeout 20 "$TUNETOP" run -H 127.0.0.1 -p "$2" --connect-timeout 2 -t TCP_RR -l 1 \
		>"$TMP/f$1.out" 2>"$TMP/f$1.err"
	rc=$?
	took=$(($(date +%s) - start))
	[ $rc -eq 1 ] && [ "$(wc -l <"$TMP/f$1.err")" -eq "${4:-1}" ] && tail -1 "$TMP/f$1.err" | grep -q "$3"
	ok $? "no --netserver, $1: fails cleanly in ${took} s (rc $rc): $(tail -1 "$TMP/f$1.err")"
}
start_replay old || exit 1
found "an older netserver" "$RPORT" "(netserver): .*does not know the omni test" 2
grep -q "^tunetop: 127.0.0.1:$RPORT is a netserver: running as --netserver" "$TMP/fan older netserver.err"
ok $? "no --netserver, an older netserver: first named a netserver, then refused"
start_replay garbage || exit 1
found "a port sending garbage" "$RPORT" "answered tunetop's HELLO with 37 bytes (first bytes 5353482d), no complete reply within 2 s: neither a tunetopd"
start_replay trickle || exit 1
found "a port sending a byte every 0.5 s" "$RPORT" "answered tunetop's HELLO with [1-9] bytes (first bytes 787878[0-9a-f]*), no complete reply within 2 s: neither a tunetopd"
start_replay close || exit 1
found "a port that closes" "$RPORT" "closed the connection without answering tunetop's HELLO: neither a tunetopd"
start_replay silent || exit 1
found "a port saying nothing" "$RPORT" "no answer to tunetop's HELLO within 2 s: neither a tunetopd"
found "a closed port" "$(free_port)" "Connection refused"

# The knobs of a remote end: a netserver has none, said at once; a silent
# port ends within the 5 s the knob commands give a first answer.
start_replay replay || exit 1
timeout 20 "$TUNETOP" knobs list --side remote -H 127.0.0.1 -p "$RPORT" >"$TMP/kns.out" 2>"$TMP/kns.err"
rc=$?
[ $rc -eq 1 ] && [ "$(wc -l <"$TMP/kns.err")" -eq 1 ] &&
	grep -q "port $RPORT is a netserver: netserver has no knobs to read or change" "$TMP/kns.err"
ok $? "knobs list --side remote on a netserver: refused in one line (rc $rc): $(cat "$TMP/kns.err")"
start_replay silent || exit 1
start=$(date +%s)
timeout 20 "$TUNETOP" knobs list --side remote -H 127.0.0.1 -p "$RPORT" >"$TMP/knq.out" 2>"$TMP/knq.err"
rc=$?
took=$(($(date +%s) - start))
[ $rc -eq 1 ] && [ $took -le 10 ] && grep -q "no answer to tunetop's HELLO within 5 s" "$TMP/knq.err"
ok $? "knobs list --side remote on a silent port: fails in ${took} s (rc $rc): $(cat "$TMP/knq.err")"

# A/B against netserver: its sides are knob settings; netserver has none, but
# the local end's are this host's.  Changed only inside a network namespace
# of the test's own (the replay and tunetop run in it), never the host's.
if [ "$(id -u)" -eq 0 ]; then
	isolated_state
	unshare -n sh -c '
		ip link set lo up || exit 9
		python3 "$1" --port-file "$2/port.ab" 2>>"$2/nsreplay.ab.log" &
		rp=$!
		for _ in $(seq 300); do [ -s "$2/port.ab" ] && break; sleep 0.1; done
		timeout 120 "$3" ab --a net.ipv4.tcp_autocorking=on --b net.ipv4.tcp_autocorking=off \
			-n 3 --seed 7 -H 127.0.0.1 --netserver -p "$(cat "$2/port.ab")" -t TCP_RR -l 1 \
			>"$2/abns.out" 2>"$2/abns.err"
		rc=$?
		kill $rp
		exit $rc' sh "$NSREPLAY" "$TMP" "$TUNETOP"
	rc=$?
	grep -q "^B vs A: throughput" "$TMP/abns.out" &&
		grep -Eq "^net.ipv4.tcp_autocorking +local +on +on +off" "$TMP/abns.out"
	ok $((rc + $?)) "ab --a/--b local knobs --netserver: compared against the replayed netserver (rc $rc)"
	[ $rc -eq 0 ] || { diag "$TMP/abns.err"; diag "$TMP/abns.out"; }
	n=$("$TUNETOP" runs list --json | python3 -c 'import json,sys; print(sum(1 for r in json.load(sys.stdin) if r["source"] == "ab" and r["target_short"] == "netserver:127.0.0.1"))')
	[ "$n" -eq 6 ]
	ok $? "ab: its 6 runs are stored as against netserver ($n)"
elif [ "${CI:-}" = true ]; then
	ok 1 "ab --netserver with local knobs needs root (a network namespace), and CI runs as root"
else
	echo "ok $((tap_n + 1)) - ab --netserver with local knobs # SKIP not root"
	tap_n=$((tap_n + 1))
fi

done_testing
