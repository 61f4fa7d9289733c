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
    return frame(1, {"version": "1", "name": "frames.py"})


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


SETUP_BODY = {"test": "TCP_RR", "family": 4, "duration": 1, "req_size": 1,
              "resp_size": 1, "burst": 0, "send_size": 0, "recv_size": 0,
              "lsndbuf": -1, "lrcvbuf": -1, "rsndbuf": -1, "rrcvbuf": -1,
              "nodelay": False, "flows": 1, "lcpu": -1, "rcpu": -1,
              "sample_ms": 100, "capture": "off"}


def cases():
    """(name, bytes, what the ERROR's message must say): each case must be
    refused for its own defect, not an earlier one."""
    yield "bad magic", frame(1, {}, magic=b"GE"), "bad magic"
    yield "http", b"GET / HTTP/1.0\r\n\r\n", "bad magic"
    yield "version 7", frame(1, {"version": "1", "name": "x"}, version=7), "version 7"
    yield "type 0", frame(0, {}), "unknown type 0"
    yield "type 99", frame(99, {}), "unknown type 99"
    yield "oversize", frame(1, b"", length=1 << 30), "exceeds"
    yield "not json", frame(1, b"{nope"), "not JSON"
    yield "array", frame(1, b"[1,2]"), "not a JSON object"
    yield "trailing", frame(1, b'{"version":"1","name":"x"} junk'), "not JSON"
    yield "hello missing name", frame(1, {"version": "1"}), "'name' missing"
    yield "hello extra", frame(1, {"version": "1", "name": "x", "evil": 1}), "unknown member 'evil'"
    yield "hello version number", frame(1, {"version": 1, "name": "x"}), "member 'version'"
    yield "setup first", frame(3, SETUP_BODY), "expected HELLO"
    yield "setup bad", hello() + frame(3, {"type": "TCP_RR"}), "missing"
    yield "setup flows 0", hello() + frame(3, dict(SETUP_BODY, flows=0)), "flows"
    yield "setup test bogus", hello() + frame(3, dict(SETUP_BODY, test="TCP_BOGUS")), "test"
    yield "go before setup", hello() + frame(5, {}), "unexpected GO"
    yield "result from client", hello() + frame(8, {}), "unexpected RESULT"
    while True:
        n = rnd.randrange(1, 64)
        yield "random bytes", bytes(rnd.randrange(256) for _ in range(n)), None


def main():
    host, port, count = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    bad = 0
    gen = cases()
    for i in range(count):
        name, data, expect = next(gen)
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
        # Skip a HELLO_OK the daemon sent for a valid HELLO; then an ERROR
        # that names this case's defect.
        types = []
        errors = []
        off = 0
        while off + 8 <= len(reply):
            _, _, t, ln = struct.unpack(">2sBBI", reply[off:off + 8])
            types.append(t)
            if t == 9:
                errors.append(reply[off + 8:off + 8 + ln].decode(errors="replace"))
            off += 8 + ln
        if expect is None:
            continue
        if 9 not in types:
            print(f"# case {i} ({name}): frames back {types}, no ERROR", flush=True)
            bad += 1
        elif not any(expect in e for e in errors):
            print(f"# case {i} ({name}): ERROR {errors} does not say {expect!r}", flush=True)
            bad += 1
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
