#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
# folders.py - arrows between folders follow docs/HACKING.md's folder order.
#
# Usage: folders.py SRCDIR BUILDDIR
# The order is the line of HACKING.md's "Folder order" block that starts
# with "core": levels from the bottom up, separated by "<", the folders of
# one level by blanks.  A folder is src/NAME, or ui for ui/.  From nm on the
# built objects (cycles.py finds them): an object of folder X that takes a
# symbol an object of folder Y defines is an arrow X -> Y, allowed only
# when Y's level is below X's (folders of one level use none of each
# other).  Each arrow against the order is printed with its symbols; a
# folder with objects that the order does not name is an error; exit 1.
# A line "pending: FILE -> FOLDER" of the same block names one arrow that
# a move still to come removes: printed, not an error while it exists,
# an error once it is gone (so the line goes with it).
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import cycles  # noqa: E402


def folder_order(srcdir):
    """({folder: level}, {(file, folder)} pending) from HACKING.md's block."""
    path = os.path.join(srcdir, "docs", "HACKING.md")
    order, pending = None, set()
    with open(path, encoding="utf-8") as f:
        fenced = False
        for line in f:
            if line.startswith("```"):
                if fenced and order:
                    break
                fenced = not fenced
                continue
            words = line.split()
            if fenced and words and words[0] == "core" and "<" in words:
                level, order = 0, {}
                for w in words:
                    if w == "<":
                        level += 1
                    else:
                        order[w] = level
            elif fenced and order and len(words) == 4 and \
                    words[0] == "pending:" and words[2] == "->":
                pending.add((words[1], words[3]))
    return order, pending


def folder_of(src):
    """The folder of a source file: "knobs" for src/knobs/x.c, "ui" for ui/x.c."""
    parts = src.split("/")
    if parts[0] == "src" and len(parts) > 2:
        return parts[1]
    return parts[0]


def main():
    if len(sys.argv) != 3:
        print("usage: folders.py SRCDIR BUILDDIR", file=sys.stderr)
        return 2
    srcdir, builddir = sys.argv[1], sys.argv[2]
    order, pending = folder_order(srcdir)
    if not order:
        print("docs/HACKING.md: no folder order line (```, then core ... < ...)")
        return 2
    defs, uses, missing = {}, {}, []
    for src in cycles.sources(srcdir):
        objs = cycles.objects(builddir, src)
        if not objs:
            missing.append(src)
            continue
        defs[src], uses[src] = set(), set()
        for o in objs:
            d, u = cycles.symbols(o)
            defs[src] |= d
            uses[src] |= u
    if missing:
        print("no object for: " + " ".join(missing) + " (build first)")
        return 2
    unnamed = sorted({folder_of(s) for s in defs} - set(order))
    if unnamed:
        print("folders not in HACKING.md's order: " + " ".join(unnamed))
        return 1
    owner = {}
    for src, names in defs.items():
        for n in names:
            owner.setdefault(n, set()).add(src)
    bad, seen = {}, set()
    arrows = set()
    for a, names in uses.items():
        fa = folder_of(a)
        for n in names:
            for b in owner.get(n, ()):
                fb = folder_of(b)
                if fa == fb:
                    continue
                arrows.add((fa, fb))
                if (a, fb) in pending:
                    seen.add((a, fb))
                elif order[fb] >= order[fa]:
                    bad.setdefault((fa, fb), []).append(
                        "%s uses %s of %s" % (a, n, b))
    for (fa, fb), why in sorted(bad.items()):
        print("%s -> %s against the order:" % (fa, fb))
        for w in sorted(why):
            print("  " + w)
    for a, fb in sorted(pending - seen):
        print("pending: %s -> %s is gone: remove its line" % (a, fb))
    for a, fb in sorted(seen):
        print("pending: %s -> %s (a move still to come)" % (a, fb))
    print("%d folders, %d arrows between them, %d against the order" %
          (len(order), len(arrows), len(bad)))
    return 1 if bad or pending - seen else 0


if __name__ == "__main__":
    sys.exit(main())
