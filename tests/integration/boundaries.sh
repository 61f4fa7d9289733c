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

# --- folder order, include paths, recipes (docs/HACKING.md; issue 26 §4) ---
# Folder arrows follow HACKING.md's folder order, by nm on the objects.
python3 "$top_srcdir/tests/integration/folders.py" "$top_srcdir" "$top_builddir" >"$TMP/fo"
ok $? "arrows between folders follow HACKING.md's folder order (nm on the objects)"
diag "$TMP/fo"

# No include reaches around the rules above: "../session/session.h" from
# src/cli would name an engine header, as would <session/session.h>
# through -I src; an include path has no "..", and an angle-bracket
# include names no header of the tree (src/, src/cli, ui/).
tree_h=$(cd src && ls *.h */*.h; cd ../ui && ls *.h)
! grep -nE '^[[:space:]]*#[[:space:]]*include[[:space:]]*["<][^">]*\.\.' \
	src/*.h src/*/*.c src/*/*.h ui/*.c ui/*.h >"$TMP/rel"
ok $? "no include path climbs with .."
[ -s "$TMP/rel" ] && diag "$TMP/rel"
grep -nE '^[[:space:]]*#[[:space:]]*include[[:space:]]*<' src/*.h src/*/*.c src/*/*.h ui/*.c ui/*.h |
	sed 's/^\([^:]*:[0-9]*\):.*<\([^>]*\)>.*/\1 \2/' |
	while read -r at h; do
		for t in $tree_h; do
			[ "$h" = "$t" ] && echo "$at <$h> is a header of the tree"
		done
	done >"$TMP/ang"
[ ! -s "$TMP/ang" ]
ok $? "no angle-bracket include names a header of the tree"
[ -s "$TMP/ang" ] && diag "$TMP/ang"
# The engine includes nothing of the front ends, quoted or not.
! grep -nE '^[[:space:]]*#[[:space:]]*include[[:space:]]*["<](cli|ui)/' $engine \
	$(ls src/*.h src/*/*.h | grep -v '^src/cli/') >"$TMP/ef"
ok $? "the engine includes no header of src/cli or ui/"
[ -s "$TMP/ef" ] && diag "$TMP/ef"

# engine.h is the public face: not the server end, the flows' workers,
# the sampler and its /proc readers, live capture, netlink or the wire.
! grep -nE '^#include "(daemon/|flows/|sample/(sampler|cpustat|irqstat)\.h|capture/capture\.h|core/netlink\.h|proto/wire\.h|[a-z]+/[a-z-]*internal\.h)' \
	src/engine.h >"$TMP/eh"
ok $? "engine.h includes none of the engine's own parts"
[ -s "$TMP/eh" ] && diag "$TMP/eh"

# HACKING's recipes name every file that knows a knob kind or a test type
# by its constant: a case on one, or a test for one, elsewhere would be a
# step the recipe does not say.  (The tables of knob.c, backend.c,
# params.c and worker.c name them with [X] =, which is not matched.)
# Besides: sysctl.c is the sysctl and sysfs backends' own file; catalog.c
# takes a sysctl's name written with '/' (catalog_find).  Read-only knobs
# are asked of the backend (knobs_read_only), never tested by kind.
kinds='KNOB_(SYSCTL|COALESCE|FEATURE|RING|CHANNEL|LINK|SYSFS|QDISC|LINKINFO)\b'
grep -nE "(case|[!=]=)[[:space:]]*$kinds" src/*/*.c src/*/*.h ui/*.c ui/*.h |
	grep -vE '^src/knobs/(sysctl|catalog)\.c:' >"$TMP/kk"
[ ! -s "$TMP/kk" ]
ok $? "only the files the knob-kind recipe names test for a kind"
[ -s "$TMP/kk" ] && diag "$TMP/kk"
types='TEST_(TCP_RR|TCP_CRR|TCP_STREAM|TCP_MAERTS|UDP_RR|UDP_STREAM)\b'
grep -nE "(case|[!=]=)[[:space:]]*$types" src/*/*.c src/*/*.h ui/*.c ui/*.h |
	grep -vE '^src/(core/params\.[ch]|flows/[a-z-]+\.c|cli/output\.c|proto/netserver\.c|session/why\.c):' >"$TMP/tt"
[ ! -s "$TMP/tt" ]
ok $? "only the files the test-type recipe names test for a type"
[ -s "$TMP/tt" ] && diag "$TMP/tt"
# HACKING's worked examples (one per recipe) still say what the code has:
# each "FILE | TEXT" line of a ```worked block is in FILE, blanks folded.
python3 - docs/HACKING.md >"$TMP/we" <<'EOF'
import re, sys
doc = open(sys.argv[1]).read()
blocks = re.findall(r"^```worked\n(.*?)^```", doc, re.S | re.M)
fold = lambda t: re.sub(r"\s+", " ", t).strip()
bad = n = 0
for b in blocks:
    for line in b.splitlines():
        path, _, text = line.partition(" | ")
        n += 1
        try:
            body = fold(open(path).read())
        except OSError as e:
            print("%s: %s" % (path, e.strerror)); bad += 1; continue
        if fold(text) not in body:
            print("%s has no longer: %s" % (path, text)); bad += 1
print("%d worked examples, %d lines, %d not in the code" % (len(blocks), n, bad))
sys.exit(1 if bad or len(blocks) < 4 else 0)
EOF
ok $? "HACKING's worked examples of the four recipes match the code: $(tail -1 "$TMP/we")"
diag "$TMP/we"
# --- end of folder order, include paths, recipes ---

for f in $(ls src/*.h src/*/*.c src/*/*.h src/cli/*.c src/cli/*.h ui/*.c ui/*.h tests/unit/*.c); do
	head -1 "$f" | grep -q SPDX-License-Identifier || echo "$f"
done >"$TMP/s"
[ ! -s "$TMP/s" ]
ok $? "every source file opens with an SPDX line"
[ -s "$TMP/s" ] && diag "$TMP/s"

done_testing
