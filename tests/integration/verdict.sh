#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# verdict.sh - the one verdict rule on real lab runs (docs/why.md, "The
# verdict"): identical runs are not called different, a real change is,
# with its sign; only like with like; runs check names differing options.
. "$(dirname "$0")/lib.sh"
need_root "the verdict's lab runs"
isolated_state

LAB="vd-$$"
S="ttverdict-$$"
T() { tmux -L "$S" "$@"; }
trap 'for z in 80x24 200x60; do tmux -L "ttverdict-$$-$z" kill-server 2>/dev/null; done
"$TUNETOP" lab down "$LAB" >/dev/null 2>&1; cleanup' EXIT
"$TUNETOP" lab up --name "$LAB" >"$TMP/up.out" 2>&1
ok $? "lab up $LAB"

# run TEST [TEST OPTIONS...]: one short lab run, its id on stdout
run() {
	tt=$1
	shift
	"$TUNETOP" run --lab "$LAB" -l 0.5 -P 0 -t "$tt" -- -o THROUGHPUT "$@" >/dev/null 2>"$TMP/run.err"
	sed -n 's/^Stored as run \([0-9]*\)$/\1/p' "$TMP/run.err"
}

# Ten identical runs of each test; each neighbour pair judged by runs diff
# and runs check: at most 1 of the 18 pairs called different.
called=0
pairs=0
for t in TCP_RR TCP_STREAM; do
	prev=
	for _ in 1 2 3 4 5 6 7 8 9 10; do
		id=$(run "$t")
		[ -n "$id" ] || continue
		[ "$t" = TCP_RR ] && [ -z "${rr1:-}" ] && rr1=$id
		[ "$t" = TCP_STREAM ] && [ -z "${st1:-}" ] && st1=$id
		if [ -n "$prev" ]; then
			pairs=$((pairs + 1))
			"$TUNETOP" runs diff "$prev" "$id" >"$TMP/d" 2>&1
			grep -qE "^Throughput A -> B: .*: (WORSE|BETTER) " "$TMP/d" && called=$((called + 1)) &&
				grep "^Throughput" "$TMP/d" | sed 's/^/# /'
			"$TUNETOP" runs check "$id" --against "$prev" >"$TMP/c" 2>&1
			[ $? -eq 1 ] && called=$((called + 1)) && sed 's/^/# /' "$TMP/c"
		fi
		prev=$id
	done
done
[ "$pairs" -eq 18 ] && [ $((called * 20)) -le $((pairs * 2)) ]
ok $? "identical runs: $called calls of different in $pairs pairs (diff and check each), at most 1 in 20"

# the newest run of each test has its 9 others as history: "~", measured
"$TUNETOP" runs diff "$st1" "$prev" >"$TMP/d" 2>&1
grep -qE "^  (within|beyond) the noise of 1[0-9] runs of this setup$" "$TMP/d"
ok $? "with ten runs of the setup the noise comes from its history: $(sed -n 's/^  \(.*runs of this setup\)$/\1/p' "$TMP/d")"

# -S 8K on the stream: WORSE, and runs check against the baseline of the
# test and target names the option that differs rather than failing.
"$TUNETOP" runs baseline "$st1" >/dev/null 2>&1
small=$(run TCP_STREAM -S 8K)
"$TUNETOP" runs diff "$st1" "$small" >"$TMP/d" 2>&1
grep -qE "^Throughput A -> B: .*: (WORSE|~|can't tell) -[0-9.]+ %" "$TMP/d"
ok $? "-S 8K on a stream: lower, never BETTER (WORSE beyond this host's noise): $(grep '^Throughput' "$TMP/d")"
"$TUNETOP" runs check "$small" --against baseline >"$TMP/c" 2>&1
rc=$?
grep -q "^Run $small against run $st1 " "$TMP/c" &&
	grep -q "^  Test options that differ: -S send auto -> 8192, -S receive auto -> 8192$" "$TMP/c" &&
	{ { [ $rc -eq 1 ] && grep -q "^  throughput .* WORSE " "$TMP/c" && grep -q "^REGRESSION" "$TMP/c"; } ||
	  { [ $rc -eq 0 ] && ! grep -q "^  throughput .* WORSE " "$TMP/c" && grep -q "^ok: " "$TMP/c"; }; }
ok $? "runs check --against baseline takes the baseline of its test and target, names -S, exits by its verdict (exit $rc)"
[ $rc -le 1 ] || diag "$TMP/c"
thr=$("$TUNETOP" runs list --json | python3 -c "import json,sys; print('%.6g' % [r for r in json.load(sys.stdin) if r['id'] == $small][0]['throughput'])")
grep -qE "^  throughput .* -> $thr " "$TMP/c"
ok $? "runs check prints the figure runs list shows ($thr)"

# -b 7 on the RR: more transactions in flight, BETTER
burst=$(run TCP_RR -b 7)
"$TUNETOP" runs diff "$rr1" "$burst" >"$TMP/d" 2>&1
# not a check: on a loaded 2-CPU guest -b 7 came out from -19 % to +207 %
# against one plain run (docs/why.md); the A/B is what tells it there
echo "# -b 7 on an RR: $(grep '^Throughput' "$TMP/d")"

# a tbf of 100 Mbit/s on the lab: far beyond any noise, WORSE
"$TUNETOP" knobs set --side lab-a --lab "$LAB" lab-rate=100mbit >/dev/null 2>&1
slow=$(run TCP_STREAM)
"$TUNETOP" runs diff "$st1" "$slow" >"$TMP/d" 2>&1
grep -qE "^Throughput A -> B: .*: WORSE -9[0-9.]+ %" "$TMP/d"
ok $? "a 100 Mbit/s tbf on a stream is WORSE: $(grep '^Throughput' "$TMP/d")"
"$TUNETOP" runs check "$slow" --against "$st1" >"$TMP/c" 2>&1
[ $? -eq 1 ] && grep -q "REGRESSION" "$TMP/c"
ok $? "and runs check says REGRESSION (exit 1)"
"$TUNETOP" knobs restore >/dev/null 2>&1

# like with like: a stream is not judged against an RR
"$TUNETOP" runs diff "$rr1" "$st1" >"$TMP/d" 2>&1
grep -q "not compared: TCP_STREAM (10^6bits/s) against TCP_RR (Trans/s), not like with like" "$TMP/d" &&
	grep -qE "^Throughput A -> B: .*: can't tell$" "$TMP/d"
ok $? "runs diff of a stream against an RR: not compared"
"$TUNETOP" runs check "$st1" --against "$rr1" >"$TMP/c" 2>&1
rc=$?
[ $rc -eq 2 ] && grep -q "not like with like" "$TMP/c"
ok $? "runs check of a stream against an RR is refused (exit $rc)"

# Why nothing moved: the receiver's GRO flipped while the sender keeps TSO
# and GSO on (as the lab starts): its whole segments arrive, GRO has
# nothing to merge, runs diff says so and what makes GRO act.
for g in off on; do
	"$TUNETOP" run --lab "$LAB" -t TCP_STREAM -l 0.5 -P 0 --capture --set tso=on --set gso=on \
		--set remote:gro=$g -- -o THROUGHPUT >/dev/null 2>"$TMP/gro-$g.err"
done
off=$(sed -n 's/^Stored as run \([0-9]*\)$/\1/p' "$TMP/gro-off.err")
on=$(sed -n 's/^Stored as run \([0-9]*\)$/\1/p' "$TMP/gro-on.err")
"$TUNETOP" runs diff "$off" "$on" >"$TMP/d" 2>&1
grep -qE "^Note: remote gro off -> on cannot act: local sends TSO/GSO segments, they arrive whole over the veth \([0-9]+ B, MSS [0-9]+\) and GRO has nothing to merge; tso=off gso=off on local lets GRO act$" "$TMP/d"
st=$?
ok $st "a GRO flip behind the sender's TSO/GSO: runs diff says why it cannot act"
[ $st -eq 0 ] || grep "^Note" "$TMP/d" | sed 's/^/# /'

# The dashboard at 80x24 and 200x60: the header's verdict and the runs
# panel's why line are whole, never cut at the panel edge.
if command -v tmux >/dev/null 2>&1; then
	export LANG=C.UTF-8 LC_ALL=C.UTF-8 TERM=xterm-256color
	for size in 80x24 200x60; do
		S="ttverdict-$$-$size"	# a server each: a new one is up at once
		T new-session -d -s v -x "${size%x*}" -y "${size#*x}" \
			"$TUNETOP --lab $LAB -l 0.5 2>$TMP/dash.err; sleep 60"
		# runs are named by their history ids: the second one is id1 + 1
		id1= id2=
		for _ in $(seq 150); do
			T capture-pane -p -t v >"$TMP/scr" 2>/dev/null
			if [ -z "$id1" ]; then
				id1=$(grep -oE "run [0-9]+ done" "$TMP/scr" | head -1 | grep -oE "[0-9]+")
				[ -n "$id1" ] && id2=$((id1 + 1)) && T send-keys -t v r
			fi
			[ -n "$id2" ] && grep -q "run $id2 done" "$TMP/scr" && break
			sleep 0.2
		done
		sleep 0.5	# the frame after the run's end has its verdict
		T capture-pane -p -t v >"$TMP/scr"
		head="$(grep -m1 -E "(vs|baseline) run h?[0-9]+:" "$TMP/scr")"
		for _ in 1 2 3 4 5 6; do
			grep -q "why $id2 vs $id1:" "$TMP/scr" && break
			T send-keys -t v Tab
			sleep 0.5
			T capture-pane -p -t v >"$TMP/scr"
		done
		echo "$head" | grep -qE "run h?[0-9]+: [0-9.]+[kMG]?( (WORSE|BETTER|~|can't tell)( [-+][0-9.]+ %( \(noise [-+][0-9.]+\.\.[-+][0-9.]+ %\))?)?)? *│" &&
			! echo "$head" | grep -qE "run h?[0-9]+: [0-9.]+[kMG]? (WORSE|BETTER|~|can't tell) [-+][0-9.]*│"
		ok $? "$size: the header's verdict is whole: $(echo "$head" | grep -oE 'run h?[0-9]+: [^│]*')"
		[ -n "$head" ] || sed -n '1,4s/^/# /p' "$TMP/scr"
		why="$(grep -o "why $id2 vs $id1: [^│]*" "$TMP/scr" | head -1)"
		echo "$why" | grep -qE "^why $id2 vs $id1: (WORSE|BETTER|~|can't tell)( [-+][0-9.]+ %( \(noise [-+][0-9.]+\.\.[-+][0-9.]+ %\)(, rate [0-9.]+[kMG]? -> [0-9.]+[kMG]?(: [^│]*[a-z)])?)?)?)? *$"
		ok $? "$size: the runs panel's why line is whole parts: $why"
		T kill-server 2>/dev/null
	done
else
	ok 1 "tmux is needed for the dashboard's part (Debian package tmux)"
fi

done_testing
