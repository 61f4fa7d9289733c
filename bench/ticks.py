#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
# ticks.py - how far tunetop's interim ticks are from their schedule, for bench/run.
"""Read the output of `tunetop run ... -D SECS --json-stream` and compare
each interval line's own timestamp with its schedule.

The timestamp is the client's `.local.t`: seconds since the sampler
started, read by the sampler thread when its timer fired, before the tick
is built and queued (the human interim line's "ending at" is the wall
clock when the main thread prints it, later).  Tick number `.local.seq`
is due at seq x SECS, so its error is t - seq x SECS.  When the sampler
thread runs so late that the timer expired more than once, seq jumps by
the periods that passed, so the schedule holds and the gap is a missed
tick.

Prints one line of key=value figures, each a percentage of the interval:
  ticks=N            interval lines read
  worst=P            the largest |t - seq x SECS|
  mean=P             the mean of t - seq x SECS (signed: late is +)
  worst_iv=P         the largest |iv_secs - SECS| (one interval's length)
  accum=P            mean error of the last tenth of the ticks minus the
                     first tenth's: what builds up over the run
  missed=N           ticks not taken: gaps in seq (the sampler counts the
                     timer's periods, so a tick taken late covers them)
Exits 1 with a message when the input holds no interval line or a line
is not what tunetop writes."""

import json
import sys


def main():
    if len(sys.argv) != 3:
        sys.exit("usage: ticks.py FILE SECS")
    try:
        iv = float(sys.argv[2])
    except ValueError:
        sys.exit("ticks.py: SECS: expected seconds such as 0.1, got '%s'" % sys.argv[2])
    if iv <= 0:
        sys.exit("ticks.py: SECS: expected seconds > 0, got '%s'" % sys.argv[2])
    errs, ivs, seqs = [], [], []
    with open(sys.argv[1]) as f:
        for n, line in enumerate(f, 1):
            if not line.startswith('{"type":"interval"'):
                continue
            try:
                loc = json.loads(line)["local"]
                seq, t, ivs_ = int(loc["seq"]), float(loc["t"]), float(loc["iv_secs"])
            except (ValueError, KeyError, TypeError) as e:
                sys.exit("ticks.py: %s line %d: not an interval line (%s)" % (sys.argv[1], n, e))
            errs.append(t - seq * iv)
            ivs.append(ivs_)
            seqs.append(seq)
    if not errs:
        sys.exit("ticks.py: %s: no interval line" % sys.argv[1])
    tenth = max(1, len(errs) // 10)
    head = sum(errs[:tenth]) / tenth
    tail = sum(errs[-tenth:]) / tenth
    pct = lambda x: 100.0 * x / iv
    print("ticks=%d worst=%.3f mean=%.3f worst_iv=%.3f accum=%.3f missed=%d" % (
        len(errs), pct(max(abs(e) for e in errs)), pct(sum(errs) / len(errs)),
        pct(max(abs(v - iv) for v in ivs)), pct(tail - head),
        sum(b - a - 1 for a, b in zip([0] + seqs, seqs) if b > a + 1)))


if __name__ == "__main__":
    main()
