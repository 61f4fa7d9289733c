# SPDX-License-Identifier: GPL-2.0-or-later
# lib.sh - TAP output, binaries and a tunetopd of the test's own, for integration tests.
: "${top_builddir:=$(pwd)}"
: "${top_srcdir:=$(cd "$(dirname "$0")/../.." && pwd)}"
TUNETOP="$top_builddir/tunetop"
TUNETOPD="$top_builddir/tunetopd"
TMP=$(mktemp -d "${TMPDIR:-/tmp}/tunetop-test.XXXXXX")
tap_n=0
tap_failed=0
PIDS=""

cleanup() {
	for p in $PIDS; do
		kill "$p" 2>/dev/null || true
	done
	for p in $PIDS; do
		wait "$p" 2>/dev/null || true
	done
	rm -rf "$TMP"
}
trap cleanup EXIT
# Runs go to a history database of the test's own, never the user's.
TUNETOP_DB="$TMP/runs.db"
export TUNETOP_DB

# ok COND_STATUS DESCRIPTION: one TAP line from the last command's status;
# returns 0 for ok and 1 for not ok, so "ok $? ...; [ $? -eq 0 ] || diag
# FILE" shows what went wrong.
ok() {
	tap_n=$((tap_n + 1))
	if [ "$1" -eq 0 ]; then
		echo "ok $tap_n - $2"
		return 0
	fi
	echo "not ok $tap_n - $2"
	tap_failed=$((tap_failed + 1))
	return 1
}

# diag FILE: show a file as TAP comments.
diag() {
	sed 's/^/# /' "$1"
}

# need_root WHAT: without root, skip the whole test -- or fail it in CI,
# which runs as root, so a privileged test never passes by skipping.
need_root() {
	[ "$(id -u)" -eq 0 ] && return 0
	if [ "${CI:-}" = true ]; then
		echo "not ok 1 - $1 need root, and CI runs as root"
		echo "1..1"
		exit 1
	fi
	echo "1..0 # SKIP not root"
	exit 0
}

# isolated_state: a knob journal of this test's own, never the user's.
isolated_state() {
	TUNETOP_STATE_DIR="$TMP/state"
	export TUNETOP_STATE_DIR
}

done_testing() {
	echo "1..$tap_n"
	[ "$tap_failed" -eq 0 ]
}

# wait_file FILE [TENTHS]: until FILE is not empty (30 s by default: a helper
# process on a CI machine running two test scripts at once, or under ASan,
# may take seconds to start).  0 when it is there.
wait_file() {
	for _ in $(seq "${2:-300}"); do
		[ -s "$1" ] && return 0
		sleep 0.1
	done
	return 1
}

# free_port: a TCP port nobody listens on right now.
free_port() {
	python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'
}

# wait_listening LOG [PORT] [TENTHS]: until the tunetopd logging to LOG says
# it listens (on PORT if given; 30 s by default, as wait_file).  0 when so;
# otherwise "# tunetopd did not start" and its log, and 1.
wait_listening() {
	for _ in $(seq "${3:-300}"); do
		grep -q "listening on .* port ${2:-}" "$1" 2>/dev/null && return 0
		sleep 0.1
	done
	echo "# tunetopd did not start"; diag "$1"
	return 1
}

# start_daemon [ARGS...]: tunetopd in the foreground on a free port; sets
# PORT and DPID, log in $TMP/tunetopd.log.
start_daemon() {
	PORT=$(free_port)
	"$TUNETOPD" -f -p "$PORT" "$@" >>"$TMP/tunetopd.log" 2>&1 &
	DPID=$!
	PIDS="$PIDS $DPID"
	wait_listening "$TMP/tunetopd.log" "$PORT"
}

# jq_py FILE EXPR: evaluate a Python expression on the JSON document j.
jq_py() {
	python3 -c 'import json,sys; j=json.load(open(sys.argv[1])); print(eval(sys.argv[2]))' "$1" "$2"
}
