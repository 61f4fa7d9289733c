#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# tunetop's subcommands come from one table (ui/main.c's cmd_table): the
# list of `tunetop -h`, the one an unknown subcommand's error gives, and the
# SYNOPSIS of tunetop(1) name the same subcommands.
. "$(dirname "$0")/lib.sh"

"$TUNETOP" -h >"$TMP/help"
ok $? "tunetop -h exits 0"
# "  NAME     ...": the lines of the Subcommands block that start a subcommand.
sed -n '/^Subcommands:$/,/^$/p' "$TMP/help" | sed -n 's/^  \([a-z][a-z-]*\) .*/\1/p' >"$TMP/h"
[ "$(wc -l <"$TMP/h")" -ge 9 ]
ok $? "tunetop -h lists the subcommands"
diag "$TMP/h"

"$TUNETOP" no-such-command 2>"$TMP/unk"
[ $? -eq 2 ]
ok $? "an unknown subcommand exits 2"
sed -n "s/.*; accepted: \(.*\) (see tunetop -h)\$/\1/p" "$TMP/unk" | tr -d ' ' | tr ',' '\n' >"$TMP/u"
cmp -s "$TMP/h" "$TMP/u"
ok $? "the unknown-subcommand error lists what tunetop -h lists, in its order"
[ -s "$TMP/u" ] || diag "$TMP/unk"

# The man page's SYNOPSIS: ".B tunetop NAME" lines, each subcommand once.
sed -n '/^\.SH SYNOPSIS/,/^\.SH [^S]/p' "$top_srcdir/docs/tunetop.1" |
	sed -n 's/^\.B tunetop \([a-z][a-z-]*\).*/\1/p' | sort -u >"$TMP/m"
sort -u "$TMP/h" >"$TMP/hs"
diff "$TMP/hs" "$TMP/m" >"$TMP/d"
ok $? "tunetop(1)'s SYNOPSIS names the subcommands tunetop -h lists"
[ -s "$TMP/d" ] && diag "$TMP/d"

done_testing
