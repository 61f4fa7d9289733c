#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Many flows end on time: a -n 256 run of -l 2, stream and RR, in a lab of
# its own, ends within a generous bound of -l, every byte counted, its
# memory bounded (issue 17: 1024 streams once overran -l by minutes).
. "$(dirname "$0")/lib.sh"
need_root "runs in a lab of their own"
isolated_state

LEN=2
BOUND=6		# seconds past -l, for the whole command: setup, run, result
# Resident size: 64 MiB for the program, 128 KiB a flow at each end.
RSS_MAX=$((65536 + 256 * 2 * 128))
# Under AddressSanitizer (./quickstart test's second build) shadow memory,
# redzones and the free quarantine make the same run 3.3x larger (40 MB
# plain, 132 MB with ASan for -n 256 streams): the bound is the plain
# build's, so the ASan build is held to three times it.
if ldd "$TUNETOP" 2>/dev/null | grep -q libasan; then
	RSS_MAX=$((RSS_MAX * 3))
fi

# timed OUT CMD...: run CMD with stdout to OUT; prints "WALL MAXRSS_KB RC".
timed() {
	python3 - "$@" <<'PY'
import resource, subprocess, sys, time
t = time.monotonic()
with open(sys.argv[1], "w") as out:
    rc = subprocess.call(sys.argv[2:], stdout=out)
wall = time.monotonic() - t
print("%.2f %d %d" % (wall, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss, rc))
PY
}

for t in TCP_STREAM TCP_RR; do
	out="$TMP/$t.json"
	set -- $(timed "$out" "$TUNETOP" run --no-db -t "$t" -l "$LEN" --json -- -n 256 2>"$TMP/err")
	wall=$1 rss=$2 rc=$3
	ok "$rc" "$t -n 256 -l $LEN in a lab of its own exits 0"
	[ "$rc" -eq 0 ] || diag "$TMP/err"
	[ "$(jq_py "$out" 'j["counts_agree"]' 2>/dev/null)" = True ]
	ok $? "$t -n 256: both ends' counts agree"
	python3 -c "import sys; sys.exit(not float('$wall') <= $LEN + $BOUND)"
	ok $? "$t -n 256 -l $LEN: the command ended within $BOUND s of -l (took $wall s)"
	el=$(jq_py "$out" 'j["result"]["elapsed_time"]' 2>/dev/null)
	python3 -c "import sys; sys.exit(not $LEN <= float('${el:-nan}') <= $LEN + $BOUND)"
	ok $? "$t -n 256 -l $LEN: elapsed_time $el s is -l or a little more"
	[ "$rss" -le "$RSS_MAX" ]
	ok $? "$t -n 256: maximum resident size $rss KiB within $RSS_MAX KiB"
done

done_testing
