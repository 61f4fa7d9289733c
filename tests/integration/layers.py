#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
# layers.py - the arrows between the layers of docs/HACKING.md, from `nm`.
#
# Usage: layers.py SRCDIR BUILDDIR
# A file uses another when its object takes a symbol the other's defines
# (cycles.py's reading).  The engine (src/ but src/cli/) uses nothing of
# the CLI (src/cli/) or the dashboard (ui/); no file of ui/ but ui/main.c
# uses the CLI; and ui/main.c, which only dispatches, takes from the CLI
# nothing but the subcommands' mains and options_help (the help of
# `tunetop run`'s options that the dashboard's command line asked for).
# Prints each arrow against the rule with its symbols; exit 1 when any.
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from cycles import read_tree  # noqa: E402

MAIN_MAY_TAKE = {"options_help"}


def layer(src):
    """engine, cli or ui."""
    if src.startswith("src/cli/"):
        return "cli"
    if src.startswith("ui/"):
        return "ui"
    return "engine"


def main():
    tree = read_tree(sys.argv, "layers.py")
    if tree is None:
        return 2
    defs, uses, owner = tree
    bad = []
    for a in sorted(uses):
        for n in sorted(uses[a]):
            for b in sorted(owner.get(n, ())):
                la, lb = layer(a), layer(b)
                if la == "engine" and lb in ("cli", "ui"):
                    bad.append((a, b, n, "the engine uses the " + lb))
                elif la == "ui" and lb == "cli" and a != "ui/main.c":
                    bad.append((a, b, n, "the dashboard uses the CLI"))
                elif (a == "ui/main.c" and lb == "cli" and
                      not n.endswith("_main") and n not in MAIN_MAY_TAKE):
                    bad.append((a, b, n, "ui/main.c does more than dispatch"))
    for a, b, n, why in bad:
        print("%s: %s takes %s from %s" % (why, a, n, b))
    print("%d files, %d arrows against the layers" % (len(defs), len(bad)))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
