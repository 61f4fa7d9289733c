#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# tunetop pcap: per-direction payload sizes of the recorded captures in tests/data/pcap.
. "$(dirname "$0")/lib.sh"
DATA=${PCAP_DATA:-$top_srcdir/tests/data/pcap}
MANIFEST=$DATA/expected

if [ ! -f "$MANIFEST" ]; then
	echo "not ok 1 - $MANIFEST exists (tests/tools/mkpcap writes it)"
	echo "1..1"
	exit 1
fi

# check.py MODE ARGS: compares tunetop's outputs with the manifest.
cat >"$TMP/check.py" <<'PY'
import csv, json, re, sys

def manifest(path):
    """{file: {"facts": {...}, "dirs": {key: {...}}}} from the manifest."""
    m = {}
    for line in open(path):
        w = line.split()
        if not w or w[0].startswith("#"):
            continue
        f = m.setdefault(w[0], {"facts": {}, "dirs": {}})
        if len(w) == 2:
            f["facts"][w[1]] = True
        elif ">" in w[1]:
            d = f["dirs"].setdefault(w[1], {"sizes": {}})
            if w[2] == "size":
                d["sizes"][int(w[3])] = int(w[4])
            else:
                d[w[2]] = w[3] if w[2] == "proto" else int(w[3])
        else:
            f["facts"][w[1]] = w[2] if w[1] == "format" else int(w[2])
    return m

def key(d):
    if ":" in d["src"]:
        return "[%s]:%d>[%s]:%d" % (d["src"], d["sport"], d["dst"], d["dport"])
    return "%s:%d>%s:%d" % (d["src"], d["sport"], d["dst"], d["dport"])

def check_json(m, name, path):
    """Every fact of the manifest about name equals tunetop's --json."""
    exp = m[name]
    j = json.load(open(path))
    fx = exp["facts"]
    bad = []
    def eq(what, got, want):
        if got != want:
            bad.append("%s: %s: got %r, expected %r" % (name, what, got, want))
    for fk, jk in (("packets", "packets"), ("counted", "counted"),
                   ("not-ip", "not_ip"), ("other-proto", "other_proto"),
                   ("fragments", "fragments"), ("short", "short"),
                   ("malformed", "malformed"), ("dlt", "dlt"),
                   ("format", "format")):
        eq(jk, j.get(jk), fx[fk])
    eq("complete", j["complete"], "error-packet" not in fx)
    if "error-packet" in fx:
        eq("error", (j["error"] or "").split(":")[0], "packet %d" % fx["error-packet"])
    fb = j["first_bad"]
    eq("first_bad", int(re.match(r"packet (\d+):", fb).group(1)) if fb else 0,
       fx["first-bad"])
    got = {key(d): d for d in j["directions"]}
    eq("directions", sorted(got), sorted(exp["dirs"]))
    for k, e in exp["dirs"].items():
        d = got.get(k)
        if not d:
            continue
        for f in ("packets", "acks", "ctl", "data", "bytes"):
            eq(k + " " + f, d[f], e[f])
        eq(k + " proto", d["proto"], e["proto"])
        eq(k + " first", d["first_packet"], e["first"])
        if e["proto"] == "tcp":
            eq(k + " mss", d["mss"] or 0, e["mss"])
        eq(k + " sizes", {s: c for s, c in d["sizes"]}, e["sizes"])
    eq("directions in order of their first packet",
       [d["first_packet"] for d in j["directions"]],
       sorted(d["first_packet"] for d in j["directions"]))
    for b in bad:
        print("#", b)
    return not bad

def check_human(m, name, path):
    """Each direction's heading and a table row "size count" per size."""
    text = open(path).read()
    ok = True
    for k, e in m[name]["dirs"].items():
        label = k.replace(">", " > ")
        if label not in text:
            print("# %s: no heading for %s" % (name, label))
            ok = False
        block = text.split(label, 1)[-1].split("\n\n", 1)[0]
        for s, c in e["sizes"].items():
            if not re.search(r"^\s+%d\s+%d\s" % (s, c), block, re.M):
                print("# %s %s: no row for size %d count %d" % (name, label, s, c))
                ok = False
    return ok

def check_csv(m, name, path):
    rows = list(csv.reader(open(path)))
    if rows[0] != ["direction", "size", "count", "class"]:
        print("# header", rows[0])
        return False
    got = {}
    for r in rows[1:]:
        got.setdefault(r[0].replace(" > ", ">"), {})[int(r[1])] = int(r[2])
    want = {k: e["sizes"] for k, e in m[name]["dirs"].items() if e["sizes"]}
    if got != want:
        print("# csv", got, "\n# expected", want)
    return got == want

def check_port(m, name, path, port):
    j = json.load(open(path))
    want = sorted(k for k, e in m[name]["dirs"].items()
                  if re.search(r":%d(>|$)" % port, k))
    got = sorted(key(d) for d in j["directions"])
    keep = sum(m[name]["dirs"][k]["packets"] for k in want)
    ok = got == want and j["counted"] == keep and \
        j["filtered"] == m[name]["facts"]["packets"] - keep
    if not ok:
        print("# --port %d: %s (filtered %d), expected %s" % (port, got, j["filtered"], want))
    return ok

def check_proto(m, name, path, proto):
    j = json.load(open(path))
    want = sorted(k for k, e in m[name]["dirs"].items() if e["proto"] == proto)
    got = sorted(key(d) for d in j["directions"])
    if got != want:
        print("# --filter %s: %s, expected %s" % (proto, got, want))
    return got == want and j["filtered"] > 0

m = manifest(sys.argv[2])
mode = sys.argv[1]
if mode == "files":		# the readable files, then the one with error-packet
    for f, e in m.items():
        if "open-error" not in e["facts"]:
            print(f, 1 if "error-packet" in e["facts"] else 0,
                  e["facts"].get("error-packet", 0))
elif mode == "badheader":
    print(" ".join(f for f, e in m.items() if "open-error" in e["facts"]))
elif mode == "port":		# a file and port that keep some flows, not all
    for f, e in m.items():
        ports = [int(k.split(">")[0].rsplit(":", 1)[1]) for k in e["dirs"]]
        for p in ports:
            sel = [k for k in e["dirs"] if re.search(r":%d(>|$)" % p, k)]
            if "error-packet" not in e["facts"] and 0 < len(sel) < len(e["dirs"]):
                print(f, p)
                sys.exit(0)
elif mode == "mixedproto":	# a file with TCP and UDP flows
    for f, e in m.items():
        if {"tcp", "udp"} <= {d["proto"] for d in e["dirs"].values()} and \
                "error-packet" not in e["facts"]:
            print(f)
            break
else:
    fn = {"json": check_json, "human": check_human, "csv": check_csv,
          "portjson": check_port, "protojson": check_proto}[mode]
    args = sys.argv[3:]
    if mode == "portjson":
        args[2] = int(args[2])
    sys.exit(0 if fn(m, *args) else 1)
PY
chk() { mode=$1; shift; python3 "$TMP/check.py" "$mode" "$MANIFEST" "$@"; }

# Every readable file: --json parses and matches the manifest, fact by fact.
chk files >"$TMP/files"
[ -s "$TMP/files" ]
ok $? "the manifest lists capture files"
while read -r f want_rc err_pkt; do
	"$TUNETOP" pcap "$DATA/$f" --json >"$TMP/$f.json" 2>"$TMP/$f.err"
	rc=$?
	[ "$rc" -eq "$want_rc" ]
	ok $? "$f: exit status $want_rc (got $rc)"
	[ "$rc" -eq "$want_rc" ] || diag "$TMP/$f.err"
	chk json "$f" "$TMP/$f.json"
	ok $? "$f: --json matches the manifest (counts, directions, MSS, sizes)"
	if [ "$err_pkt" -ne 0 ]; then
		[ "$(wc -l <"$TMP/$f.err")" -eq 1 ] &&
			grep -q "^tunetop: .*$f: packet $err_pkt: " "$TMP/$f.err"
		ok $? "$f: one error line naming packet $err_pkt"
		diag "$TMP/$f.err"
		"$TUNETOP" pcap "$DATA/$f" >"$TMP/$f.txt" 2>"$TMP/$f.err2"
		[ $? -eq 1 ] && chk human "$f" "$TMP/$f.txt" &&
			[ "$(tail -n 1 "$TMP/$f.err2")" = "$(cat "$TMP/$f.err")" ]
		ok $? "$f: the human output still lists what was read before the bad record"
	fi
done <"$TMP/files"

# Human output: each direction's heading and "size count" rows, for
# Ethernet, Linux cooked v2, raw IPv6, loopback and pcapng.
for f in en10mb-v4.pcap sll2.pcap raw-v6.pcap loop.pcap capture.pcapng; do
	[ -f "$DATA/$f" ] || continue
	"$TUNETOP" pcap "$DATA/$f" --all >"$TMP/$f.txt" 2>&1
	ok $? "$f: human output exits 0"
	head -n 1 "$TMP/$f.txt" | grep -q "$f: pcap.*link type"
	ok $? "$f: the first line names the file, its format and link type"
	chk human "$f" "$TMP/$f.txt"
	ok $? "$f: human output lists every expected size with its count"
done
grep -q "MSS [0-9]* (SYN)" "$TMP/en10mb-v4.pcap.txt"
ok $? "the MSS shown says it came from the SYN"

# CSV.
"$TUNETOP" pcap "$DATA/en10mb-v4.pcap" -o >"$TMP/o.csv" 2>&1
ok $? "-o exits 0"
chk csv en10mb-v4.pcap "$TMP/o.csv"
ok $? "-o prints direction,size,count,class rows equal to the manifest"

# --port and --filter restrict what is counted.
read -r pf port <<EOF
$(chk port)
EOF
if [ -n "$pf" ]; then
	"$TUNETOP" pcap "$DATA/$pf" --port "$port" --json >"$TMP/port.json" 2>&1
	ok $? "--port $port exits 0"
	chk portjson "$pf" "$TMP/port.json" "$port"
	ok $? "--port $port on $pf keeps exactly the directions of port $port"
else
	ok 1 "the manifest has a file with flows on several ports"
fi
mf=$(chk mixedproto)
if [ -n "$mf" ]; then
	"$TUNETOP" pcap "$DATA/$mf" --filter udp --json >"$TMP/filter.json" 2>&1
	ok $? "--filter udp exits 0"
	chk protojson "$mf" "$TMP/filter.json" udp
	ok $? "--filter udp on $mf keeps only the UDP directions"
else
	ok 1 "the manifest has a file with TCP and UDP flows"
fi
"$TUNETOP" pcap "$DATA/en10mb-v4.pcap" --filter "no such ((" >"$TMP/bf.out" 2>"$TMP/bf.err"
[ $? -eq 2 ] && [ "$(wc -l <"$TMP/bf.err")" -eq 1 ] && grep -q "filter" "$TMP/bf.err"
ok $? "a filter libpcap refuses: exit 2, one line naming the filter"

# Files that cannot be read at all, and bad options.
for f in $(chk badheader); do
	"$TUNETOP" pcap "$DATA/$f" >"$TMP/bh.out" 2>"$TMP/bh.err"
	[ $? -eq 2 ] && [ "$(wc -l <"$TMP/bh.err")" -eq 1 ] &&
		grep -q "^tunetop: .*$f" "$TMP/bh.err" && [ ! -s "$TMP/bh.out" ]
	ok $? "$f (bad file header): exit 2, one error line naming the file"
	diag "$TMP/bh.err"
done
"$TUNETOP" pcap "$TMP/no-such.pcap" >"$TMP/nf.out" 2>"$TMP/nf.err"
[ $? -eq 2 ] && [ "$(wc -l <"$TMP/nf.err")" -eq 1 ] && grep -q "No such file" "$TMP/nf.err"
ok $? "a missing file: exit 2 and one line saying so"
for p in 0 65536 http -1; do
	"$TUNETOP" pcap "$DATA/en10mb-v4.pcap" --port "$p" >"$TMP/bp.out" 2>"$TMP/bp.err"
	[ $? -eq 2 ] && [ "$(wc -l <"$TMP/bp.err")" -eq 1 ] &&
		grep -q -- "--port $p: accepted is a port number 1..65535" "$TMP/bp.err"
	ok $? "--port $p: exit 2, one line saying what is accepted"
done
"$TUNETOP" pcap "$DATA/en10mb-v4.pcap" --json -o >"$TMP/c.out" 2>"$TMP/c.err"
[ $? -eq 2 ] && grep -q "conflicts" "$TMP/c.err"
ok $? "--json with -o is refused (exit 2)"
"$TUNETOP" pcap >"$TMP/n.out" 2>"$TMP/n.err"
[ $? -eq 2 ] && [ "$(wc -l <"$TMP/n.err")" -eq 1 ]
ok $? "no file: exit 2, one line"
"$TUNETOP" pcap --help >"$TMP/h.out" 2>&1 && grep -q -- "--filter" "$TMP/h.out"
ok $? "--help lists the options and exits 0"

# --mss overrides the SYNs' MSS.
"$TUNETOP" pcap "$DATA/en10mb-v4.pcap" --mss 100 --json >"$TMP/mss.json" 2>&1 &&
	python3 -c 'import json,sys; j=json.load(open(sys.argv[1]))
t=[d for d in j["directions"] if d["proto"]=="tcp"]
assert t and all(d["mss"]==100 and d["mss_source"]=="--mss" for d in t)' "$TMP/mss.json"
ok $? "--mss 100 classifies every TCP direction with MSS 100"

# A file tcpdump wrote from one of ours gives the same result.
if command -v tcpdump >/dev/null 2>&1; then
	tcpdump -r "$DATA/en10mb-v4.pcap" -w "$TMP/x.pcap" 2>"$TMP/td.err"
	ok $? "tcpdump rewrites en10mb-v4.pcap"
	"$TUNETOP" pcap "$TMP/x.pcap" --json >"$TMP/x.json" 2>&1
	ok $? "tunetop reads tcpdump's file"
	python3 -c 'import json,sys
a, b = (json.load(open(p)) for p in sys.argv[1:])
del a["file"], b["file"]
assert a == b' "$TMP/x.json" "$TMP/en10mb-v4.pcap.json"
	ok $? "tcpdump's copy gives the same JSON as the original"
	"$TUNETOP" pcap "$TMP/x.pcap" --all | tail -n +2 >"$TMP/x.txt"
	tail -n +2 "$TMP/en10mb-v4.pcap.txt" | cmp -s - "$TMP/x.txt"
	ok $? "and the same human output below the header"
	# Seed 001's pipeline counts the same sizes as tunetop over all directions.
	tcpdump -nr "$DATA/en10mb-v4.pcap" tcp 2>/dev/null | awk '{print $NF}' |
		sort -n | uniq -c | awk '$2 > 0 { print $2, $1 }' >"$TMP/seed.txt"
	python3 -c 'import json,sys
j = json.load(open(sys.argv[1])); t = {}
for d in j["directions"]:
    if d["proto"] == "tcp":
        for s, c in d["sizes"]:
            t[s] = t.get(s, 0) + c
print("\n".join("%d %d" % kv for kv in sorted(t.items())))' "$TMP/en10mb-v4.pcap.json" >"$TMP/tt.txt"
	cmp -s "$TMP/seed.txt" "$TMP/tt.txt"
	ok $? "seed 001's tcpdump | awk | sort | uniq -c counts equal tunetop's TCP sizes"
	cmp -s "$TMP/seed.txt" "$TMP/tt.txt" || { diag "$TMP/seed.txt"; diag "$TMP/tt.txt"; }
else
	echo "ok $((tap_n + 1)) # SKIP tcpdump not installed"
	tap_n=$((tap_n + 1))
fi

done_testing
