#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
# dsec.py - hostile and plain clients of tunetopd for daemon-sec.sh, over
# loopback only.  Each subcommand prints what it saw (one JSON line) and
# exits 1 with a "# why" line when the daemon did harm or misbehaved.
import json, os, socket, sys, threading, time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from frames import frame, read_frame  # noqa: E402

HELLO, HELLO_OK, SETUP, READY, GO, SAMPLE, STOP, RESULT, ERROR, BYE = range(1, 11)
KNOB_GET, KNOB_VALUES, AUTH_BEGIN, AUTH_CHALLENGE, AUTH_RESPONSE = range(11, 16)


def fail(why, **seen):
    print(json.dumps(seen))
    print("# " + why)
    sys.exit(1)


def setup_body(test, flows=1, duration=3, req=1, resp=1, send=0, recv=0):
    return {"test": test, "family": 4, "duration": duration, "req_size": req,
            "resp_size": resp, "burst": 0, "send_size": send, "recv_size": recv,
            "lsndbuf": -1, "lrcvbuf": -1, "rsndbuf": -1, "rrcvbuf": -1,
            "nodelay": False, "flows": flows, "lcpu": -1, "rcpu": -1,
            "sample_ms": 100, "capture": "off"}


def session(port, src="127.0.0.1"):
    """A control connection from src that said HELLO: (socket, first reply)."""
    s = socket.socket()
    s.bind((src, 0))
    s.settimeout(15)
    s.connect(("127.0.0.1", port))
    s.sendall(frame(HELLO, {"version": "1", "name": "dsec.py"}))
    return s, read_frame(s)


def expect(s, want):
    """The next frame that is not a SAMPLE; fail unless its type is want."""
    while True:
        f = read_frame(s)
        if f is None or f[0] != SAMPLE:
            break
    if f is None or f[0] != want:
        fail(f"expected frame type {want}, got {f}")
    return f[1]


def zero_counters():
    return {"trans": 0, "bytes_sent": 0, "bytes_recv": 0, "msgs_sent": 0,
            "msgs_recv": 0, "lost": 0}


def vmrss_kb(pid):
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return -1


def udp_strays(port, nstray):
    """UDP_RR: a reflector at 127.0.0.2 and a second port of the client
    get nothing back and are strays; the client's requests are answered."""
    s, hok = session(port)
    if hok[0] != HELLO_OK:
        fail(f"HELLO: {hok}")
    s.sendall(frame(SETUP, setup_body("UDP_RR", req=1, resp=4096, duration=30)))
    dport = expect(s, READY)["ports"][0]
    s.sendall(frame(GO, {}))
    # The client (127.0.0.1) first: its port is learned from this datagram.
    cli = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    cli.bind(("127.0.0.1", 0))
    cli.settimeout(2)
    answered = 0
    for _ in range(20):
        cli.sendto(b"x", ("127.0.0.1", dport))
        try:
            answered += len(cli.recv(65536)) == 4096
        except socket.timeout:
            pass
    refl = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    refl.bind(("127.0.0.2", 0))
    other = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    other.bind(("127.0.0.1", 0))
    for _ in range(nstray):
        refl.sendto(b"x", ("127.0.0.1", dport))
    for _ in range(5):
        other.sendto(b"x", ("127.0.0.1", dport))
    reflected = 0
    for sock in (refl, other):
        sock.settimeout(1)
        try:
            while True:
                reflected += len(sock.recv(65536))
        except socket.timeout:
            pass
    total = zero_counters()
    total.update(msgs_sent=20, bytes_sent=20, msgs_recv=answered,
                 bytes_recv=answered * 4096, trans=answered)
    s.sendall(frame(STOP, {"elapsed": 1.0, "total": total}))
    res = expect(s, RESULT)
    s.sendall(frame(BYE, {}))
    seen = dict(answered=answered, reflected_bytes=reflected,
                strays=res["strays"], server_msgs_recv=res["total"]["msgs_recv"],
                server_msgs_sent=res["total"]["msgs_sent"])
    if answered != 20:
        fail("the client's own requests were not all answered", **seen)
    if reflected:
        fail("a stray source got bytes back", **seen)
    if res["strays"] != nstray + 5:
        fail(f"strays {res['strays']}, sent {nstray + 5}", **seen)
    if res["total"]["msgs_recv"] != 20 or res["total"]["msgs_sent"] != 20:
        fail("strays were counted in the test's totals", **seen)
    print(json.dumps(seen))


def stream(port, pid, flows, size, secs):
    """TCP_STREAM with flows and -m/-M size: READY then data for secs while
    the daemon's VmRSS is sampled, or an ERROR.  Prints code or peak RSS."""
    s, hok = session(port)
    if hok[0] != HELLO_OK:
        fail(f"HELLO: {hok}")
    base = vmrss_kb(pid)
    s.sendall(frame(SETUP, setup_body("TCP_STREAM", flows=flows, send=size,
                                      recv=size, duration=secs)))
    f = read_frame(s)
    if f is None or f[0] == ERROR:
        print(json.dumps({"error": f and f[1], "rss_base_kb": base,
                          "rss_kb": vmrss_kb(pid)}))
        return
    if f[0] != READY:
        fail(f"expected READY or ERROR, got {f}")
    dport = f[1]["ports"][0]
    socks = [socket.create_connection(("127.0.0.1", dport)) for _ in range(flows)]
    s.sendall(frame(GO, {}))
    buf = b"\0" * 65536
    peak = base
    sent = 0
    end = time.time() + secs
    while time.time() < end:
        for d in socks:
            d.sendall(buf)
            sent += len(buf)
        peak = max(peak, vmrss_kb(pid))
    for d in socks:
        d.shutdown(socket.SHUT_WR)
    total = zero_counters()
    total.update(bytes_sent=sent, msgs_sent=sent // len(buf))
    s.sendall(frame(STOP, {"elapsed": float(secs), "total": total}))
    for d in socks:
        d.settimeout(15)
        d.recv(1)
        d.close()
    res = expect(s, RESULT)
    s.sendall(frame(BYE, {}))
    print(json.dumps({"ready": True, "rss_base_kb": base, "rss_peak_kb": peak,
                      "sent": sent, "server_bytes_recv": res["total"]["bytes_recv"]}))


def setup_only(port, test, flows, size, hold):
    """SETUP and print the answer (READY or ERROR); keep the session open
    hold seconds (so its memory stays reserved)."""
    s, hok = session(port)
    if hok[0] != HELLO_OK:
        fail(f"HELLO: {hok}")
    s.sendall(frame(SETUP, setup_body(test, flows=flows, send=size, recv=size)))
    f = read_frame(s)
    print(json.dumps({"type": f and f[0], "body": f and f[1]}), flush=True)
    time.sleep(hold)


def hold(port, n, srcs, secs, status):
    """n idle read-only sessions spread over the source addresses srcs,
    each sending KNOB_GET at once and every 20 s; writes status when all
    are open, then reports how many were evicted."""
    socks = []
    srcs = srcs.split(",")
    for i in range(n):
        s, hok = session(port, srcs[i % len(srcs)])
        if hok is None or hok[0] != HELLO_OK:
            fail(f"session {i}: HELLO answered {hok}")
        socks.append(s)
    evicted = []
    lock = threading.Lock()

    def keep(s):
        last = 0
        end = time.time() + secs
        while time.time() < end:
            if time.time() - last >= 20:
                s.sendall(frame(KNOB_GET, {"names": [], "dev": ""}))
                last = time.time()
            s.settimeout(0.2)
            try:
                f = read_frame(s)
            except socket.timeout:
                continue
            except OSError:
                f = None
            if f is None or f[0] == ERROR:
                with lock:
                    evicted.append(f and f[1])
                return
    threads = [threading.Thread(target=keep, args=(s,)) for s in socks]
    for t in threads:
        t.start()
    with open(status, "w") as f:
        f.write("open\n")
    for t in threads:
        t.join()
    print(json.dumps({"sessions": n, "evicted": evicted}))


def bare(port, n, secs, status):
    """n connections that never say HELLO, held secs."""
    socks = [socket.create_connection(("127.0.0.1", port)) for _ in range(n)]
    with open(status, "w") as f:
        f.write("open\n")
    time.sleep(secs)
    for s in socks:
        s.close()


def hello_from(port, src):
    """One HELLO from src: prints the answer's type and body."""
    s, f = session(port, src)
    print(json.dumps({"type": f and f[0], "body": f and f[1]}))


def auth_response_first(port):
    """AUTH_RESPONSE with no AUTH_BEGIN before it."""
    s, hok = session(port)
    s.sendall(frame(AUTH_RESPONSE, {"mac": "00" * 32}))
    f = read_frame(s)
    print(json.dumps({"type": f and f[0], "body": f and f[1]}))


def udp_ports(pid):
    """Local ports of the UDP sockets process pid holds."""
    inodes = set()
    for fd in os.listdir(f"/proc/{pid}/fd"):
        try:
            link = os.readlink(f"/proc/{pid}/fd/{fd}")
        except OSError:
            continue
        if link.startswith("socket:["):
            inodes.add(link[8:-1])
    ports = []
    for table in ("/proc/net/udp", "/proc/net/udp6"):
        with open(table) as f:
            for line in f.readlines()[1:]:
                col = line.split()
                if col[9] in inodes:
                    ports.append(int(col[1].split(":")[1], 16))
    return ports


def udp_drops(port):
    """The kernel's drop count of the UDP socket on port (the last column
    of /proc/net/udp): datagrams that never reached the daemon because its
    receive buffer was full (a loaded machine, before the test starts)."""
    for table in ("/proc/net/udp", "/proc/net/udp6"):
        with open(table) as f:
            for line in f.readlines()[1:]:
                col = line.split()
                if int(col[1].split(":")[1], 16) == port:
                    return int(col[-1])
    return 0


def flood(pid, count):
    """Wait for the daemon's UDP data socket (the client's setup may be slow
    on a loaded machine), then send count datagrams to it from 127.0.0.2 as
    a reflection attack would; print the bytes back."""
    end = time.time() + 60
    while not udp_ports(pid) and time.time() < end:
        time.sleep(0.05)
    ports = udp_ports(pid)
    if not ports:
        fail("the daemon opened no UDP socket within 60 s")
    refl = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    refl.bind(("127.0.0.2", 0))
    for i in range(count):
        refl.sendto(b"x", ("127.0.0.1", ports[0]))
        if i % 20 == 19:
            time.sleep(0.01)
    refl.settimeout(1)
    back = 0
    try:
        while True:
            back += len(refl.recv(65536))
    except socket.timeout:
        pass
    print(json.dumps({"port": ports[0], "sent": count, "bytes_back": back,
                      "drops": udp_drops(ports[0])}))


def slow_reader(port, flows, secs):
    """TCP_STREAM of flows whose client reads no control frame for secs,
    with a small receive buffer: the daemon must skip SAMPLEs (each carries
    every flow's socket figures), not block on one until the frame timeout
    cuts it.  Every frame read afterwards is whole and the RESULT arrives.
    Prints the SAMPLEs read."""
    s = socket.socket()
    s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    s.settimeout(15)
    s.connect(("127.0.0.1", port))
    s.sendall(frame(HELLO, {"version": "1", "name": "dsec.py"}))
    f = read_frame(s)
    if f is None or f[0] != HELLO_OK:
        fail(f"HELLO: {f}")
    s.sendall(frame(SETUP, setup_body("TCP_STREAM", flows=flows, send=1024,
                                      recv=1024, duration=secs + 30)))
    f = read_frame(s)
    if f is None or f[0] != READY:
        fail(f"expected READY, got {f}")
    socks = [socket.create_connection(("127.0.0.1", f[1]["ports"][0]))
             for _ in range(flows)]
    s.sendall(frame(GO, {}))
    time.sleep(secs)
    for d in socks:
        d.shutdown(socket.SHUT_WR)
    s.sendall(frame(STOP, {"elapsed": float(secs), "total": zero_counters()}))
    for d in socks:
        d.settimeout(15)
        d.recv(1)
        d.close()
    n = 0
    while True:
        f = read_frame(s)
        if f is None:
            fail("the control connection closed before RESULT", samples=n)
        if f[0] == SAMPLE and "seq" in f[1]:
            n += 1
            continue
        if f[0] != RESULT:
            fail(f"expected whole SAMPLEs then RESULT, got {f}", samples=n)
        break
    s.sendall(frame(BYE, {}))
    print(json.dumps({"samples": n, "result": True}))


def main():
    cmd, port, args = sys.argv[1], int(sys.argv[2]), sys.argv[3:]
    if cmd == "udp-strays":
        udp_strays(port, int(args[0]))
    elif cmd == "stream":
        stream(port, int(args[0]), int(args[1]), int(args[2]), float(args[3]))
    elif cmd == "setup":
        setup_only(port, args[0], int(args[1]), int(args[2]), float(args[3]))
    elif cmd == "hold":
        hold(port, int(args[0]), args[1], float(args[2]), args[3])
    elif cmd == "bare":
        bare(port, int(args[0]), float(args[1]), args[2])
    elif cmd == "flood":
        flood(int(args[0]), int(args[1]))
    elif cmd == "hello-from":
        hello_from(port, args[0])
    elif cmd == "auth-response-first":
        auth_response_first(port)
    elif cmd == "slow-reader":
        slow_reader(port, int(args[0]), float(args[1]))
    else:
        fail(f"unknown subcommand {cmd}")


if __name__ == "__main__":
    main()
