#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""netperf_format.py - compare tunetop's output with netperf 2.7.1's.

The goldens (tests/data/netperf/*.txt) are netperf's real output.  The row
formats below are netperf's printf formats; `selfcheck` proves them
against the goldens (every golden row re-printed from its own numbers
gives the golden row back, byte for byte).  The other commands check one
tunetop run against a golden: the same lines in the same order, title
lines verbatim, data rows of the same tokens with the same decimals, each
row re-printed from its numbers through netperf's format giving tunetop's
row back, and the numbers equal to the JSON of the same run.

    netperf_format.py selfcheck DIR
    netperf_format.py human GOLDEN OUT ERR JSON [--p0]
    netperf_format.py sel GOLDEN OUT JSON   (-o, -o -P 0, -O, -k)
Exit 0 when it matches; else one line per difference on stdout, exit 1.
"""
import json
import re
import sys

RR = ["%-6d %-6d %-6d   %-6d  %-6.2f   %7.2f   ", "%-6d %-6d"]
RR_CPU = {
    "TCP_RR": ["%-6d %-6d %-6d  %-6d %-6.2f  %-6.2f  %-6.2f %-6.2f %-6.3f  %-6.3f ", "%-6d %-6d"],
    "UDP_RR": ["%-6d %-6d %-6d  %-6d %-6.2f  %-6.2f   %-6.2f %-6.2f %-6.3f  %-6.3f ", "%-6d %-6d"],
    "TCP_CRR": ["%-6d %-6d %-6d  %-6d %-6.2f  %-6.2f   %-6.2f %-6.2f %-6.3f  %-6.3f", "%-6d %-6d"],
}
STREAM = ["%6d %6d %6d    %-6.2f   %7.2f   "]
STREAM_CPU = ["%6d %6d %6d    %-6.2f     %7.2f   %-6.2f   %-6.2f   %-6.3f  %-6.3f "]
UDP = ["%6d  %6d   %-7.2f   %7d %6d    %7.2f", "%6d           %-7.2f   %7d           %7.2f", ""]
UDP_CPU = ["%6d  %6d   %-7.2f   %7d %6d    %7.1f     %-6.2f   %-6.3f",
           "%6d           %-7.2f   %7d           %7.1f     %-6.2f   %-6.3f", ""]


def formats(test, cpu):
    if test in RR_CPU:
        return RR_CPU[test] if cpu else RR
    if test == "UDP_STREAM":
        return UDP_CPU if cpu else UDP
    return STREAM_CPU if cpu else STREAM


def golden(path):
    """(command, test, cpu, p0, lines after the command)."""
    text = open(path).read()
    first, rest = text.split("\n", 1)
    cmd = first[2:]
    test = re.search(r"-t (\S+)", cmd).group(1)
    cpu = " -c" in cmd
    p0 = "-P 0" in cmd
    return cmd, test, cpu, p0, rest.split("\n")


def number(tok):
    return float(tok) if "." in tok else int(tok)


def decimals(tok):
    return len(tok.split(".")[1]) if "." in tok else -1


def reprint(fmt, line):
    """The row netperf's fmt prints from the numbers of line."""
    toks = line.split()
    if fmt.count("%") != len(toks):
        return None
    try:
        return fmt % tuple(number(t) for t in toks)
    except (TypeError, ValueError):
        return None


def split_golden(test, cpu, p0, lines):
    fm = formats(test, cpu)
    while lines and lines[-1] == "" and not (test == "UDP_STREAM" and len(lines) >= 2 and lines[-2] != ""):
        lines = lines[:-1]
    n = len(fm)
    rows = lines[-n:]
    head = lines[:-n]
    return head, rows


def check_rows(fm, grows, trows, errs, what):
    for i, (f, g, t) in enumerate(zip(fm, grows, trows)):
        if reprint(f, g) != g:
            errs.append("%s: golden row %d is not netperf's format %r: %r" % (what, i + 1, f, g))
        gt, tt = g.split(), t.split()
        if len(gt) != len(tt):
            errs.append("%s: row %d has %d fields, netperf's %d: %r" % (what, i + 1, len(tt), len(gt), t))
            continue
        for k, (a, b) in enumerate(zip(gt, tt)):
            if decimals(a) != decimals(b):
                errs.append("%s: row %d field %d is %r, netperf prints %r" % (what, i + 1, k + 1, b, a))
        if reprint(f, t) != t:
            errs.append("%s: row %d is not netperf's format %r: %r" % (what, i + 1, f, t))


def near(tok, want, what, errs):
    """tok as printed equals want rounded the way tok is printed."""
    d = decimals(tok)
    tol = 0.5 * 10 ** -(d if d > 0 else 0) + 1e-9
    if want is None or abs(number(tok) - want) > tol * 1.0001:
        errs.append("%s: %s printed, the JSON of the run says %r" % (what, tok, want))


def json_fields(test, cpu, j):
    """What each field of each row is, from the run's JSON (netperf's
    meaning of the column): a list per row of values (None: not checked)."""
    r = j["result"]
    el = j["local"]["elapsed"]
    if test in ("TCP_RR", "TCP_CRR", "UDP_RR"):
        row = [r["lss_size"], r["lsr_size"], r["request_size"], r["response_size"],
               r["elapsed_time"], r["throughput"]]
        if cpu:
            row += [r["local_cpu_util"], r["remote_cpu_util"], r["local_sd"], r["remote_sd"]]
        return [row, [r["rss_size"], r["rsr_size"]]]
    if test == "UDP_STREAM":
        lt, rt = j["local"]["total"], j["remote"]["total"]
        r1 = [r["lss_size"], r["local_send_size"], el, lt["msgs_sent"], j["local"]["send_errors"],
              lt["bytes_sent"] * 8 / el / 1e6]
        r2 = [r["rsr_size"], el, rt["msgs_recv"], rt["bytes_recv"] * 8 / el / 1e6]
        if cpu:
            r1 += [r["local_cpu_util"], r["local_sd"]]
            r2 += [r["remote_cpu_util"], r["remote_sd"]]
        return [r1, r2]
    if test == "TCP_MAERTS":
        row = [r["lsr_size"], r["rss_size"], r["remote_send_size"], r["elapsed_time"], r["throughput"]]
    else:
        row = [r["rsr_size"], r["lss_size"], r["local_send_size"], r["elapsed_time"], r["throughput"]]
    if cpu:
        row += [r["local_cpu_util"], r["remote_cpu_util"], r["local_sd"], r["remote_sd"]]
    return [row]


def cmd_human(gpath, out, err, jpath, p0):
    cmd, test, cpu, gp0, glines = golden(gpath)
    errs = []
    tlines = open(out).read().split("\n")
    j = json.load(open(jpath))["result"]
    fm = formats(test, cpu)
    ghead, grows = split_golden(test, cpu, gp0, glines)
    n_head = len(ghead)
    theadrows = tlines[:n_head + len(fm)]
    thead, trows = theadrows[:n_head], theadrows[n_head:]
    for i, (g, t) in enumerate(zip(ghead, thead)):
        if g != t:
            errs.append("line %d is %r, netperf prints %r" % (i + 1, t, g))
    if len(thead) < len(ghead) or len(trows) < len(fm):
        errs.append("the output is shorter than netperf's block")
    check_rows(fm, grows, trows, errs, test)
    for ri, (t, want) in enumerate(zip(trows, json_fields(test, cpu, j))):
        for k, (tok, w) in enumerate(zip(t.split(), want)):
            near(tok, w, "%s row %d field %d" % (test, ri + 1, k + 1), errs)
    rest = tlines[n_head + len(fm):]
    etext = open(err).read()
    if p0:
        if any(l != "" for l in rest) or len(rest) > 1:
            errs.append("-P 0: stdout holds more than netperf's rows: %r" % rest[:3])
        if "Target: " not in etext:
            errs.append("-P 0: no Target: line on stderr")
    else:
        # After netperf's block: a blank line (UDP_STREAM's block ends in one), then tunetop's lines.
        if test != "UDP_STREAM":
            if not rest or rest[0] != "":
                errs.append("no blank line after netperf's block: %r" % rest[:1])
            rest = rest[1:]
        if not rest or not rest[0].startswith("Target: "):
            errs.append("tunetop's lines do not start with Target: after the block: %r" % rest[:1])
        if not any(l.startswith("Counts agree") for l in rest):
            errs.append("no counts line among tunetop's lines")
    return errs


def omni_human(names_titles, vals):
    """netperf's print_omni_human(): 4 title lines and the values."""
    w = [max(max(len(x) for x in t), len(v) + 1) for t, v in zip(names_titles, vals)]
    lines = ["".join("%-*s " % (wi, t[k]) for wi, t in zip(w, names_titles)) for k in range(4)]
    lines.append("".join("%-*s " % (wi, v) for wi, v in zip(w, vals)))
    return lines


def cmd_sel(gpath, out, jpath):
    cmd, test, cpu, gp0, glines = golden(gpath)
    errs = []
    tlines = open(out).read().split("\n")
    r = json.load(open(jpath))["result"]["result"]
    sel = re.search(r"-([oOk]) (\S+)", cmd)
    kind, names = sel.group(1), sel.group(2).split(",")
    start = 0 if gp0 else 1
    if not gp0 and tlines[0] != glines[0]:
        errs.append("banner is %r, netperf prints %r" % (tlines[0], glines[0]))
    if kind == "o":
        if not gp0 and tlines[1] != glines[1]:
            errs.append("-o header is %r, netperf prints %r" % (tlines[1], glines[1]))
        gv, tv = glines[start + (0 if gp0 else 1)].split(","), tlines[start + (0 if gp0 else 1)].split(",")
    elif kind == "k":
        gv = [l.split("=", 1)[1] for l in glines[start:] if "=" in l]
        tk = [l.split("=", 1) for l in tlines[start:] if "=" in l]
        if [k for k, _ in tk] != names:
            errs.append("-k names %r, asked %r" % ([k for k, _ in tk], names))
        tv = [v for _, v in tk]
    else:
        gv, tv = glines[start + 4].split(), tlines[start + 4].split()
        # netperf's layout rebuilt from its titles and the values printed
        heads = []
        for name in names:
            heads.append(OMNI_TITLES[name])
        want = omni_human(heads, tv)
        got = tlines[start:start + 5]
        if want != got:
            errs.append("-O layout differs from netperf's rule: %r vs %r" % (got, want))
        gwant = omni_human(heads, gv)
        if gwant != glines[start:start + 5]:
            errs.append("golden -O is not netperf's rule: %r" % gwant)
    if len(gv) != len(tv):
        errs.append("%d values, netperf prints %d" % (len(tv), len(gv)))
    for name, a, b in zip(names, gv, tv):
        try:
            number(a)
        except ValueError:
            if kind != "O" and a != b:
                errs.append("%s is %r, netperf prints %r" % (name, b, a))
            continue
        if decimals(a) != decimals(b):
            errs.append("%s is %r, netperf prints %r" % (name, b, a))
        elif name != "LOCAL_CPU_UTIL" or cpu:
            near(b, r.get(name.lower()), name, errs)
    return errs


OMNI_TITLES = {
    "THROUGHPUT": ["Throughput", "", "", ""],
    "MEAN_LATENCY": ["Mean", "Latency", "Microseconds", ""],
    "P99_LATENCY": ["99th", "Percentile", "Latency", "Microseconds"],
    "LOCAL_CPU_UTIL": ["Local", "CPU", "Util", "%"],
}


def cmd_selfcheck(d):
    import glob
    import os
    errs = []
    n = 0
    for path in sorted(glob.glob(os.path.join(d, "*.txt"))):
        cmd, test, cpu, p0, lines = golden(path)
        if re.search(r" -[oOk] ", cmd):
            continue
        head, rows = split_golden(test, cpu, p0, lines)
        for f, g in zip(formats(test, cpu), rows):
            n += 1
            if reprint(f, g) != g:
                errs.append("%s: %r is not %r" % (os.path.basename(path), g, f))
    if not n:
        errs.append("no golden rows found in " + d)
    return errs


def main(argv):
    if len(argv) >= 3 and argv[1] == "selfcheck":
        errs = cmd_selfcheck(argv[2])
    elif len(argv) >= 6 and argv[1] == "human":
        errs = cmd_human(argv[2], argv[3], argv[4], argv[5], "--p0" in argv[6:])
    elif len(argv) == 5 and argv[1] == "sel":
        errs = cmd_sel(argv[2], argv[3], argv[4])
    else:
        print(__doc__.strip().split("\n\n")[-1])
        return 2
    for e in errs:
        print(e)
    return 1 if errs else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
