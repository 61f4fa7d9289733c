# SPDX-License-Identifier: GPL-2.0-or-later
# tmux-lib.sh - the dashboard under tmux for integration tests: a tmux
# server of the test's own, its screen and keys.  Sourced after lib.sh,
# with PANE naming the test's tmux session (dash, lay).
if ! command -v tmux >/dev/null 2>&1; then
	echo "not ok 1 - tmux is needed (Debian package tmux; quickstart installs it)"
	echo "1..1"
	exit 1
fi

S="tt$PANE-$$"
T() { tmux -L "$S" "$@"; }
trap 'T kill-server 2>/dev/null; cleanup' EXIT
# In UTF-8, whatever the test's own locale is.
export LANG=C.UTF-8 LC_ALL=C.UTF-8 TERM=xterm-256color

screen() { T capture-pane -p -t "$PANE" 2>/dev/null; }
keys() { T send-keys -t "$PANE" "$@"; }

# wait_for PATTERN [TENTHS]: until the screen shows PATTERN (grep -E).
wait_for() {
	for _ in $(seq "${2:-100}"); do
		screen | grep -qE -- "$1" && return 0
		sleep 0.1
	done
	return 1
}
