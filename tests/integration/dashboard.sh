#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The dashboard under tmux: every panel live, keys (run, knob toggle and edit
# reaching the lab, pending edits, rerun, baseline, compare, help), resize,
# quit with the terminal and the knobs restored, a crash, --frames.
. "$(dirname "$0")/lib.sh"

need_root "the dashboard tests (a lab of their own)"
isolated_state
PANE=dash
. "$(dirname "$0")/tmux-lib.sh"

# wait_for_head PATTERN [TENTHS]: until the header line shows PATTERN.
wait_for_head() {
	for _ in $(seq "${2:-100}"); do
		screen | head -1 | grep -qE -- "$1" && return 0
		sleep 0.1
	done
	return 1
}

# burst_rows_missing: the points of seed004's burst sweep (2..256) whose
# row in the runs panel lacks its rate and a value in each of two columns.
burst_rows_missing() {
	for b in 2 4 8 16 32 64 128 256; do
		screen | grep -qE "│ burst=$b +[0-9]+\.[0-9]+ +[0-9]+\.[0-9]+ +[0-9]+\.[0-9]+ " ||
			printf ' %s' "$b"
	done
}

# last_sweep_id: the newest sweep in the run history.
last_sweep_id() {
	python3 -c "import sqlite3,sys; print(sqlite3.connect(sys.argv[1]).execute(\"select max(id) from sweeps\").fetchone()[0])" "$TUNETOP_DB"
}

# start NAME CMD: a 200x60 session running CMD; the pane stays after it ends.
start() {
	T new-session -d -s "$1" -x 200 -y 60 "$2"
	T set-option -t "$1" remain-on-exit on >/dev/null
}

start dash "$TUNETOP -l 4 2>$TMP/err; echo EXIT=\$? >$TMP/exit; stty -a </dev/tty >$TMP/stty"
wait_for "RUNNING|run 1" 100
ok $? "the dashboard opens and starts the default test at once"
for title in "Rate" "Segment sizes" "Socket buffers" "Coalescing & interrupts" "Knobs" "Runs"; do
	screen | grep -q "┌ $title "
	ok $? "panel '$title' is on the screen"
done
lab=$(screen | sed -n 's/.*lab: \(tunetop-[0-9]*\) .*/\1/p' | head -1)
[ -n "$lab" ] && ip netns list | grep -q "^$lab-b"
ok $? "the header names the dashboard's own lab ($lab), which exists"
! screen | grep -q "capture off"
ok $? "by default the dashboard captures (--capture=auto)"
wait_for "now [0-9.k]+ trans/s" 50
a=$(screen | grep -o 'now [0-9.k]* trans/s' | head -1)
# The next figure that differs, read as soon as it is drawn.
for _ in $(seq 15); do
	sleep 0.1
	b=$(screen | grep -o 'now [0-9.k]* trans/s' | head -1)
	[ -n "$b" ] && [ "$a" != "$b" ] && break
done
[ -n "$a" ] && [ -n "$b" ] && [ "$a" != "$b" ]
ok $? "live numbers change while it runs ($a, then $b)"
screen | grep -qE "local sent +MSS 1448"
ok $? "the segment sizes of the run are shown with the lab's MSS"
screen | grep -q "snd .* -> .*rcv .* -> "
ok $? "socket buffers show initial -> now for both ends"
wait_for "run 1 done" 300
ok $? "run 1 ends and says so"
screen | grep -qE "^│ *1 +TCP_RR +done|│ 1   TCP_RR     done"
ok $? "the runs panel lists run 1 with its figures"

# gro_of SIDE: veth's generic-receive-offload on that side of the lab.
gro_of() {
	ip netns exec "$lab-$1" ethtool -k "veth-$1" 2>/dev/null |
		sed -n 's/^generic-receive-offload: \([a-z]*\).*/\1/p'
}
gro0=$(gro_of b)
gro0a=$(gro_of a)
[ "$gro0" = on ] && gro1=off || gro1=on

# Knobs: focus the knobs panel, find gro, toggle it on the remote end (lab-b).
keys Tab Tab Tab Tab
keys / g r o Enter Right Space
for _ in $(seq 50); do
	[ "$(gro_of b)" = "$gro1" ] && break
	sleep 0.1
done
[ "$(gro_of b)" = "$gro1" ]
ok $? "Space on gro (remote) while idle turns GRO $gro1 on veth-b inside $lab-b (was $gro0)"
[ "$(gro_of a)" = "$gro0a" ]
ok $? "and leaves the local end (veth-a) alone"
# Edit a value: net.ipv4.tcp_reordering on the local end (lab-a).
keys / t c p _ r e o r d e r i n g Enter Left Enter BSpace BSpace BSpace 7 Enter
for _ in $(seq 50); do
	[ "$(ip netns exec "$lab-a" sysctl -n net.ipv4.tcp_reordering)" = 7 ] && break
	sleep 0.1
done
[ "$(ip netns exec "$lab-a" sysctl -n net.ipv4.tcp_reordering)" = 7 ]
ok $? "Enter edits net.ipv4.tcp_reordering to 7 in $lab-a"
wait_for "2 changed" 20
ok $? "the status line counts the two changed knobs"

# Baseline, rerun, compare.
keys b
keys r
wait_for "run 2 done" 80
ok $? "r reruns: run 2 ends"
screen | grep -q "gro: $gro0 -> $gro1 (remote)"
ok $? "run 2's record names the knobs changed since run 1"
keys c
wait_for "knobs differ:.*gro\(r\)" 30
ok $? "c compares run 2 with the baseline run 1, knobs that differ named"
screen | grep -q "vs run 1"
ok $? "the header says which run is compared"
# What moved (docs/why.md): from the compared run to the one on show.
wait_for "why 2 vs 1: (WORSE|BETTER|~|can't tell) [-+][0-9.]+ % \(noise [-+][0-9.]+\.\.[-+][0-9.]+ %\)(, rate [0-9.]+[kMG]? -> [0-9.]+[kMG]?)? *│" 30
ok $? "the runs panel says what moved from run 1 to run 2: $(screen | grep -o 'why 2 vs 1: [^│]*' | head -1)"
screen | grep -qE "│ +(1\. [A-Za-z][^│]*: [^│]+ -> [^│]+|moved: nothing of the mechanisms compared)"
ok $? "with the mechanisms that moved, largest first: $(screen | grep -oE '│ +1\. [^│]*' | head -1)"

# An edit during a run is pending, applied when the run ends.
keys r
wait_for "RUNNING" 30
keys / g r o Enter Right Space
wait_for "1 pending" 20
ok $? "an edit during a run is shown as pending"
[ "$(gro_of b)" = "$gro1" ]
ok $? "and not applied yet"
wait_for "run 3 (done|stopped)" 80
for _ in $(seq 30); do
	[ "$(gro_of b)" = "$gro0" ] && break
	sleep 0.1
done
[ "$(gro_of b)" = "$gro0" ]
ok $? "the pending edit is applied when the run ends (gro $gro0 again)"

# Undo every change: both knobs back, nothing changed.
keys u
wait_for "put back" 30
[ "$(gro_of b)" = "$gro0" ] && [ "$(ip netns exec "$lab-a" sysctl -n net.ipv4.tcp_reordering)" != 7 ]
ok $? "u puts every changed knob back"

# Edit the test: a stream now, then stop it early.
keys t C-u
keys -l -- "-t TCP_STREAM -l 30"
keys Enter
wait_for "next run: -t TCP_STREAM -l 30" 20
ok $? "t edits the test and its parameters"
keys r
wait_for "RUNNING .*TCP_STREAM -l 30" 50
ok $? "r runs the new test (the header says TCP_STREAM)"
sleep 1.5
keys s
wait_for "run [0-9]+ stopped" 50
ok $? "s stops it: the run reports what it measured"
screen | grep -qE "stopped +[0-9.]+[kMG]? "
ok $? "and the runs panel keeps its figures"

# Loop: runs follow each other until l again.
keys t C-u
keys -l -- "-t TCP_RR -l 1"
keys Enter l
wait_for "│ +7 +TCP_RR" 100
ok $? "l loops: runs follow each other by themselves"
keys l
wait_for "loop off" 20
ok $? "l again stops looping"
wait_for "run [0-9]+ (done|stopped)" 40

# A sweep and an A/B comparison from the dashboard, progress in the header.
keys S C-u
keys -l -- "burst 0,1,4"
keys Enter
wait_for "sweep 1/3 burst=0" 50
ok $? "S starts a sweep: the header shows its progress"
wait_for "sweep burst done: 3 points" 150
ok $? "the sweep ends with its summary (cliffs counted)"
screen | grep -qE "│ *[0-9]+ +burst=4 +done"
ok $? "the runs panel names each run's point"
# A knob the target lacks is refused before the first point, by the engine
# check tunetop sweep uses: the lab's veth has no coalescing.
n0=$(python3 -c "import sqlite3,sys; print(sqlite3.connect(sys.argv[1]).execute(\"select count(*) from runs\").fetchone()[0])" "$TUNETOP_DB")
keys S C-u
keys -l -- "knob remote:adaptive-rx=on,off"
keys Enter
wait_for "adaptive-rx on lab-b \(veth-b\): veth: coalescing not supported.*lab-b has no coalescing knob" 50
ok $? "a sweep of a knob the lab lacks is refused before its first point, naming knob and end"
n1=$(python3 -c "import sqlite3,sys; print(sqlite3.connect(sys.argv[1]).execute(\"select count(*) from runs\").fetchone()[0])" "$TUNETOP_DB")
! screen | grep -q "sweep 1/2" && [ "$n0" = "$n1" ]
ok $? "and runs nothing ($n0 runs before, $n1 after)"
r0=$(ip netns exec "$lab-a" sysctl -n net.ipv4.tcp_reordering)
keys A C-u
keys -l -- "--a net.ipv4.tcp_reordering=$r0 --b net.ipv4.tcp_reordering=11 -n 3"
keys Enter
wait_for "A/B [1-6]/6 [ab]" 50
ok $? "A starts an A/B comparison: pairs of runs, progress in the header"
wait_for "A/B done: B vs A rate" 200
ok $? "the A/B ends with a verdict in the status line"
screen | grep -qE "A/B done: .*; moved \(run [0-9]+ -> [0-9]+, the median of each\): [A-Za-z]"
ok $? "and what moved between the median-rate run of each side: $(screen | grep -o 'moved (run [^│]*' | head -1)"
screen | grep -qE "why [0-9]+ vs [0-9]+: (WORSE|BETTER|~|can't tell) "
ok $? "the runs panel shows those two side by side, what moved below"
[ "$(ip netns exec "$lab-a" sysctl -n net.ipv4.tcp_reordering)" = "$r0" ]
ok $? "and puts the knob back ($r0)"
r=$(python3 -c "import sqlite3,sys; c=sqlite3.connect(sys.argv[1]); print(c.execute(\"select count(*) from runs where source='ab'\").fetchone()[0], c.execute(\"select count(*) from runs where source='sweep'\").fetchone()[0])" "$TUNETOP_DB")
[ "$r" = "6 3" ]
ok $? "every run of both is in the history with its source ($r)"
# Issue 26: the dashboard's A/B chooses its seed as tunetop ab does, shows
# it and stores it with the A/B; the same plan from the CLI with that seed
# runs its pairs in the same order and stores the same seed.
seed=$(screen | sed -n 's/.*A\/B done: .*seed \([0-9]*\)[,)].*/\1/p' | head -1)
[ -n "$seed" ]
ok $? "the A/B's verdict line shows its seed ($seed)"
abs() {
	python3 -c 'import sqlite3,sys,json; c=sqlite3.connect(sys.argv[1]); i=c.execute("select id from sweeps where kind=? order by id desc limit 1", ("ab",)).fetchone()[0]; print(json.loads(c.execute("select spec from sweeps where id=?", (i,)).fetchone()[0]).get("seed"), "".join(p for (p,) in c.execute("select point from runs where sweep_id=? order by id", (i,))))' "$TUNETOP_DB"
}
dash_ab=$(abs)
[ "${dash_ab% *}" = "$seed" ]
ok $? "the dashboard stored the A/B with that seed (seed, order: $dash_ab)"
"$TUNETOP" ab --lab "$lab" -l 0.3 -n 3 --seed "$seed" --a "net.ipv4.tcp_reordering=$r0" \
	--b net.ipv4.tcp_reordering=11 >"$TMP/cab" 2>&1
cli_ab=$(abs)
grep -q "in random order (seed $seed)" "$TMP/cab" && [ "$cli_ab" = "$dash_ab" ]
ok $? "tunetop ab with --seed $seed stores the same seed and runs the same order (CLI: $cli_ab)" ||
	diag "$TMP/cab"

# Issue 26: a size sweep plans around the sender's MSS, the remote end's for
# --response, as tunetop sweep does (plan_sweep_mss).  Side b advertises an
# MSS of 500 to side a (a host route with advmss, in the test's own lab):
# side a then sends 488-byte segments, side b 1448-byte ones.  Points:
# powers of two below the MSS, then 6 more: 15 around 488, 17 around 1448.
ip -n "$lab-b" route add 198.18.0.1/32 dev veth-b advmss 500
# The header (its first line), not the whole screen, says when this run is
# done: an older "run N done" may still stand in the status line, and an S
# typed while the run goes would be refused, its letters taken as keys.
keys r
wait_for_head "RUNNING" 50
wait_for_head "run [0-9]+ done" 80
# The points follow the first point's connection (size 1), as tunetop
# sweep's: the header shows their count from the second point on.
mss_sweep() {	# mss_sweep ARGS POINTS: the sweep's header shows POINTS, then stop it
	keys S C-u
	keys -l -- "$1"
	keys Enter
	wait_for "sweep 2/$2 " 200
	r=$?
	keys s
	wait_for "sweep size done" 80
	return $r
}
mss_sweep "size" 15
ok $? "a dashboard size sweep plans around side a's MSS (488: 15 points)"
mss_sweep "size --response" 17
ok $? "with --response around side b's, the sender of the responses (1448: 17 points)"
ip -n "$lab-b" route del 198.18.0.1/32 dev veth-b

# Presets and columns in the sweep prompt, as tunetop sweep has them
# (data/sweeps through the engine's reader; the engine's columns).
keys S C-u
keys -l -- "preset no-such-preset"
keys Enter
wait_for "sweep preset no-such-preset: unknown preset; accepted: seed000, .*seed004" 30
ok $? "a bad preset name: one line naming it and the presets there are"
keys S C-u
keys -l -- "burst 1,2 --columns LOCAL_SD,NO_SUCH_SELECTOR"
keys Enter
wait_for "option --columns NO_SUCH_SELECTOR: unknown output selector; accepted" 30
ok $? "a bad column name is refused as tunetop sweep refuses it"
keys t C-u
keys -l -- "-t TCP_RR -l 0.3"
keys Enter
wait_for "next run: -t TCP_RR -l 0.3" 20
keys S C-u
keys -l -- "burst 1,2 --columns LOCAL_SD"
keys Enter
wait_for "sweep burst done: 2 points" 100
screen | grep -q "sweep burst: 2 of 2 points; -c turned on"
ok $? "a CPU column turns -c on for the sweep's runs, and says so"
screen | grep -qE "│ burst=2 +[0-9]+\.[0-9]+ +[0-9]+\.[0-9]+ "
ok $? "so each point has its local service demand ($(screen | grep -oE "│ burst=2 +[^│]*" | tail -1))"
keys S C-u
keys -l -- "preset seed004"
keys Enter
wait_for "sweep burst \(preset seed004\): [0-8] of 8 points" 100
ok $? "S preset seed004 starts the preset's sweep, its table in the runs panel"
wait_for "sweep burst done: 8 points" 300
ok $? "and runs its 8 points"
screen | grep -qE "DATA_SEGS_ +DATA_SEGS_" && screen | grep -qE "Trans/s +OUT_PER_TRANS +IN_PER_TRANS"
ok $? "the table has the preset's column titles (DATA_SEGS_OUT/IN_PER_TRANS)"
missing=$(burst_rows_missing)
[ -z "$missing" ]
ok $? "every point shows its rate and a value in each column (missing:${missing:- none})"
# Issue 15: the stored sweep keeps its columns, so tunetop sweep show (and
# the report) have the same titles and values as the dashboard's table.
sid=$(last_sweep_id)
"$TUNETOP" sweep show "$sid" >"$TMP/ss" 2>&1
dash=$(screen | grep -oE "│ burst=256 +[0-9.]+ +[0-9.]+ +[0-9.]+" | tail -1 | tr -d '│' | awk '{print $2, $3, $4}')
cli=$(grep -E "^burst=256 " "$TMP/ss" | awk '{print $2, $3, $4}')
grep -qE "Trans/s +DATA_SEGS_OUT_PER_TRANS +DATA_SEGS_IN_PER_TRANS" "$TMP/ss" &&
	[ -n "$dash" ] && [ "$dash" = "$cli" ]
ok $? "tunetop sweep show $sid has the same columns and values (dashboard: $dash; sweep show: $cli)"

# Issue 15: --reverse in the dashboard as tunetop sweep does it (the engine's
# target_reverse): in its lab each run's client is side b, aimed at side a.
keys S C-u
keys -l -- "preset seed004-back"
keys Enter
wait_for "sweep [1-8]/8 burst=[0-9]+ reversed" 300
ok $? "S preset seed004-back runs: the header's progress says reversed"
wait_for "sweep burst done: 8 points" 600
ok $? "and runs its 8 points"
# The table keeps its title after the sweep (what the runs did follows it,
# cut where the panel ends; test-panels checks it whole).
screen | grep -qE "sweep burst \(preset seed004-back\) reversed: 8 of 8 point"
ok $? "the runs panel's table says reversed: $(screen | grep -oE "sweep burst \(preset seed004-back\)[^│]*" | head -1)"
sid=$(last_sweep_id)
r=$(python3 -c 'import sqlite3,sys
c=sqlite3.connect(sys.argv[1])
print(c.execute("SELECT count(*) FROM runs WHERE sweep_id=?", (int(sys.argv[2]),)).fetchone()[0], sorted(set(c.execute("SELECT json_extract(result, \"$.result.remote_addr\") LIKE \"198.18.0.1:%\", json_extract(result, \"$.knobs.local.side\"), json_extract(result, \"$.knobs.remote.side\"), json_extract(result, \"$.knobs.local.dev\"), json_extract(result, \"$.knobs.remote.dev\") FROM runs WHERE sweep_id=?", (int(sys.argv[2]),)).fetchall())))' "$TUNETOP_DB" "${sid:-0}")
[ "$r" = "8 [(1, 'lab-b', 'lab-a', 'veth-b', 'veth-a')]" ]
ok $? "its stored runs' client is side b, aimed at side a's 198.18.0.1, each end's knobs read on its own veth: $r"
missing=$(burst_rows_missing)
[ -z "$missing" ]
ok $? "every reversed point shows its rate and both DATA_SEGS columns (missing:${missing:- none})"
keys S C-u
keys -l -- "burst 1,2"
keys Enter
wait_for "sweep burst done: 2 points" 300
! screen | grep -q "sweep burst: 2 of 2 points.*reversed" && ! screen | grep -qE "sweep [0-9]/[0-9] .*reversed"
ok $? "the next sweep without --reverse is not reversed"

# Two crossed knobs, planned by the engine as tunetop sweep plans them; the
# table gets a column per knob.  Both knobs live in the dashboard's lab.
sa=$(ip netns exec "$lab-a" sysctl -n net.ipv4.tcp_sack)
tb=$(ip netns exec "$lab-b" sysctl -n net.ipv4.tcp_timestamps)
keys S C-u
keys -l -- "knob net.ipv4.tcp_sack=on,off remote:net.ipv4.tcp_timestamps=1,0"
keys Enter
wait_for "sweep [1-4]/4 tcp_sack=o[nf]+,remote:tcp_timestamps=[01]" 300
ok $? "S knob A=.. remote:B=.. starts the cross product: 4 points, named as tunetop sweep names them"
wait_for "sweep knob done: 4 points" 600
ok $? "and runs its 4 points"
screen | grep -qE "│ tcp_sack +remote:tcp_timestamps +Trans/s"
ok $? "the table has a column per knob"
rows=$(screen | grep -cE "│ o(n|ff) +[01] +[0-9]+\.[0-9]+ ")
[ "$rows" -eq 4 ] && screen | grep -qE "│ off +1 +[0-9]+\.[0-9]+ " && screen | grep -qE "│ on +0 +[0-9]+\.[0-9]+ "
ok $? "each point's two values under their knobs, with its rate ($rows rows)"
[ "$(ip netns exec "$lab-a" sysctl -n net.ipv4.tcp_sack)" = "$sa" ] &&
	[ "$(ip netns exec "$lab-b" sysctl -n net.ipv4.tcp_timestamps)" = "$tb" ]
ok $? "both knobs are put back on their sides ($sa, $tb)"
r=$(python3 -c "import sqlite3,sys; c=sqlite3.connect(sys.argv[1]); s=c.execute('select max(id) from sweeps').fetchone()[0]; print(' '.join(p for (p,) in c.execute('select point from runs where sweep_id=? order by id', (s,))))" "$TUNETOP_DB")
[ "$r" = "tcp_sack=on,remote:tcp_timestamps=1 tcp_sack=on,remote:tcp_timestamps=0 tcp_sack=off,remote:tcp_timestamps=1 tcp_sack=off,remote:tcp_timestamps=0" ]
ok $? "the history has each point, the first knob the outer loop: $r"
keys S C-u
keys -l -- "knob both:net.ipv4.tcp_sack=1 net.ipv4.tcp_timestamps=1"
keys Enter
wait_for "both:net.ipv4.tcp_sack sweeps one knob alone" 300
ok $? "both: beside a second knob is refused in one line, as tunetop sweep refuses it"

# Help, from the keymap.
keys '?'
wait_for "tunetop keys" 20 && screen | grep -q "focus the next panel" && screen | grep -q "Space toggle"
ok $? "? shows the keys, global and the panels' own"
keys Escape
# the panels again, under the last sweep's results (they stay until Esc)
wait_for "┌ (Rate|sweep [0-9]+ [a-z-]+:) " 20 && ! screen | grep -q "tunetop keys"
ok $? "any key closes the help"

# Resize small, then large.
T resize-window -t dash -x 60 -y 20
wait_for "needs at least 80x24; this terminal is 60x20" 30
ok $? "below 80x24 one line says what size is needed"
T resize-window -t dash -x 220 -y 70
wait_for "┌ Knobs " 30 && screen | grep -q "┌ Runs "
ok $? "made large again, the panels come back"

# Quit: the lab goes with its knobs, the terminal is as before.
keys q
for _ in $(seq 100); do [ -s "$TMP/stty" ] && break; sleep 0.1; done
grep -q "EXIT=0" "$TMP/exit" 2>/dev/null
ok $? "q quits with exit status 0 ($(cat "$TMP/exit" 2>/dev/null))"
grep -qE '(^| )icanon( |$)' "$TMP/stty" && grep -qE '(^| )echo( |$)' "$TMP/stty"
ok $? "the terminal is back in canonical mode with echo"
! screen | grep -q "┌ Rate "
ok $? "the screen is the one before (the alternate screen is left)"
! ip netns list | grep -q "^$lab-"
ok $? "the dashboard's lab is gone"
[ ! -s "$TMP/state/journal" ]
ok $? "no knob is left in the journal"
grep -qE 'AddressSanitizer|runtime error|LeakSanitizer' "$TMP/err"
[ $? -ne 0 ]
ok $? "nothing on stderr from the sanitizers"
[ -s "$TMP/err" ] && diag "$TMP/err"
T kill-session -t dash

# In a lab that outlives the dashboard, quit asks; the default puts knobs back.
name="ttdash-$$"
"$TUNETOP" lab up --name "$name" >/dev/null 2>&1
lab=$name
g0=$(gro_of b)
[ "$g0" = on ] && g1=off || g1=on
start dash "$TUNETOP --lab $name -l 1 2>$TMP/err4; echo EXIT=\$? >$TMP/exit4"
wait_for "run 1 done" 100
keys Tab Tab Tab Tab / g r o Enter Right Space
for _ in $(seq 50); do [ "$(gro_of b)" = "$g1" ] && break; sleep 0.1; done
keys q
wait_for "keep them\? \[y/N\]" 30
ok $? "with knobs changed in a lab that stays, q asks whether to keep them"
keys Enter
for _ in $(seq 100); do [ -s "$TMP/exit4" ] && break; sleep 0.1; done
[ "$(gro_of b)" = "$g0" ] && grep -q EXIT=0 "$TMP/exit4"
ok $? "the default answer puts them back (gro $g0 in $name-b)"
T kill-session -t dash
start dash "$TUNETOP --lab $name -l 1 2>$TMP/err5; echo EXIT=\$? >$TMP/exit5; sleep 5"
wait_for "run 1 done" 100
keys Tab Tab Tab Tab / g r o Enter Right Space
for _ in $(seq 50); do [ "$(gro_of b)" = "$g1" ] && break; sleep 0.1; done
keys q
wait_for "keep them" 30
keys y Enter
for _ in $(seq 100); do [ -s "$TMP/exit5" ] && break; sleep 0.1; done
[ "$(gro_of b)" = "$g1" ] && screen | grep -q "kept as changed"
ok $? "y keeps them, and says how to put them back"
"$TUNETOP" knobs restore >/dev/null 2>&1
[ "$(gro_of b)" = "$g0" ]
ok $? "tunetop knobs restore puts them back then"
T kill-session -t dash
# --capture=off is what the user gets, not the dashboard's auto.
start dash "$TUNETOP --lab $name --capture=off -l 1 2>$TMP/err6; echo EXIT=\$? >$TMP/exit6"
# (an ASan build on a busy machine may take a while to set its run up)
wait_for "run 1 (done|stopped|FAILED)" 300
wait_for "capture off" 50
seen=$?
ok $seen "--capture=off: the dashboard captures nothing and says so"
[ $seen -eq 0 ] || { screen >"$TMP/screen6"; diag "$TMP/screen6"; diag "$TMP/err6"; }
T kill-session -t dash
"$TUNETOP" lab down "$name" >/dev/null 2>&1

# --frames: headless runs end by themselves, cleanly (ASan/UBSan builds too).
start dash "$TUNETOP --frames 200 -l 3 2>$TMP/err2; echo EXIT=\$? >$TMP/exit2"
for _ in $(seq 300); do [ -s "$TMP/exit2" ] && break; sleep 0.1; done
grep -q "EXIT=0" "$TMP/exit2" 2>/dev/null
ok $? "--frames 200 quits by itself with status 0"
! grep -qE 'AddressSanitizer|runtime error|LeakSanitizer' "$TMP/err2"
ok $? "and clean under the sanitizers"
[ -s "$TMP/err2" ] && diag "$TMP/err2"
T kill-session -t dash

# A crash: the terminal is restored and tunetop restore removes the lab.
start dash "ASAN_OPTIONS=handle_segv=0:handle_abort=0 $TUNETOP -l 30 2>$TMP/err3; stty -a </dev/tty >$TMP/stty3"
wait_for "RUNNING" 300
lab=$(screen | sed -n 's/.*lab: \(tunetop-[0-9]*\) .*/\1/p' | head -1)
pid=${lab#tunetop-}
if [ -n "$pid" ]; then
	kill -SEGV "$pid"
else
	echo "# the dashboard did not show RUNNING and its lab within 30 s:"
	screen >"$TMP/screen3"; diag "$TMP/screen3"; diag "$TMP/err3"
fi
wait_file "$TMP/stty3"
grep -qE '(^| )icanon( |$)' "$TMP/stty3"
ok $? "after SIGSEGV the terminal is restored"
for _ in $(seq 100); do ip netns list | grep -q "^$lab-" || break; sleep 0.1; done
[ -n "$lab" ] && ! ip netns list | grep -q "^$lab-"
ok $? "and the crashed dashboard's lab is removed (tunetop restore ran)"
grep -q "crashed" "$TMP/err3"
ok $? "it says it crashed and what it restores"
[ -s "$TMP/err3" ] && diag "$TMP/err3"

# Without a terminal: one line, exit 2.
"$TUNETOP" -l 1 </dev/null >"$TMP/nt" 2>&1
[ $? -eq 2 ] && grep -q "needs a terminal" "$TMP/nt"
ok $? "without a terminal: exit 2 and one line pointing at tunetop run"

done_testing
