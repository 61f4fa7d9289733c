#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The layer boundaries of STYLE.md: the engine neither includes curses nor
# prints nor exits; only main()s decide to quit.
. "$(dirname "$0")/lib.sh"
cd "$top_srcdir" || exit 1
engine=$(ls src/*/*.c | grep -v '^src/cli/' | grep -v 'src/daemon/tunetopd.c')

! grep -n 'curses' $engine $(ls src/*.h src/*/*.h | grep -v '^src/cli/') >"$TMP/c"
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

# The UI: curses only in ui/term.c; no socket, pcap or netlink call; from
# the engine only engine.h (and util.h for term.c's errors), from the CLI
# its options.
! grep -nE '^#include <(ncurses|curses)' ui/*.c ui/*.h | grep -v '^ui/term.c:' >"$TMP/uc"
ok $? "only ui/term.c includes curses"
[ -s "$TMP/uc" ] && diag "$TMP/uc"
! grep -nE '\b(socket|connect|bind|setsockopt|sendto|recvfrom|pcap_[a-z_]+|nl_(socket|connect|send|recv|msg|cache)[a-z_]*|genl_[a-z_]+|rtnl_[a-z_]+)\s*\(' ui/*.c >"$TMP/un"
ok $? "the UI makes no socket, pcap or netlink call"
[ -s "$TMP/un" ] && diag "$TMP/un"
grep -h '^#include "' ui/*.c ui/*.h | sed 's/#include "\(.*\)"/\1/' | sort -u | while read -r h; do
	[ -e "ui/$h" ] || case $h in config.h|engine.h|core/util.h|options.h|run.h) ;; *) echo "$h" ;; esac
done >"$TMP/ui"
[ ! -s "$TMP/ui" ]
ok $? "the UI includes from the engine only engine.h (and util.h), from the CLI only options.h and run.h"
[ -s "$TMP/ui" ] && diag "$TMP/ui"

for f in $(ls src/*.h src/*/*.c src/*/*.h src/cli/*.c src/cli/*.h ui/*.c ui/*.h tests/unit/*.c); do
	head -1 "$f" | grep -q SPDX-License-Identifier || echo "$f"
done >"$TMP/s"
[ ! -s "$TMP/s" ]
ok $? "every source file opens with an SPDX line"
[ -s "$TMP/s" ] && diag "$TMP/s"

done_testing
