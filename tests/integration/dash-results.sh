#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The dashboard under tmux, a session of runs as the seeds tell it: the
# verdict of two runs the same in the rate header, the runs panel and
# `tunetop runs diff` (with the history's noise); like with like across a
# test change; a changed test option named; an A/B's table and a sweep's
# plot over the panels until Esc, recalled by v and :show (a CLI sweep
# too); at 200x60, 132x43, 100x30 and 80x24 no word cut at a panel edge.
. "$(dirname "$0")/lib.sh"

need_root "the dashboard's results (a lab of its own)"
isolated_state
PANE=res
. "$(dirname "$0")/tmux-lib.sh"

# cmd TEXT: a command line (:) typed and entered.
cmd() {
	keys :
	keys -l "$1"
	keys Enter
}

# sizes CHECK: resize to each size, widest first, and run CHECK there.
sizes() {
	for size in 200x60 132x43 100x30 80x24; do
		T resize-window -t res -x "${size%x*}" -y "${size#*x}"
		sleep 0.6
		"$1" "$size"
	done
	T resize-window -t res -x 200 -y 60
	sleep 0.6
}

T new-session -d -s res -x 200 -y 60 "$TUNETOP -l 1 2>$TMP/err"
T set-option -t res remain-on-exit on >/dev/null
wait_for "run 1 done" 200
ok $? "the dashboard runs its first test"
lab=$(screen | sed -n 's/.*lab: \(tunetop-[0-9]*\).*/\1/p' | head -1)
printf '%s\n' BETTER WORSE "can't" tell >"$TMP/words"

# Five identical runs: the verdict of 5 against 4 uses their history.
for i in 2 3 4 5; do
	keys r
	wait_for "run $i done" 200 || break
done
sleep 0.5
screen >"$TMP/s5"
# the header: "vs run 4: 52.8k ~ +6.6 %", "vs run 4 ~ +6.6 %" where narrow
verdict_of() { sed -n "s/.*vs run 4\(: [^ ]*\)\? \(~\|BETTER\|WORSE\|can't tell\) \([+-][0-9.]* %\).*/\2 \3/p" | head -1; }
hdr=$(verdict_of <"$TMP/s5")
pan=$(sed -n "s/.*why 5 vs 4: \(.* %)\).*/\1/p" "$TMP/s5" | head -1)
"$TUNETOP" runs diff 4 5 >"$TMP/diff45" 2>&1
cli=$(sed -n 's/^Throughput A -> B: .*: \(.* %)\)$/\1/p' "$TMP/diff45")
reason=$(grep -A1 '^Throughput A -> B' "$TMP/diff45" | tail -1 | sed 's/^ *//')
[ -n "$cli" ] && [ "$pan" = "$cli" ]
ok $? "runs panel '$pan' says what runs diff 4 5 says: '$cli'"
[ $? -eq 0 ] || diag "$TMP/s5"
[ -n "$hdr" ] && case "$cli" in "$hdr"*) true ;; *) false ;; esac
ok $? "the rate header's '$hdr' is the same word and change"
echo "$reason" | grep -q "runs of this setup" && grep -qF "$reason" "$TMP/s5"
ok $? "both judge with the history of the setup: '$reason'"
# At every size the header says the same word and change (the latency,
# then the compared run's rate give way to it), and no word is cut at a
# panel's edge.
sizes_verdict() {
	[ "$1" = 200x60 ] && seen_words
	h=$(screen | verdict_of)
	cut_words >"$TMP/cut.v.$1"
	[ "$h" = "$hdr" ] && [ ! -s "$TMP/cut.v.$1" ]
	ok $? "$1: the header's verdict is '$h', no word cut at an edge"
	[ -s "$TMP/cut.v.$1" ] && diag "$TMP/cut.v.$1"
}
sizes sizes_verdict

# Like with like: compare on, then a test change.
keys b
wait_for "run 5 \(on show\) is the baseline" 30
keys r
wait_for "run 6 done" 200
keys c
wait_for "^ tunetop .* vs run 5 " 20
ok $? "c compares run 6 with the baseline, run 5"
cmd "run -t TCP_STREAM -l 1"
wait_for "run 7 done" 200
wait_for "compare off: run 5 was TCP_RR, no TCP_STREAM run to compare with" 20
ok $? "a test change drops a compared run of another test, and the header says so"
screen | grep -q "not compared"
[ $? -ne 0 ]
ok $? "nothing of TCP_RR is compared with the stream"
cmd "run -t TCP_STREAM -l 1 -- -m 256"
wait_for "run 8 done" 200
wait_for "changed: -m [^ ]* -> 256" 20
ok $? "the runs panel lists the changed test option (-m) as what changed"
keys b
wait_for "run 8 \(on show\) is the baseline" 30
cmd "run"
wait_for "run 9 done" 200
keys c
wait_for "^ tunetop .* vs run 8 " 20
cmd "run -t TCP_RR -l 1"
wait_for "run 10 done" 200
wait_for "vs run 5, the baseline of TCP_RR: run 8 was TCP_STREAM" 20
ok $? "back on TCP_RR the compared stream gives way to TCP_RR's baseline, said in words"
screen | grep -q "vs run 8"
[ $? -ne 0 ]
ok $? "and run 8 is no longer compared"

# An A/B: its table over the panels, judged as sweep show judges it.
cmd "ab --a net.ipv4.tcp_autocorking=1 --b net.ipv4.tcp_autocorking=0 -n 3"
wait_for "A/B [0-9]+: B vs A" 900
ok $? "an A/B's results show when it ends"
screen >"$TMP/ab"
grep -q "A: net.ipv4.tcp_autocorking=on" "$TMP/ab" && grep -q "B: net.ipv4.tcp_autocorking=off" "$TMP/ab"
ok $? "A and B are named by their settings"
word=$(sed -n "s/.*rate tr\/s .* \(~\|BETTER\|WORSE\|can't tell\).*/\1/p" "$TMP/ab" | head -1)
grep -qE "p99 us .* (~|BETTER|WORSE)" "$TMP/ab" && grep -qE "CPU local %" "$TMP/ab"
ok $? "a row per metric: rate, latency, CPU"
v=$("$TUNETOP" sweep show last | sed -n 's/^B vs A rate: \(.*\) (.*/\1/p')
case "$v" in
"~") want="~" ;;
-*) want=WORSE ;;
*) want=BETTER ;;
esac
[ -n "$word" ] && [ "$word" = "$want" ]
ok $? "the table's rate verdict ($word) is sweep show's ($v)"
sizes_ab() {
	[ "$1" = 200x60 ] && seen_words
	cut_words >"$TMP/cut.ab.$1"
	[ ! -s "$TMP/cut.ab.$1" ] && screen | grep -q "A/B [0-9]*: B vs A" && screen | grep -q "rate tr/s"
	ok $? "$1: the A/B table fits, no word cut at an edge"
	[ -s "$TMP/cut.ab.$1" ] && diag "$TMP/cut.ab.$1"
}
sizes sizes_ab
keys Escape
sleep 0.5
screen | grep -q "Esc close"
[ $? -ne 0 ]
ok $? "Esc dismisses the results"

# A sweep: its plot, cliffs and a cursor point with its columns.
cmd "sweep burst 0,1,4"
wait_for "sweep [0-9]+ burst: 3 points" 600
ok $? "a sweep's plot shows when it ends"
wait_for "burst=0 \(run [0-9]+\): [0-9.k]+ Trans/s .*p99 us" 10
ok $? "the cursor is on its first point, with its run, rate and columns"
keys Right
wait_for "burst=1 \(run [0-9]+\)" 10
ok $? "Right moves the cursor to the next point"
# the cursor's line is the plot's last row inside: 58 of 60 zoomed, the top half's else
cursor_row() { screen | grep -n "burst=1 (run" | cut -d: -f1; }
keys z
sleep 0.5
[ "$(cursor_row)" = 58 ] && screen | grep -q "sweep [0-9]* burst"
ok $? "z zooms the plot to the whole screen"
keys z
sleep 0.5
[ "$(cursor_row)" -lt 35 ]
ok $? "z again: back over the top half"
sizes_sweep() {
	[ "$1" = 200x60 ] && seen_words
	cut_words >"$TMP/cut.sw.$1"
	[ ! -s "$TMP/cut.sw.$1" ] && screen | grep -qE "burst=[0-9]+ \(run"
	ok $? "$1: the sweep's plot and its cursor line fit, no word cut at an edge"
	[ -s "$TMP/cut.sw.$1" ] && diag "$TMP/cut.sw.$1"
}
sizes sizes_sweep
keys Escape

# Recalled from the runs panel: v on a run of a sweep or an A/B.
keys BTab
for _ in $(seq 30); do keys Up; done
keys v
wait_for "v: run 1 is not part of a sweep or an A/B" 20
ok $? "v on a plain run says it belongs to no sweep or A/B"
for _ in $(seq 40); do keys Down; done
keys v
wait_for "sweep [0-9]+ burst: 3 points" 20
ok $? "v on the newest run recalls its sweep's plot"
keys Escape

# A sweep made by tunetop sweep, shown by :show as the dashboard's own.
"$TUNETOP" sweep burst 0,2 -l 0.5 --loopback >"$TMP/clisweep" 2>&1
ok $? "tunetop sweep burst 0,2 on loopback"
[ $? -eq 0 ] || diag "$TMP/clisweep"
cmd "show last"
wait_for "sweep [0-9]+ burst: 2 points" 20
ok $? ":show last shows the CLI's sweep"
cmd "show sweep nosuch"
wait_for "^:show .*accepted" 20
ok $? "a bad :show says what is accepted"
keys Escape

keys q
for _ in $(seq 50); do
	ip netns list | grep -q "^$lab-a" || break
	sleep 0.1
done
! ip netns list | grep -q "^$lab-a"
ok $? "quitting removes the dashboard's lab"

done_testing
