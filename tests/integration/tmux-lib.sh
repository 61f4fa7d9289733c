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

# cut_words: the lines of the screen holding a word cut at a panel's edge.
# A panel's text is cut after a whole word with an ellipsis
# (docs/HACKING.md, "Conventions"), so a word right against the right
# border is either whole and fitting exactly, or cut there: it is taken
# as whole only when the widest layout (200x60, checked first) shows it
# with room after it ($TMP/words).  A time axis's last label ("10s│")
# ends at the border by design.
cut_words() {
	screen >"$TMP/screen"
	python3 - "$TMP/screen" "$TMP/words" <<'PY'
import re, sys
words = set(open(sys.argv[2]).read().split()) if len(sys.argv) > 2 else set()
for n, line in enumerate(open(sys.argv[1]), 1):
    for m in re.finditer(r"([^\s│┤┌┐└┘─]*[A-Za-z0-9])│", line):
        w = m.group(1)
        if re.fullmatch(r"[0-9.]+s", w) or w in words:
            continue
        print("%d: %r cut? %s" % (n, w, line.rstrip()))
PY
}

# seen_words: the words of the screen with room after them, for cut_words.
seen_words() {
	screen | python3 -c '
import re, sys
for line in sys.stdin:
    for m in re.finditer(r"([^\s│]+) ", line):
        print(m.group(1))' >>"$TMP/words"
}
