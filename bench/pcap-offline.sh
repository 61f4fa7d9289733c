#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# bench/pcap-offline.sh - `tunetop pcap` reading a large capture, against tcpdump.
#
# Builds a pcap of a 1-byte TCP_RR and a TSO stream (bench/mkbigpcap.py),
# reads it once into the page cache, then times, alternating in each round:
#   tunetop   tunetop pcap FILE --json >/dev/null
#   tcpdump   tcpdump -nr FILE >/dev/null                   (the reference)
#   pipeline  tcpdump -nr FILE tcp | awk '{print $NF}' | sort -n | uniq -c
#             (seed 001's way of counting segment sizes)
# and prints packets/s per tool (medians), the ratios, and one summary row
# in bench/run's table format as its last line.  The target is tunetop
# reading >= 2 million packets/s; tunetop's counts are checked against the
# ones mkbigpcap.py wrote.  Exit 0 when met, 1 when missed, 2 for a usage
# error or a missing tool.

set -u -o pipefail
exec 2>&1

usage() {
	cat <<'EOF'
usage: bench/pcap-offline.sh [options]
  --rounds N       alternating rounds (default 3; env ROUNDS)
  --packets N      packets in the capture (default 5000000; env PCAP_PACKETS)
  --builddir DIR   where tunetop is (env BUILDDIR; default ./build if it
                   exists, else .)
  --no-pipeline    do not time the tcpdump | awk | sort | uniq -c pipeline
  -h, --help       this text
EOF
}

ROUNDS=${ROUNDS:-3}
PACKETS=${PCAP_PACKETS:-5000000}
PIPELINE=1
TARGET=2000000

while [ $# -gt 0 ]; do
	case $1 in
	--rounds) ROUNDS=${2:?}; shift ;;
	--rounds=*) ROUNDS=${1#*=} ;;
	--packets) PACKETS=${2:?}; shift ;;
	--packets=*) PACKETS=${1#*=} ;;
	--builddir) BUILDDIR=${2:?}; shift ;;
	--builddir=*) BUILDDIR=${1#*=} ;;
	--no-pipeline) PIPELINE=0 ;;
	-h|--help) usage; exit 0 ;;
	*) echo "bench/pcap-offline.sh: unknown option '$1'"; usage; exit 2 ;;
	esac
	shift
done

die() {
	echo "bench/pcap-offline.sh: $*"
	exit 2
}
[[ $ROUNDS =~ ^[0-9]+$ ]] && [ "$ROUNDS" -ge 1 ] || die "--rounds: expected a whole number >= 1, got '$ROUNDS'"
[[ $PACKETS =~ ^[0-9]+$ ]] && [ "$PACKETS" -ge 1000 ] || die "--packets: expected a whole number >= 1000, got '$PACKETS'"

SRCDIR=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
if [ -z "${BUILDDIR:-}" ]; then
	if [ -d ./build ]; then BUILDDIR=./build; else BUILDDIR=.; fi
fi
TUNETOP=$BUILDDIR/tunetop
[ -x "$TUNETOP" ] || die "$TUNETOP: not found (set BUILDDIR or --builddir; build with make)"
command -v tcpdump >/dev/null 2>&1 || die "missing: tcpdump (Debian package tcpdump)"
command -v python3 >/dev/null 2>&1 || die "missing: python3 (Debian package python3)"

TMP=$(mktemp -d "${TMPDIR:-/tmp}/tunetop-pcapbench.XXXXXX") || die "mktemp failed"
trap 'rm -rf "$TMP"' EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

CAP=$TMP/big.pcap
echo "== pcap: building a capture of $PACKETS packets (1-byte RR + TSO stream, snaplen 128)"
python3 "$SRCDIR/bench/mkbigpcap.py" --packets "$PACKETS" --expect "$TMP/expect.json" \
	"$CAP" || die "bench/mkbigpcap.py failed"
size=$(stat -c %s "$CAP")
cat "$CAP" >/dev/null	# into the page cache
echo "   $CAP: $((size / 1000000)) MB, read into the page cache"

# The counts tunetop reports must be the ones written.
"$TUNETOP" pcap "$CAP" --json >"$TMP/check.json" 2>"$TMP/check.err" || {
	echo "   tunetop pcap failed:"
	sed 's/^/      /' "$TMP/check.err"
	exit 1
}
python3 - "$TMP/check.json" "$TMP/expect.json" <<'EOF' || exit 1
import json, sys
got, exp = (json.load(open(p)) for p in sys.argv[1:])
sizes = {d["label"]: {str(s): c for s, c in d["sizes"]} for d in got["directions"]}
if got["packets"] != exp["packets"] or got["counted"] != exp["packets"] or \
        sizes != exp["directions"]:
    print("   tunetop's counts differ from the ones written:")
    print("     got     ", got["packets"], got["counted"], sizes)
    print("     expected", exp["packets"], exp["directions"])
    sys.exit(1)
print("   tunetop's counts equal the ones written (%d packets, %d directions)"
      % (got["packets"], len(sizes)))
EOF

# secs CMD...: run CMD (a shell string), print its wall time in seconds.
secs() {
	local t0 t1
	t0=$(date +%s%N)
	bash -c "$1" >/dev/null 2>"$TMP/cmd.err" || {
		echo "ERR"
		sed 's/^/      /' "$TMP/cmd.err" >&2
		return 1
	}
	t1=$(date +%s%N)
	awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.3f\n", (b - a) / 1e9 }'
}

median() {
	printf '%s\n' "$@" | sort -g | awk '{ v[NR] = $1 } END {
		if (NR % 2) printf "%.3f\n", v[(NR + 1) / 2];
		else printf "%.3f\n", (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

pps() { awk -v n="$PACKETS" -v s="$1" 'BEGIN { if (s > 0) printf "%.0f\n", n / s; else print 0 }'; }

q=$(printf '%q' "$CAP")
names=(tunetop tcpdump)
cmds=("$(printf '%q' "$TUNETOP") pcap $q --json"
      "tcpdump -nr $q")
if [ "$PIPELINE" = 1 ]; then
	names+=(pipeline)
	cmds+=("tcpdump -nr $q tcp 2>/dev/null | awk '{print \$NF}' | sort -n | uniq -c")
fi
declare -A times
bad=0
echo "== pcap: offline reading, $ROUNDS rounds alternating ${names[*]}"
for r in $(seq "$ROUNDS"); do
	for i in "${!names[@]}"; do
		t=$(secs "${cmds[$i]}") || bad=1
		times[${names[$i]}]="${times[${names[$i]}]:-} $t"
		printf '  round %d  %-9s %8s s  %12s packets/s\n' "$r" "${names[$i]}" \
			"$t" "$( [ "$t" = ERR ] && echo - || pps "$t")"
	done
done
[ "$bad" = 0 ] || { echo "   a command failed"; exit 1; }

declare -A med
for n in "${names[@]}"; do
	# shellcheck disable=SC2086
	med[$n]=$(pps "$(median ${times[$n]})")
done
echo
printf '  %-9s %14s packets/s (median)\n' tunetop "${med[tunetop]}"
printf '  %-9s %14s packets/s  tunetop / tcpdump = %s\n' tcpdump "${med[tcpdump]}" \
	"$(awk -v a="${med[tunetop]}" -v b="${med[tcpdump]}" 'BEGIN { printf "%.1f", a / b }')"
if [ "$PIPELINE" = 1 ]; then
	printf '  %-9s %14s packets/s  tunetop / pipeline = %s\n' pipeline "${med[pipeline]}" \
		"$(awk -v a="${med[tunetop]}" -v b="${med[pipeline]}" 'BEGIN { printf "%.1f", a / b }')"
fi
ratio=$(awk -v a="${med[tunetop]}" -v b="${med[tcpdump]}" 'BEGIN { printf "%.3f", a / b }')
result=PASS
[ "${med[tunetop]}" -ge "$TARGET" ] || result=FAIL
# The row of bench/run's table: tunetop's and tcpdump's packets/s, their
# ratio, and the target (an absolute rate here, not a ratio).
printf '%-9s %-40s %14s %14s %7s %8s  %s\n' pcap "offline read, tcpdump -nr ref (pkt/s)" \
	"${med[tunetop]}" "${med[tcpdump]}" "$ratio" ">= 2M/s" "$result"
[ "$result" = PASS ]
