# SPDX-License-Identifier: GPL-2.0-or-later
# tmux.sh - the dashboard under tmux, for a test that sourced lib.sh: the
# tmux server "$S" (set before), the pane of session "dash".
# need_tmux: fail the test without tmux, UTF-8 and a known terminal else.
need_tmux() {
	if ! command -v tmux >/dev/null 2>&1; then
		echo "not ok 1 - tmux is needed (Debian package tmux; quickstart installs it)"
		echo "1..1"
		exit 1
	fi
	# In UTF-8, whatever the test's own locale is.
	export LANG=C.UTF-8 LC_ALL=C.UTF-8 TERM=xterm-256color
}

T() { tmux -L "$S" "$@"; }

screen() { T capture-pane -p -t dash 2>/dev/null; }

# wait_for PATTERN [TENTHS]: until the screen shows PATTERN (grep -E).
wait_for() {
	for _ in $(seq "${2:-100}"); do
		screen | grep -qE -- "$1" && return 0
		sleep 0.1
	done
	return 1
}

keys() { T send-keys -t dash "$@"; }
