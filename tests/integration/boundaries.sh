#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The layer boundaries of docs/HACKING.md: the engine neither includes curses nor
# prints nor exits (only main()s decide to quit); the CLI and the UI reach
# it through engine.h alone; no two files use each other, even around a loop.
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

# The UI: curses only in ui/term.c; no socket, pcap or netlink call (but
# ui/main.c, tunetop's main, hands `tunetop pcap` to the CLI).
! grep -nE '^#include <(ncurses|curses)' ui/*.c ui/*.h | grep -v '^ui/term.c:' >"$TMP/uc"
ok $? "only ui/term.c includes curses"
[ -s "$TMP/uc" ] && diag "$TMP/uc"
! grep -nE '\b(socket|connect|bind|setsockopt|sendto|recvfrom|pcap_[a-z_]+|nl_(socket|connect|send|recv|msg|cache)[a-z_]*|genl_[a-z_]+|rtnl_[a-z_]+)\s*\(' $(ls ui/*.c | grep -v '^ui/main.c$') >"$TMP/un"
ok $? "the UI makes no socket, pcap or netlink call"
[ -s "$TMP/un" ] && diag "$TMP/un"

# includes DIR FILE...: each quoted include of the files that is neither
# the directory's own header nor config.h nor engine.h, as "file: header".
includes() {
	d=$1
	shift
	grep -H '^#include "' "$@" | sed 's/:#include "\(.*\)".*/ \1/' |
		while read -r f h; do
			[ -e "$d/$h" ] || case $h in config.h|engine.h) ;; *) echo "$f: $h" ;; esac
		done
}
# The engine's public header is engine.h: the CLI and the dashboard include
# nothing else of it, and neither includes the other.  ui/main.c is
# tunetop's main(), the layer above both: it may include the CLI's headers.
includes src/cli src/cli/*.c src/cli/*.h >"$TMP/ci"
[ ! -s "$TMP/ci" ]
ok $? "the CLI includes from the engine only engine.h, and nothing of ui/"
[ -s "$TMP/ci" ] && diag "$TMP/ci"
includes ui $(ls ui/*.c ui/*.h | grep -v '^ui/main.c$') >"$TMP/ui"
[ ! -s "$TMP/ui" ]
ok $? "the UI includes from the engine only engine.h, and nothing of src/cli"
[ -s "$TMP/ui" ] && diag "$TMP/ui"
includes ui ui/main.c | while read -r f h; do [ -e "src/cli/$h" ] || echo "$f $h"; done >"$TMP/um"
[ ! -s "$TMP/um" ]
ok $? "ui/main.c includes from the engine only engine.h"
[ -s "$TMP/um" ] && diag "$TMP/um"

# Any include of a CLI header by the dashboard, by name, quoted or in angle
# brackets, with or without a path (ui/main.c, tunetop's main, dispatches).
cli_h=$(cd src/cli && ls *.h | sed 's/\./[.]/g' | paste -sd'|')
grep -nE "^#[[:space:]]*include[[:space:]]*[<\"]([^>\"]*/)?($cli_h)[>\"]" \
	$(ls ui/*.c ui/*.h | grep -v '^ui/main.c$') >"$TMP/uh"
[ ! -s "$TMP/uh" ]
ok $? "no file of ui/ but ui/main.c includes a header of src/cli"
[ -s "$TMP/uh" ] && diag "$TMP/uh"

# The layers by nm (tests/integration/layers.py): the engine takes no
# symbol of the CLI or ui/, the dashboard none of the CLI, and ui/main.c
# from the CLI only the subcommands' mains (and the help of the options).
python3 "$top_srcdir/tests/integration/layers.py" "$top_srcdir" "$top_builddir" >"$TMP/ly"
ok $? "the engine uses nothing of src/cli or ui/, ui/ nothing of src/cli but to dispatch (nm)"
diag "$TMP/ly"

# No cycle between files (docs/HACKING.md): from nm on the built objects, file A
# uses file B when A's object takes a symbol B's object defines.
python3 "$top_srcdir/tests/integration/cycles.py" "$top_srcdir" "$top_builddir" >"$TMP/cy"
ok $? "no cycle between files (nm on the objects)"
diag "$TMP/cy"

for f in $(ls src/*.h src/*/*.c src/*/*.h src/cli/*.c src/cli/*.h ui/*.c ui/*.h tests/unit/*.c); do
	head -1 "$f" | grep -q SPDX-License-Identifier || echo "$f"
done >"$TMP/s"
[ ! -s "$TMP/s" ]
ok $? "every source file opens with an SPDX line"
[ -s "$TMP/s" ] && diag "$TMP/s"

done_testing
