#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Cut the control messages out of a pcap of netperf talking to netserver.

Usage: ns-extract.py FILE.pcap OUTDIR [PORT]
Writes OUTDIR/NAME-NN-{request,reply}.bin, one file per 656-byte message in
the order they crossed the wire (NAME is the pcap's name without .pcap).
Classic pcap only (what tcpdump -w writes); IPv4/IPv6 over Ethernet,
Linux cooked (SLL, SLL2), loopback/null or raw IP.  No extra packages.
"""
import os
import struct
import sys

MSG = 656


def packets(path):
    data = open(path, 'rb').read()
    magic = data[:4]
    if magic in (b'\xd4\xc3\xb2\xa1', b'\x4d\x3c\xb2\xa1'):
        e = '<'
    elif magic in (b'\xa1\xb2\xc3\xd4', b'\xa1\xb2\x3c\x4d'):
        e = '>'
    else:
        sys.exit('%s: not a classic pcap file' % path)
    linktype = struct.unpack(e + 'I', data[20:24])[0]
    off = 24
    while off + 16 <= len(data):
        _, _, caplen, _ = struct.unpack(e + 'IIII', data[off:off + 16])
        off += 16
        yield linktype, data[off:off + caplen]
        off += caplen


def tcp_payload(linktype, frame):
    skip = {1: 14, 0: 4, 108: 4, 113: 16, 276: 20, 101: 0, 12: 0}.get(linktype)
    if skip is None:
        sys.exit('link type %d not handled' % linktype)
    ip = frame[skip:]
    if ip[0] >> 4 == 4:
        if ip[9] != 6:
            return None
        tcp = ip[(ip[0] & 15) * 4:]
    elif ip[0] >> 4 == 6:
        if ip[6] != 6:
            return None
        tcp = ip[40:]
    else:
        return None
    sport, dport = struct.unpack('>HH', tcp[:4])
    return sport, dport, tcp[(tcp[12] >> 4) * 4:]


def main():
    path, outdir = sys.argv[1], sys.argv[2]
    port = int(sys.argv[3]) if len(sys.argv) > 3 else 12865
    name = os.path.basename(path)[:-5] if path.endswith('.pcap') else os.path.basename(path)
    pend = {'request': b'', 'reply': b''}
    n = 0
    for lt, frame in packets(path):
        seg = tcp_payload(lt, frame)
        if not seg or not seg[2]:
            continue
        sport, dport, pl = seg
        way = 'request' if dport == port else 'reply' if sport == port else None
        if not way:
            continue
        pend[way] += pl
        while len(pend[way]) >= MSG:
            n += 1
            with open(os.path.join(outdir, '%s-%02d-%s.bin' % (name, n, way)), 'wb') as f:
                f.write(pend[way][:MSG])
            pend[way] = pend[way][MSG:]
    for way, rest in pend.items():
        if rest:
            sys.exit('%s: %d bytes of a %s left over' % (path, len(rest), way))


if __name__ == '__main__':
    main()
