#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The fuzz targets (tests/fuzz): each replays its seed corpus and then runs
# mutated inputs for a bounded time ($FUZZ_SECONDS, default 10) from a
# fixed seed ($FUZZ_SEED, default 1).  A crash, a hang or a sanitizer
# report fails the test; the input is kept beside the target
# (tests/fuzz/crash-*) to replay: tests/fuzz/fuzz-TARGET -runs=0 FILE.
# Under the ASan/UBSan build of ./quickstart test this is the CI fuzz step.
. "$(dirname "$0")/lib.sh"

secs=${FUZZ_SECONDS:-10}
seed=${FUZZ_SEED:-1}
keep="$top_builddir/tests/fuzz"
for t in msg pcap catalog; do
	mkdir -p "$TMP/new-$t"
	# The first directory takes what libFuzzer finds (the driver only reads it).
	FUZZ_CRASH_DIR="$keep" timeout $((secs * 3 + 60)) \
		"$keep/fuzz-$t" -max_total_time="$secs" -seed="$seed" -timeout=10 \
		-artifact_prefix="$keep/crash-$t-" \
		"$TMP/new-$t" "$top_srcdir/tests/fuzz/corpus/$t" >"$TMP/$t.out" 2>&1
	rc=$?
	runs=$(sed -n 's/.* \([0-9]*\) mutated runs in .*/\1/p; s/^Done \([0-9]*\) runs in .*/\1/p' "$TMP/$t.out")
	[ $rc -eq 0 ] && [ "${runs:-0}" -gt 0 ]
	ok $? "fuzz-$t: ${runs:-no} runs in $secs s, no crash and no sanitizer report (exit $rc)"
	[ $rc -eq 0 ] || tail -40 "$TMP/$t.out" | diag /dev/stdin
done

done_testing
