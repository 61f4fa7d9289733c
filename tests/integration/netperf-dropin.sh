#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# tunetop in netperf mode against netperf 2.7.1's own output for the
# command lines a drop-in must take (tests/data/netperf/dropin: NAME.cmd,
# NAME.stdout, NAME.stderr as netperf wrote them, copied from
# shared/netperf-outputs/dropin): each command line runs as `netperf`
# against a tunetopd of the test's own, and stdout's layout (numbers
# masked, -D's interim lines counted, not their number compared) and the
# exit code are netperf's.  Cases tunetop does not do yet are TAP TODO,
# each with what is missing (docs/netperf.md).
. "$(dirname "$0")/lib.sh"

G="$top_srcdir/tests/data/netperf/dropin"
mkdir -p "$TMP/compat"
ln -s "$TUNETOP" "$TMP/compat/netperf"
start_daemon || { done_testing; exit 1; }

# What is missing for a case, or nothing (docs/netperf.md says each).
todo() {
	case $1 in
	*-lneg) echo "-l -N (a transaction or byte count) is refused" ;;
	*-v2) echo "-v 2 (netperf's verbose tables) is refused" ;;
	esac
}

for cmd in "$G"/*.cmd; do
	name=$(basename "$cmd" .cmd)
	if [ "$name" = bad-len ]; then
		# netperf takes "-l abc" as 0 s and runs for ever (its exit 124
		# is timeout's); tunetop refuses it in one line, exit 1.
		"$TMP/compat/netperf" -p "$PORT" -H 127.0.0.1 -t TCP_RR -l abc >"$TMP/$name.out" 2>"$TMP/$name.err"
		rc=$?
		[ $rc -eq 1 ] && [ ! -s "$TMP/$name.out" ] && [ "$(wc -l <"$TMP/$name.err")" -eq 1 ]
		ok $? "bad-len: -l abc is refused in one line, exit 1 (netperf hangs: differs on purpose)"
		continue
	fi
	args=$(sed -n '1s/^\$ netperf //p' "$cmd")
	want=$(sed -n '2s/^exit //p' "$cmd")
	# shellcheck disable=SC2086
	timeout 60 "$TMP/compat/netperf" -p "$PORT" $args >"$TMP/$name.out" 2>"$TMP/$name.err"
	rc=$?
	python3 - "$G/$name.stdout" "$TMP/$name.out" >"$TMP/$name.cmp" 2>&1 <<'PY'
import re, sys
# A number is N (N.N with decimals), a run of blanks one blank: the
# columns' widths follow the figures, netperf-format.sh checks them.
NUM = re.compile(r"\d+(\.\d+)?")
def norm(l):
    return re.sub(r" +", " ", NUM.sub(lambda m: "N.N" if m.group(1) else "N", l))
INTERIM = re.compile(r"^(Interim result: |NETPERF_(INTERIM_RESULT|UNITS|INTERVAL|ENDING)\[)|^N.N,[^,]+,N.N,N.N$")
def shape(path):
    lines = [norm(l) for l in open(path).read().split("\n")]
    interim = [l for l in lines if INTERIM.search(l)]
    return [l for l in lines if not INTERIM.search(l)], bool(interim)
theirs, mine = shape(sys.argv[1]), shape(sys.argv[2])
assert theirs[1] == mine[1], "interim lines: netperf %s, tunetop %s" % (theirs[1], mine[1])
assert theirs[0] == mine[0], "\n".join("%r" % (l,) for l in ["netperf:"] + theirs[0] + ["tunetop:"] + mine[0])
PY
	c=$?
	t=$(todo "$name")
	[ $c -eq 0 ] && [ "$rc" = "$want" ]
	r=$?
	if [ -n "$t" ]; then
		ok_todo=$( [ $r -eq 0 ] && echo ok || echo "not ok")
		tap_n=$((tap_n + 1))
		echo "$ok_todo $tap_n - $name: netperf's layout and exit $want (exit $rc) # TODO $t"
		continue
	fi
	ok $r "$name: netperf's stdout layout and exit $want (exit $rc)"
	[ $r -eq 0 ] || { diag "$TMP/$name.cmp"; diag "$TMP/$name.err"; }
done

done_testing
