#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# tests/data/pcap is what tests/tools/mkpcap writes, byte for byte, and tcpdump reads each capture as its manifest says.
. "$(dirname "$0")/lib.sh"
MKPCAP="$top_builddir/tests/tools/mkpcap"
DATA="$top_srcdir/tests/data/pcap"
OUT="$TMP/pcap"
mkdir "$OUT"

"$MKPCAP" "$OUT" >"$TMP/mkpcap.log" 2>&1
st=$?
ok $st "mkpcap writes the captures and their manifest"
[ $st -eq 0 ] || diag "$TMP/mkpcap.log"

(cd "$DATA" && ls) >"$TMP/committed"
(cd "$OUT" && ls) >"$TMP/written"
cmp -s "$TMP/committed" "$TMP/written"
ok $? "mkpcap writes exactly the files tests/data/pcap holds"
for f in $(cat "$TMP/committed"); do
	cmp "$DATA/$f" "$OUT/$f" >"$TMP/cmp.log" 2>&1
	st=$?
	ok $st "$f is byte for byte what mkpcap writes"
	[ $st -eq 0 ] || diag "$TMP/cmp.log"
done

# tcpdump, a reader that is not ours, sees the manifest's packet count in
# every readable file, stops with an error where the manifest says reading
# stops, and refuses the files the manifest says cannot be opened.
awk '$1 !~ /^#/ && $2 == "packets" { print $1, $3 }' "$DATA/expected" >"$TMP/packets"
while read -r f n; do
	tcpdump -nn -r "$DATA/$f" >"$TMP/td.out" 2>"$TMP/td.err"
	st=$?
	got=$(wc -l <"$TMP/td.out")
	if grep -q "^$f error-packet " "$DATA/expected"; then
		[ $st -ne 0 ] && [ "$got" -eq "$n" ]
		ok $? "tcpdump reads the $n good packets of $f, then fails (exit $st, $got packets)"
	else
		[ $st -eq 0 ] && [ "$got" -eq "$n" ]
		ok $? "tcpdump reads all $n packets of $f (exit $st, $got packets)"
	fi
	[ $st -eq 0 ] || diag "$TMP/td.err"
done <"$TMP/packets"
for f in $(awk '$2 == "open-error" { print $1 }' "$DATA/expected"); do
	if tcpdump -nn -r "$DATA/$f" >"$TMP/td.out" 2>"$TMP/td.err"; then
		st=1
	else
		st=0
	fi
	# tcpdump refuses a bad magic; 802.11 it knows, so there only check
	# that it reads the one record (pcapread refuses the link type).
	if [ "$f" = "ieee802-11.pcap" ]; then
		[ "$(wc -l <"$TMP/td.out")" -eq 1 ]
		st=$?
	fi
	ok $st "tcpdump agrees on $f ($(head -c 80 "$TMP/td.err" | tr '\n' ' '))"
done

# The TCP payload sizes per direction, as tcpdump prints them ("length N"
# from the IP and TCP headers), are the manifest's.  Sizes that do not fit
# a 16-bit IP length (BIG TCP) tcpdump 4.99 cannot show, so those are left
# out of the comparison on both sides.
tcp_sizes() {
	tcpdump -nn -r "$1" 2>/dev/null | awk -v file="$(basename "$1")" '
	function ep(tok, v6,   i) {
		sub(/:$/, "", tok)
		i = match(tok, /\.[0-9]+$/)
		if (!i)
			return ""
		return (v6 ? "[" : "") substr(tok, 1, i - 1) (v6 ? "]" : "") \
			":" substr(tok, i + 1)
	}
	/Flags \[/ {
		for (i = 1; i <= NF; i++)
			if ($i == "IP" || $i == "IP6")
				break
		v6 = $i == "IP6"
		src = $(i + 1); dst = $(i + 3)
		if (v6 && src !~ /\.[0-9]+$/) {
			# an extension header first: "a > b: DSTOPT (padn) 1 > 2:"
			for (j = i + 4; j < NF; j++)
				if ($(j + 1) == ">" && $j ~ /^[0-9]+$/)
					break
			sub(/:$/, "", dst)
			src = src "." $j; dst = dst "." $(j + 2)
		}
		n = $NF
		if ($(NF - 1) == "length" && n > 0)
			count[file " " ep(src, v6) ">" ep(dst, v6) " size " n]++
	}
	END {
		for (k in count)
			print k, count[k]
	}' | sort
}
for f in $(awk '$2 == "format" { print $1 }' "$DATA/expected"); do
	tcp_sizes "$DATA/$f" >"$TMP/td.sizes"
	awk -v file="$f" '
	$1 == file && $3 == "proto" { proto[$2] = $4 }
	$1 == file && $3 == "size" && proto[$2] == "tcp" && $4 < 65536 { print }
	' "$DATA/expected" | sort >"$TMP/manifest.sizes"
	diff "$TMP/manifest.sizes" "$TMP/td.sizes" >"$TMP/sizes.diff"
	st=$?
	[ -s "$TMP/manifest.sizes" ] || st=1
	ok $st "tcpdump sees the manifest's TCP sizes in $f"
	[ $st -eq 0 ] || diag "$TMP/sizes.diff"
done

done_testing
