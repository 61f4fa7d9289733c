#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
# hostile.py - a peer that sends terminal escapes and newlines in every
# string it can: a rewriting proxy in front of tunetopd, and clients that
# put them in HELLO and KNOB_SET.
#   hostile.py proxy LISTEN_PORT DAEMON_PORT   relay, rewriting HELLO_OK's host
#                                              and a remote knob's value
#   hostile.py proxy LISTEN_PORT DAEMON_PORT badresult
#                                              relay, RESULT's irq_dev 40 bytes
#                                              (accepted: 0..31)
#   hostile.py hello PORT                      HELLO with a hostile member name
#   hostile.py knobset PORT KEYFILE KNOB       KNOB_SET KNOB to a value with a newline
import hashlib, hmac, json, socket, struct, sys, threading

EVIL = "\x1b]0;pwned\x07\x1b[31mevil\nhost"
HELLO, HELLO_OK, ERROR, KNOB_VALUES, AUTH_BEGIN, AUTH_CHALLENGE, AUTH_RESPONSE, AUTH_OK, KNOB_SET, KNOB_RESULT = \
    1, 2, 9, 12, 13, 14, 15, 16, 17, 18
RESULT = 8
BAD_RESULT = False


def frame(t, body):
    b = json.dumps(body).encode()
    return b"TT" + struct.pack(">BBI", 1, t, len(b)) + b


def read_exact(s, n):
    buf = b""
    while len(buf) < n:
        chunk = s.recv(n - len(buf))
        if not chunk:
            return None
        buf += chunk
    return buf


def read_frame(s):
    hdr = read_exact(s, 8)
    if hdr is None:
        return None, None, None
    n = struct.unpack(">I", hdr[4:])[0]
    body = read_exact(s, n)
    return hdr, hdr[3], body


def relay(src, dst, rewrite):
    try:
        while True:
            hdr, t, body = read_frame(src)
            if hdr is None:
                break
            if rewrite and BAD_RESULT:
                if t == RESULT:
                    j = json.loads(body)
                    j["irq_dev"] = "x" * 40
                    dst.sendall(frame(t, j))
                else:
                    dst.sendall(hdr + body)
            elif rewrite and t == HELLO_OK:
                j = json.loads(body)
                j["host"] = EVIL
                dst.sendall(frame(t, j))
            elif rewrite and t == KNOB_VALUES:
                # The remote knobs go into the stored result.
                j = json.loads(body)
                for v in j["values"]:
                    if v["name"] == "net.ipv4.tcp_congestion_control":
                        v["present"], v["text"], v["reason"] = True, EVIL, ""
                dst.sendall(frame(t, j))
            else:
                dst.sendall(hdr + body)
    except OSError:
        pass
    for s in (src, dst):
        try:
            s.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass


def proxy(listen_port, daemon_port):
    ls = socket.socket()
    ls.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    ls.bind(("127.0.0.1", listen_port))
    ls.listen(16)
    print("listening", flush=True)
    while True:
        c, _ = ls.accept()
        d = socket.create_connection(("127.0.0.1", daemon_port))
        threading.Thread(target=relay, args=(c, d, False), daemon=True).start()
        threading.Thread(target=relay, args=(d, c, True), daemon=True).start()


def expect(s, want):
    _, t, body = read_frame(s)
    if t != want:
        sys.exit("expected frame type %d, got %s: %s" % (want, t, body))
    return json.loads(body)


def client(port):
    s = socket.create_connection(("127.0.0.1", port), timeout=10)
    return s


def hello_member(port):
    s = client(port)
    s.sendall(frame(HELLO, {"version": "0.1.0", "name": "hostile.py", EVIL: 1}))
    _, t, body = read_frame(s)
    print(t, body.decode() if body else "")


def knobset(port, keyfile, knob):
    key = bytes.fromhex(open(keyfile).read().strip())
    s = client(port)
    s.sendall(frame(HELLO, {"version": "0.1.0", "name": "hostile.py\x1b[2J"}))
    expect(s, HELLO_OK)
    s.sendall(frame(AUTH_BEGIN, {}))
    ch = bytes.fromhex(expect(s, AUTH_CHALLENGE)["challenge"])
    mac = hmac.new(key, ch, hashlib.sha256).hexdigest()
    s.sendall(frame(AUTH_RESPONSE, {"mac": mac}))
    expect(s, AUTH_OK)
    s.sendall(frame(KNOB_SET, {"settings": [{"name": knob, "value": "3\nFAKE: set everything"}],
                               "dev": ""}))
    print(json.dumps(expect(s, KNOB_RESULT)))


if __name__ == "__main__":
    if sys.argv[1] == "proxy":
        BAD_RESULT = sys.argv[4:] == ["badresult"]
        proxy(int(sys.argv[2]), int(sys.argv[3]))
    elif sys.argv[1] == "hello":
        hello_member(int(sys.argv[2]))
    else:
        knobset(int(sys.argv[2]), sys.argv[3], sys.argv[4])
