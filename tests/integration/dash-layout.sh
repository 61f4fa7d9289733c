#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The dashboard under tmux at 80x24, 100x30, 132x43 and 200x60: no word cut
# at a panel's edge, the limit line there, a page indicator where panels
# page; the keys that mean one thing everywhere (/ from every panel, :set,
# b on the run on show) and runs named by their ids in the history.
. "$(dirname "$0")/lib.sh"

need_root "the dashboard layout tests (a lab of their own)"
isolated_state
PANE=lay
. "$(dirname "$0")/tmux-lib.sh"

db() {
	python3 -c "import sqlite3,sys; print(*[r[0] for r in sqlite3.connect(sys.argv[1]).execute(sys.argv[2])])" \
		"$TUNETOP_DB" "$1"
}

# sysctl_of SIDE NAME: a sysctl in the dashboard's lab.
sysctl_of() {
	ip netns exec "$lab-$1" sysctl -n "$2"
}

# The verdict's words (src/stats/verdict.c) are whole wherever they end:
# the widest layout need not have shown each of them.
printf '%s\n' BETTER WORSE "can't" tell >"$TMP/words"
for size in 200x60 132x43 100x30 80x24; do
	w=${size%x*}
	h=${size#*x}
	T new-session -d -s lay -x "$w" -y "$h" "$TUNETOP -l 1 2>$TMP/err.$size"
	T set-option -t lay remain-on-exit on >/dev/null
	wait_for "run [0-9]+ done" 200
	ok $? "$size: the dashboard runs its first test"
	lab=$(screen | sed -n 's/.*lab: \(tunetop-[0-9]*\).*/\1/p' | head -1)

	# Ids: the header and the runs panel name the run by its id in the history.
	id=$(db "select max(id) from runs")
	screen | head -1 | grep -q "run $id done"
	ok $? "$size: the header names run $id, its id in the history"

	# Every page of panels, each checked for words cut at its edge.
	pages=$(screen | head -1 | sed -n 's/.*panels 1\/\([0-9]\) Tab.*/\1/p')
	if [ "$w" -eq 80 ]; then
		[ -n "$pages" ]
		ok $? "$size: panels page, and the header says so (panels 1/${pages:-?} Tab)"
	fi
	: >"$TMP/cuts"
	for p in 1 2 3 4 5 6; do
		[ "$w" -eq 200 ] && seen_words
		cut_words >>"$TMP/cuts"
		screen | grep -q "limit: " && echo limit >>"$TMP/limit"
		keys Tab
		sleep 0.3
	done
	[ ! -s "$TMP/cuts" ]
	ok $? "$size: no word cut at a panel's edge on any page"
	[ -s "$TMP/cuts" ] && diag "$TMP/cuts"
	[ -s "$TMP/limit" ]
	ok $? "$size: the rate panel says what limits the run"
	rm -f "$TMP/limit"

	# / from every panel (focus 0..5): the knob is found, and the keys
	# typed after / are the name, never commands (r would start a run).
	# Space then toggles tcp_sack on the local end: the end never
	# remembered from an earlier Left/Right.
	sack=$(sysctl_of a net.ipv4.tcp_sack)
	bad=""
	for p in 0 1 2 3 4 5; do
		# the focus is on Knobs (4) after a find; Tab to panel p
		n=$(( (p + 6 - 4) % 6 ))
		[ "$p" -eq 0 ] && n=0
		while [ "$n" -gt 0 ]; do keys Tab; n=$((n - 1)); done
		keys / t c p _ s a c k Enter
		sleep 0.3
		keys Right Down Up Space
		sleep 0.5
		now=$(sysctl_of a net.ipv4.tcp_sack)
		if [ "$now" = "$sack" ] || screen | head -1 | grep -q RUNNING; then
			bad="$bad $p"
		fi
		keys Space
		sleep 0.5
		[ "$(sysctl_of a net.ipv4.tcp_sack)" = "$sack" ] || bad="$bad $p(back)"
	done
	[ -z "$bad" ]
	ok $? "$size: / finds tcp_sack from every panel, Space flips it on the local end${bad:+ (failed at:$bad)}"
	[ "$(sysctl_of b net.ipv4.tcp_sack)" = "$sack" ]
	ok $? "$size: and never on the remote end after a Right long ago"

	# :set, the batch syntax.
	keys : s e t Space r e m o t e : n e t . i p v 4 . t c p _ r e o r d e r i n g = 9 Enter
	for _ in $(seq 30); do
		[ "$(sysctl_of b net.ipv4.tcp_reordering)" = 9 ] && break
		sleep 0.1
	done
	[ "$(sysctl_of b net.ipv4.tcp_reordering)" = 9 ] &&
		[ "$(sysctl_of a net.ipv4.tcp_reordering)" != 9 ]
	ok $? ":set remote:NAME=9 sets it on the remote end only ($size)"
	keys : s e t Space n o s u c h = 1 Enter
	wait_for "^:set nosuch: .*accepted" 20
	ok $? "$size: a bad :set is one line saying what is accepted"

	# b marks the run on show, not the runs panel's selection.
	# the history is the test's own: the next run's id is the next one
	keys : r u n Enter
	wait_for "run $((id + 1)) done" 200
	id2=$(db "select max(id) from runs")
	# the runs panel focused (Knobs + 1), its selection moved to the older run
	keys Tab Up Up b
	wait_for "run $id2 \(on show\) is the baseline" 20
	ok $? "$size: b marks run $id2, the run on show, with the runs panel's selection elsewhere"
	[ "$(db "select run_id from baselines")" = "$id2" ]
	ok $? "$size: the history's baseline is run $id2"
	# the selection back on the newest, so both are in view
	for _ in 1 2 3 4 5 6 7 8 9 10; do keys Down; done
	sleep 0.3
	screen | grep -qE "│B$id2 +TCP_RR" && screen | grep -qE "│ $id +TCP_RR"
	ok $? "$size: the runs panel names runs $id and $id2 by their history ids"

	# :sweep and :ab go to the dashboard's sweep and A/B (once: runs take time).
	if [ "$w" -eq 200 ]; then
		keys : s w e e p Space b u r s t Space x Enter
		wait_for "^:sweep .*\"x\": not a size" 20
		ok $? "$size: a bad :sweep says what was wrong on one line"
		keys : a b Space - - a Space n o s u c h = 1 Enter
		wait_for "^:ab nosuch: unknown knob" 20
		ok $? "$size: a bad :ab too"
		keys : s w e e p Space b u r s t Space 0 , 1 Enter
		wait_for "sweep burst done: 2 points" 300
		ok $? "$size: :sweep burst 0,1 runs the sweep"
	fi

	keys q
	for _ in $(seq 50); do
		ip netns list | grep -q "^$lab-a" || break
		sleep 0.1
	done
	T kill-session -t lay 2>/dev/null
	! ip netns list | grep -q "^$lab-a"
	ok $? "$size: quitting removes the dashboard's lab"
done

# The help is whole at 80x24: it scrolls, and says so.
T new-session -d -s lay -x 80 -y 24 "$TUNETOP -l 1 2>$TMP/err.help"
T set-option -t lay remain-on-exit on >/dev/null
wait_for "run [0-9]+ done" 200
keys '?'
wait_for "tunetop keys \(Down: more" 20
ok $? "80x24: the help says there is more"
for _ in $(seq 20); do keys Down; done
sleep 0.3
screen | grep -q "^│ *runs  " && screen | grep -q "tunetop keys (Up: back"
ok $? "80x24: Down scrolls to the last panel's keys"
keys Escape q
T kill-session -t lay 2>/dev/null

done_testing
