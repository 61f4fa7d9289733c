#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The layer boundaries of STYLE.md: the engine neither includes curses nor
# prints nor exits; only main()s decide to quit.
. "$(dirname "$0")/lib.sh"
cd "$top_srcdir" || exit 1
engine=$(ls src/*.c | grep -v 'src/tunetopd.c')

! grep -n 'curses' $engine src/*.h >"$TMP/c"
ok $? "no curses in the engine"
[ -s "$TMP/c" ] && diag "$TMP/c"

! grep -nE '\b(exit|abort|_exit)\s*\(' $engine >"$TMP/e"
ok $? "the engine never calls exit() or abort()"
[ -s "$TMP/e" ] && diag "$TMP/e"

! grep -nE '\b(printf|puts|perror)\s*\(|\bstderr\b|\bstdout\b' $engine >"$TMP/p"
ok $? "the engine never prints to the terminal"
[ -s "$TMP/p" ] && diag "$TMP/p"

! grep -nE '^#include <(ncurses|curses|pcap|netlink)' src/cli/*.c src/cli/*.h >"$TMP/u"
ok $? "the CLI includes no curses, pcap or netlink header"

for f in $(ls src/*.c src/*.h src/cli/*.c src/cli/*.h tests/unit/*.c); do
	head -1 "$f" | grep -q SPDX-License-Identifier || echo "$f"
done >"$TMP/s"
[ ! -s "$TMP/s" ]
ok $? "every source file opens with an SPDX line"
[ -s "$TMP/s" ] && diag "$TMP/s"

done_testing
