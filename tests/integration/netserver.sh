#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# run --netserver against netserver 2.7's recorded bytes (tests/tools/nsreplay
# replays them), all six test types; and the wrong guesses, which must fail
# with one line and never hang: a tunetopd, an older netserver, a port that
# sends garbage, one that says nothing.
. "$(dirname "$0")/lib.sh"
NSREPLAY="$top_srcdir/tests/tools/nsreplay"

# start_replay MODE: nsreplay in MODE on a port of its own; sets RPORT.
start_replay() {
	rm -f "$TMP/port.$1"
	python3 "$NSREPLAY" --mode "$1" --port-file "$TMP/port.$1" 2>>"$TMP/nsreplay.$1.log" &
	PIDS="$PIDS $!"
	for _ in $(seq 50); do
		[ -s "$TMP/port.$1" ] && RPORT=$(cat "$TMP/port.$1") && return 0
		sleep 0.1
	done
	echo "# nsreplay --mode $1 did not start"
	return 1
}

start_replay replay || exit 1
P=$RPORT

# type, JSON check of netserver's own figures in the result (from its
# recorded results message), what the human output must show
check_type() {
	t=$1 expr=$2
	timeout 60 "$TUNETOP" run -H 127.0.0.1 --netserver -p "$P" -t "$t" -l 1 -c -C --json \
		>"$TMP/$t.json" 2>"$TMP/$t.err"
	rc=$?
	ok $rc "$t against the replayed netserver completes"
	[ $rc -eq 0 ] || { diag "$TMP/$t.err"; diag "$TMP/nsreplay.replay.log"; return; }
	[ "$(jq_py "$TMP/$t.json" "$expr")" = True ]
	ok $? "$t: netserver's figures are the remote end's ($expr)"
	[ "$(jq_py "$TMP/$t.json" 'j["target_short"]')" = "netserver:127.0.0.1" ]
	ok $? "$t: the result is marked as against netserver"
	[ "$(jq_py "$TMP/$t.json" 'j["result"]["remote_ctx_per_sec"] is None and j["result"]["local_ctx_per_sec"] is not None')" = True ]
	ok $? "$t: netserver's context switches are n/a, not 0"
	[ "$(jq_py "$TMP/$t.json" 'j["result"]["local_bytes_sent"] > 0 or j["result"]["local_bytes_recvd"] > 0')" = True ]
	ok $? "$t: the local end ran its own flow to the data port netserver announced"
}
check_type TCP_RR 'j["result"]["remote_transactions"] == 18139 and abs(j["result"]["remote_cpu_util"] - 29.24) < 0.01 and j["result"]["remote_cpu_count"] == 2'
check_type TCP_CRR 'j["result"]["remote_transactions"] == 12785 and j["result"]["remote_cpu_util"] is None'
check_type TCP_STREAM 'j["result"]["remote_bytes_recvd"] == 3111174144 and abs(j["result"]["remote_cpu_util"] - 71.81) < 0.01'
check_type TCP_MAERTS 'j["result"]["remote_bytes_sent"] == 3098165248 and j["result"]["local_bytes_recvd"] > 0'
check_type UDP_RR 'j["result"]["remote_transactions"] == 18362 and j["result"]["rsr_size"] == 212992'
check_type UDP_STREAM 'j["result"]["remote_recv_calls"] == 175359 and j["result"]["remote_bytes_recvd"] == 258128448'

# The human output: netperf's block with netserver's CPU, and the target.
timeout 60 "$TUNETOP" run -H 127.0.0.1 --netserver -p "$P" -t TCP_RR -l 1 -C >"$TMP/human.txt" 2>&1
rc=$?
grep -q "^Target: netserver at 127.0.0.1 port $P" "$TMP/human.txt" &&
	grep -Eq "^16384 +131072 +1 +1 .* 29\.24 " "$TMP/human.txt"
ok $((rc + $?)) "the human output shows netserver's socket sizes and CPU (29.24%)"
[ $? -eq 0 ] || diag "$TMP/human.txt"

# -i: one control connection per iteration, each a whole test.
timeout 90 "$TUNETOP" run -H 127.0.0.1 --netserver -p "$P" -t TCP_RR -l 1 -i 3,3 --json >"$TMP/iter.json" 2>"$TMP/iter.err"
ok $? "-i 3,3 against netserver completes"
[ "$(jq_py "$TMP/iter.json" 'j["iterations"]')" = 3 ]
ok $? "and iterates three times"

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
	tmux -L "$S" new-session -d -s dash -x 160 -y 50 \
		"$TUNETOP -H 127.0.0.1 --netserver -p $P -t TCP_STREAM -l 3 2>$TMP/dash.err; echo EXIT=\$? >$TMP/dash.exit"
	seen=1 done=1
	for _ in $(seq 100); do
		tmux -L "$S" capture-pane -p -t dash >"$TMP/dash.txt" 2>/dev/null
		if grep -q "RUNNING" "$TMP/dash.txt" && grep -q "remote netserver: no live figures" "$TMP/dash.txt" &&
			grep -Eq "now [0-9.]+k? ?[MG]bit/s" "$TMP/dash.txt"; then
			seen=0
			break
		fi
		sleep 0.1
	done
	ok $seen "dashboard: local rate live, remote panels say netserver: no live figures"
	[ $seen -eq 0 ] || diag "$TMP/dash.txt"
	for _ in $(seq 150); do
		tmux -L "$S" capture-pane -p -t dash >"$TMP/dash.txt" 2>/dev/null
		grep -q "run 1 done" "$TMP/dash.txt" && grep -q "TCP_STREAM done" "$TMP/dash.txt" && { done=0; break; }
		sleep 0.1
	done
	ok $done "dashboard: the run ends with netserver's figures"
	[ $done -eq 0 ] || diag "$TMP/dash.txt"
	tmux -L "$S" send-keys -t dash q
	for _ in $(seq 50); do [ -s "$TMP/dash.exit" ] && break; sleep 0.1; done
	grep -q "EXIT=0" "$TMP/dash.exit" 2>/dev/null
	ok $? "dashboard: q quits with status 0"
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
misdetect "a port sending garbage" "$RPORT" "went quiet .* after 37 of the 656 bytes.*not netserver 2.7"
start_replay silent || exit 1
misdetect "a port saying nothing" "$RPORT" "went quiet for 2.0 s without a whole answer"
misdetect "a closed port" "$(free_port)" "Connection refused"

# Without --netserver, a netserver says nothing to tunetopd's HELLO: the
# wait ends at --connect-timeout, naming --netserver.
start_replay replay || exit 1
start=$(date +%s)
timeout 20 "$TUNETOP" run -H 127.0.0.1 -p "$RPORT" --connect-timeout 1 -t TCP_RR -l 1 \
	>"$TMP/nons.out" 2>"$TMP/nons.err"
rc=$?
took=$(($(date +%s) - start))
[ $rc -eq 1 ] && [ $took -le 4 ] && [ "$(wc -l <"$TMP/nons.err")" -eq 1 ] &&
	grep -q "no HELLO_OK within 1 s.*add --netserver" "$TMP/nons.err"
ok $? "netserver without --netserver: fails in ${took} s (rc $rc) naming --netserver: $(cat "$TMP/nons.err")"

done_testing
