#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
# cycles.py - cycles between source files, from `nm` on the built objects.
#
# Usage: cycles.py SRCDIR BUILDDIR
# File A uses file B when A's object has an undefined symbol B's object
# defines.  Every strongly connected component of more than one file is a
# cycle: printed with the symbols each file takes from the next; exit 1.
# The objects are found by source name: automake puts src/lab/lab.c's
# object at BUILDDIR/src/lab/lab.o, or BUILDDIR/src/lab/TARGET-lab.o when
# the target has flags of its own (TARGET is alphanumerics and _).
import os
import re
import subprocess
import sys


def sources(srcdir):
    """The C files of the engine, the CLI and the UI, relative to srcdir."""
    out = []
    for top in ("src", "ui"):
        for d, _, files in os.walk(os.path.join(srcdir, top)):
            for f in files:
                if f.endswith(".c"):
                    out.append(os.path.relpath(os.path.join(d, f), srcdir))
    return sorted(out)


def objects(builddir, src):
    """The objects built from src (one per target that compiles it)."""
    d, f = os.path.split(src)
    stem = re.escape(f[:-2])
    pat = re.compile(r"^(?:[A-Za-z0-9_]+-)?" + stem + r"\.o$")
    try:
        names = os.listdir(os.path.join(builddir, d))
    except FileNotFoundError:
        return []
    return [os.path.join(builddir, d, n) for n in sorted(names) if pat.match(n)]


def symbols(obj):
    """(defined, undefined) global symbol names of one object."""
    out = subprocess.run(["nm", "-P", obj], check=True, capture_output=True,
                         text=True).stdout
    defined, undefined = set(), set()
    for line in out.splitlines():
        parts = line.split()
        if len(parts) < 2:
            continue
        name, kind = parts[0], parts[1]
        if kind == "U":
            undefined.add(name)
        elif kind.isupper() and kind not in "UW":
            defined.add(name)
    return defined, undefined


def sccs(nodes, edges):
    """Tarjan's strongly connected components, iteratively."""
    index, low, on, stack, out = {}, {}, set(), [], []
    counter = [0]
    for root in nodes:
        if root in index:
            continue
        work = [(root, iter(sorted(edges[root])))]
        index[root] = low[root] = counter[0]
        counter[0] += 1
        stack.append(root)
        on.add(root)
        while work:
            v, it = work[-1]
            w = next(it, None)
            if w is not None:
                if w not in index:
                    index[w] = low[w] = counter[0]
                    counter[0] += 1
                    stack.append(w)
                    on.add(w)
                    work.append((w, iter(sorted(edges[w]))))
                elif w in on:
                    low[v] = min(low[v], index[w])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[v])
            if low[v] == index[v]:
                comp = []
                while True:
                    w = stack.pop()
                    on.discard(w)
                    comp.append(w)
                    if w == v:
                        break
                out.append(sorted(comp))
    return out


def read_tree(argv, prog):
    """From argv's SRCDIR BUILDDIR, (defs, uses, owner) of every source's
    objects: the symbols each file defines and takes, and the files
    defining each symbol; None (said) on bad usage or a source with no
    object."""
    if len(argv) != 3:
        print("usage: %s SRCDIR BUILDDIR" % prog, file=sys.stderr)
        return None
    srcdir, builddir = argv[1], argv[2]
    defs, uses, missing = {}, {}, []
    for src in sources(srcdir):
        objs = objects(builddir, src)
        if not objs:
            missing.append(src)
            continue
        defs[src], uses[src] = set(), set()
        for o in objs:
            d, u = symbols(o)
            defs[src] |= d
            uses[src] |= u
    if missing:
        print("no object for: " + " ".join(missing) + " (build first)")
        return None
    owner = {}
    for src, names in defs.items():
        for n in names:
            owner.setdefault(n, set()).add(src)
    return defs, uses, owner


def main():
    tree = read_tree(sys.argv, "cycles.py")
    if tree is None:
        return 2
    defs, uses, owner = tree
    edges = {s: set() for s in defs}
    why = {}
    for a, names in uses.items():
        for n in names:
            for b in owner.get(n, ()):
                if b != a:
                    edges[a].add(b)
                    why.setdefault((a, b), []).append(n)
    found = [c for c in sccs(sorted(defs), edges) if len(c) > 1]
    for comp in sorted(found):
        print("cycle: " + " ".join(comp))
        members = set(comp)
        for a in comp:
            for b in sorted(edges[a] & members):
                print("  %s uses %s: %s" % (a, b, ", ".join(sorted(why[(a, b)]))))
    print("%d files, %d cycles" % (len(defs), len(found)))
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
