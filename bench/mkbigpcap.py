#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
# mkbigpcap.py - a large pcap of a 1-byte TCP_RR and a TCP_STREAM, for bench/pcap-offline.sh.
"""Write a pcap (Ethernet, snaplen 128) of N packets: the handshakes of two
connections with MSS 1460 and timestamps (so the MSS is 1448), then a
repeating mix of 1-byte requests and responses (seed 001) and a stream of
TSO super-segments, MSS-sized segments, remainders and ACKs (seed 000).
Records are cut at 128 bytes as `tcpdump -s 128` would.  With --expect
FILE the payload-size counts per direction are written as JSON, so a
reader's result can be checked."""

import argparse
import json
import struct
import sys

SNAPLEN = 128
CLIENT, SERVER = bytes([198, 18, 0, 1]), bytes([198, 18, 0, 2])
MAC_C, MAC_S = bytes.fromhex("020000000001"), bytes.fromhex("020000000002")


def csum(b):
    if len(b) % 2:
        b += b"\0"
    s = sum(struct.unpack("!%dH" % (len(b) // 2), b))
    while s >> 16:
        s = (s & 0xFFFF) + (s >> 16)
    return ~s & 0xFFFF


def frame(src, dst, sport, dport, flags, payload, syn_opts=False, seq=1, ack=1):
    """An Ethernet/IPv4/TCP frame: (bytes cut to SNAPLEN, wire length)."""
    if syn_opts:
        # MSS 1460, SACK permitted, timestamps, NOP, window scale 7.
        opts = (struct.pack("!BBH", 2, 4, 1460) + b"\x04\x02" +
                struct.pack("!BBII", 8, 10, 1, 0) + b"\x01\x03\x03\x07")
    else:
        opts = b"\x01\x01" + struct.pack("!BBII", 8, 10, 2, 1)
    thl = 20 + len(opts)
    tcp = struct.pack("!HHIIBBHHH", sport, dport, seq, ack, (thl // 4) << 4,
                      flags, 65535, 0, 0) + opts
    ip_len = 20 + thl + payload
    ip = struct.pack("!BBHHHBBH4s4s", 0x45, 0, ip_len & 0xFFFF, 0, 0x4000, 64,
                     6, 0, src, dst)
    ip = ip[:10] + struct.pack("!H", csum(ip)) + ip[12:]
    fwd = src == CLIENT
    eth = (MAC_S if fwd else MAC_C) + (MAC_C if fwd else MAC_S) + b"\x08\x00"
    wire = 14 + ip_len
    data = eth + ip + tcp + bytes(max(0, min(payload, SNAPLEN - 14 - 20 - thl)))
    return data[:SNAPLEN], wire


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--packets", type=int, default=5_000_000)
    ap.add_argument("--expect", help="write the expected counts here (JSON)")
    ap.add_argument("out")
    a = ap.parse_args()

    SYN, ACK, PSH = 0x02, 0x10, 0x08
    rr = (CLIENT, SERVER, 40000, 5001)
    st = (CLIENT, SERVER, 40001, 5002)

    def fwd(c, flags, n, opts=False):
        return (c[0], c[1], c[2], c[3]), flags, n, opts

    def rev(c, flags, n, opts=False):
        return (c[1], c[0], c[3], c[2]), flags, n, opts

    head = [fwd(rr, SYN, 0, True), rev(rr, SYN | ACK, 0, True), fwd(rr, ACK, 0),
            fwd(st, SYN, 0, True), rev(st, SYN | ACK, 0, True), fwd(st, ACK, 0)]
    # One round: RR transactions interleaved with a TSO stream (45 x 1448
    # super-segments, 1448, 3 x 1448 + 1 remainders) and its ACKs.
    cycle = [
        fwd(rr, PSH | ACK, 1), rev(rr, PSH | ACK, 1),
        fwd(st, PSH | ACK, 65160), rev(st, ACK, 0),
        fwd(rr, PSH | ACK, 1), rev(rr, PSH | ACK, 1),
        fwd(st, ACK, 1448), fwd(st, PSH | ACK, 4345), rev(st, ACK, 0),
        fwd(rr, PSH | ACK, 1), rev(rr, PSH | ACK, 1), fwd(rr, ACK, 0),
        fwd(rr, PSH | ACK, 2), rev(rr, PSH | ACK, 1),
    ]
    ncyc, ntail = divmod(max(0, a.packets - len(head)), len(cycle))
    head = head[:a.packets]
    # (description, how many times) in file order: the cycle's records are
    # the same bytes each time but for the time stamp.
    parts = [(head, 1), (cycle, ncyc), (cycle[:ntail], 1)]
    tmpl = {}
    expect = {}
    for recs, times in parts:
        for (src, dst, sport, dport), flags, n, opts in recs:
            key = (src, dst, sport, dport, flags, n, opts)
            if key not in tmpl:
                tmpl[key] = frame(src, dst, sport, dport, flags, n, opts)
            label = "%s:%d > %s:%d" % (".".join(map(str, src)), sport,
                                       ".".join(map(str, dst)), dport)
            sizes = expect.setdefault(label, {})
            if n and times:
                sizes[n] = sizes.get(n, 0) + times

    def frames(recs):
        return [tmpl[(c[0], c[1], c[2], c[3], f, n, o)]
                for c, f, n, o in recs]

    hdr = struct.pack("<IHHiIII", 0xA1B2C3D4, 2, 4, 0, 0, SNAPLEN, 1)
    usec = 0
    with open(a.out, "wb") as f:
        f.write(hdr)
        for recs, times in parts:
            fr = frames(recs)
            out = []
            for _ in range(times):
                for data, wire in fr:
                    usec += 7
                    out.append(struct.pack("<IIII", 1700000000 + usec // 1000000,
                                           usec % 1000000, len(data), wire))
                    out.append(data)
                if len(out) > 200000:
                    f.write(b"".join(out))
                    out.clear()
            f.write(b"".join(out))
    if a.expect:
        with open(a.expect, "w") as f:
            json.dump({"packets": min(a.packets, len(head) + ncyc * len(cycle) + ntail),
                       "directions": {k: {str(s): c for s, c in sorted(v.items())}
                                      for k, v in expect.items()}}, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
