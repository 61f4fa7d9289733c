#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
# frames.py - send malformed control frames to tunetopd; each must get an
# ERROR frame (or a close) back, and the daemon must keep serving.
# Imported (by dsec.py), it offers frame() and the frame reader.
import json, os, random, socket, struct, sys

rnd = random.Random(1234)


def frame(t, body, magic=b"TT", version=1, length=None):
    b = body if isinstance(body, bytes) else json.dumps(body).encode()
    return magic + struct.pack(">BBI", version, t, len(b) if length is None else length) + b


def hello():
    return frame(1, {"version": 1, "name": "frames.py"})


def read_frame(s):
    """One frame from socket s: (type, body as a dict), or None on EOF."""
    def exactly(n):
        b = b""
        while len(b) < n:
            chunk = s.recv(n - len(b))
            if not chunk:
                return None
            b += chunk
        return b
    hdr = exactly(8)
    if hdr is None:
        return None
    _, _, t, ln = struct.unpack(">2sBBI", hdr)
    body = exactly(ln) if ln else b"{}"
    return t, json.loads(body) if body else {}


def cases():
    yield "bad magic", frame(1, {}, magic=b"GE")
    yield "http", b"GET / HTTP/1.0\r\n\r\n"
    yield "version 7", frame(1, {"version": 1, "name": "x"}, version=7)
    yield "type 0", frame(0, {})
    yield "type 99", frame(99, {})
    yield "oversize", frame(1, b"", length=1 << 30)
    yield "not json", frame(1, b"{nope")
    yield "array", frame(1, b"[1,2]")
    yield "trailing", frame(1, b'{"version":1,"name":"x"} junk')
    yield "hello missing name", frame(1, {"version": 1})
    yield "hello extra", frame(1, {"version": 1, "name": "x", "evil": 1})
    yield "hello version 2", frame(1, {"version": 2, "name": "x"})
    yield "setup first", frame(3, {"type": "TCP_RR"})
    yield "setup bad", hello() + frame(3, {"type": "TCP_RR"})
    yield "setup flows 0", hello() + frame(3, {"type": "TCP_RR", "family": 4, "duration": 1, "req_size": 1,
                                               "resp_size": 1, "burst": 0, "send_size": 0, "recv_size": 0,
                                               "lsndbuf": -1, "lrcvbuf": -1, "rsndbuf": -1, "rrcvbuf": -1,
                                               "nodelay": False, "flows": 0, "lcpu": -1, "rcpu": -1,
                                               "sample_ms": 100})
    yield "go before setup", hello() + frame(5, {})
    yield "result from client", hello() + frame(8, {})
    while True:
        n = rnd.randrange(1, 64)
        yield "random bytes", bytes(rnd.randrange(256) for _ in range(n))


def main():
    host, port, count = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    bad = 0
    gen = cases()
    for i in range(count):
        name, data = next(gen)
        s = socket.create_connection((host, port), timeout=10)
        try:
            s.sendall(data)
            if name == "random bytes" and len(data) < 8:
                s.shutdown(socket.SHUT_WR)
            reply = b""
            while True:
                chunk = s.recv(65536)
                if not chunk:
                    break
                reply += chunk
        except (ConnectionResetError, BrokenPipeError):
            reply = b""
        except socket.timeout:
            print(f"# case {i} ({name}): no answer within 10 s", flush=True)
            bad += 1
            continue
        finally:
            s.close()
        # Skip a HELLO_OK the daemon sent for a valid HELLO; then an ERROR.
        types = []
        off = 0
        while off + 8 <= len(reply):
            _, _, t, ln = struct.unpack(">2sBBI", reply[off:off + 8])
            types.append(t)
            off += 8 + ln
        if 9 not in types and name != "random bytes":
            print(f"# case {i} ({name}): frames back {types}, no ERROR", flush=True)
            bad += 1
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
