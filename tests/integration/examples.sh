#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# examples.sh - every example command of README, the man pages and docs/*.md
# runs as written and shows what it claims (the marking convention, `# needs`
# and `# shows:`, is in docs/HACKING.md).  Each document runs in a mount
# namespace of its own, with empty /run/netns and /run/tunetop, so its labs
# ("demo") are its own; examples with -H run against a tunetopd of the test's
# own inside side b of a lab of the document's, tunetop inside side a.
. "$(dirname "$0")/lib.sh"
need_root "lab examples"
isolated_state

# Fewest claims the documents hold today: fewer checked means the extraction
# lost them, and the test would pass checking nothing.
MIN_CLAIMS=70
# The placeholder hosts the documents use for a tunetopd host.
HOSTS="server B A"
# Side b of a lab, where the test's own tunetopd listens.
LAB_B_ADDR=198.18.0.2

# extract: one example per line, "N<TAB>FILE:LINE<TAB>STATUS<TAB>EXITS<TAB>COMMAND",
# STATUS "run", "remote" (-H a placeholder host: run against the test's
# tunetopd, the host and key already replaced in COMMAND) or the reason it is
# not run ("needs ..."), EXITS the exit codes that pass ("0", or what a
# "# exits: 0 1" line allows); its claims, one extended regex a line, in
# $TMP/claims/N.
extract() {
	python3 - "$top_srcdir" "$TMP/claims" "$HOSTS" "$LAB_B_ADDR" "$TMP/knobs.key" <<'PY'
import glob, os, re, sys
top, claimdir, hosts, addr, key = sys.argv[1:6]
hosts = hosts.split()
os.makedirs(claimdir, exist_ok=True)
def blocks_md(path):
	for n, line in enumerate(open(path), 1):
		if re.match(r'^( {4,}|\t)', line):
			yield n, line.strip()
		else:
			yield n, None	# a blank or unindented line ends a paragraph
def blocks_man(path):
	inside = False
	for n, line in enumerate(open(path), 1):
		if line.startswith(('.nf', '.EX')):
			inside = True
			yield n, None
		elif line.startswith(('.fi', '.EE')):
			inside = False
		elif inside:
			yield n, line.strip().replace('\\-', '-') or None
files = [('README', blocks_md)] + [(f, blocks_man) for f in
	('docs/tunetop.1', 'docs/tunetopd.8')] + [(f, blocks_md) for f in
	sorted(glob.glob(os.path.join(top, 'docs/*.md'))) if not f.endswith('HACKING.md')]
# A trailing "# needs WHAT" or "# shows: REGEX" of an example's line.
trail = re.compile(r'\s+# (needs .*|shows: .*)$')
count = 0
for name, fn in files:
	path = name if os.path.isabs(name) else os.path.join(top, name)
	cmd, start, need, shows, exits = '', 0, '', [], '0'
	# An example begins a paragraph or follows a comment or another
	# example: an indented line of prose that wraps to begin with
	# "tunetop" is not one.
	prose = False
	for n, text in fn(path):
		if text is None:
			prose = False
			continue
		if text.startswith('# needs'):
			need, prose = text[2:], False
			continue
		if text.startswith('# shows: '):
			shows.append(text[len('# shows: '):])
			prose = False
			continue
		if re.match(r'^# exits: [0-9]+( [0-9]+)*$', text):
			exits, prose = text[len('# exits: '):], False
			continue
		if not cmd and (prose or not re.match(r'^(\$ )?(tunetop|tunetopd) [^ ]*[^:] ', text + ' ')):
			need, shows, exits = '', [], '0'
			prose = not text.startswith('#')
			continue
		if not cmd:
			start = n
			text = re.sub(r'^\$ ', '', text)
		m = trail.search(text)
		if m:
			if m.group(1).startswith('needs'):
				need = m.group(1)
			else:
				shows.append(m.group(1)[len('shows: '):])
			text = text[:m.start()]
		cmd += (' ' if cmd else '') + text.rstrip('\\').strip()
		if text.endswith(('&&', '\\', '|')):
			continue
		status = need or 'run'
		h = re.search(r'(^| )-H ([^ ]+)', cmd)
		if h and not need:
			if h.group(2) in hosts:
				status = 'remote'
				cmd = re.sub(r'(^| )-H [^ ]+', r'\1-H ' + addr, cmd)
				cmd = re.sub(r'(^| )--key [^ ]+', r'\1--key ' + key, cmd)
			else:
				status = 'needs a remote host running tunetopd (-H %s)' % h.group(2)
		count += 1
		with open(os.path.join(claimdir, str(count)), 'w') as f:
			f.writelines(s + '\n' for s in shows)
		print('%d\t%s:%d\t%s\t%s\t%s' % (count, os.path.relpath(path, top),
						 start, status, exits, cmd))
		cmd, need, shows, exits = '', '', [], '0'
PY
}

extract >"$TMP/examples" || { echo "not ok 1 - extracting the examples"; exit 1; }
mkdir -p "$TMP/bin" "$TMP/cwd"
ln -s "$TUNETOP" "$TMP/bin/tunetop"
ln -s "$TUNETOPD" "$TMP/bin/tunetopd"
PATH="$TMP/bin:$PATH"
TUNETOP_DATADIR="$top_srcdir/data"
export PATH TUNETOP_DATADIR TMP TUNETOP TUNETOPD

# One document's examples, run by sh inside `unshare -m`: $1 the document.
# Results go to $TMP/res as "RC<TAB>TEXT" (a TAP line each) and "#<TAB>TEXT"
# (diagnostics), counts to $TMP/counts.
cat >"$TMP/doc.sh" <<'INNER'
set -u
doc=$1
res() { printf '%s\t%s\n' "$1" "$2" >>"$TMP/res"; }
say() { sed 's/^/#	/' >>"$TMP/res"; }
mkdir -p /run/netns /run/tunetop &&
	mount -t tmpfs ex-netns /run/netns && mount -t tmpfs ex-tunetop /run/tunetop ||
	{ res 1 "$doc: private /run/netns and /run/tunetop"; exit 1; }
lab="exr$$" dpid=""
# The tunetopd goes with the document, however the document ends.
trap '[ -z "$dpid" ] || kill "$dpid" 2>/dev/null' EXIT
trap 'exit 1' INT TERM
# remote_up: once per document, a lab and in its side b a tunetopd that may
# change that side's knobs for a client holding $TMP/knobs.key.
remote_up() {
	[ -n "$dpid" ] && return 0
	[ -f "$TMP/knobs.key" ] || "$TUNETOPD" --gen-key "$TMP/knobs.key" \
		>"$TMP/rd-$lab.log" 2>&1 </dev/null || return 1
	tunetop lab up --name "$lab" >>"$TMP/rd-$lab.log" 2>&1 </dev/null || return 1
	ip netns exec "$lab-b" "$TUNETOPD" -f --knobs --key "$TMP/knobs.key" \
		>>"$TMP/rd-$lab.log" 2>&1 </dev/null &
	dpid=$!
	# lib.sh's wait_listening is not defined in this sh of its own
	for _ in $(seq 100); do
		grep -q "listening on" "$TMP/rd-$lab.log" && return 0
		sleep 0.1
	done
	return 1	# the caller shows the log
}
run=0 claims=0 notrun=0
while IFS='	' read -r n where status exits cmd; do
	[ "${where%%:*}" = "$doc" ] || continue
	case $status in
	run) inns="" ;;
	remote)
		if ! remote_up; then
			res 1 "$where: a tunetopd of the test's own in lab $lab"
			say <"$TMP/rd-$lab.log"
			continue
		fi
		inns="ip netns exec $lab-a" ;;
	*)
		printf '#\tnot run: %s: %s (%s)\n' "$where" "$cmd" "$status" >>"$TMP/res"
		notrun=$((notrun + 1))
		continue ;;
	esac
	$inns sh -c "cd '$TMP/cwd' && $cmd" >"$TMP/out" 2>&1 </dev/null
	rc=$?
	run=$((run + 1))
	k=0
	: >"$TMP/unshown"
	while IFS= read -r re; do
		k=$((k + 1))
		grep -Eq -- "$re" "$TMP/out" || echo "not shown: $re" >>"$TMP/unshown"
	done <"$TMP/claims/$n"
	claims=$((claims + k))
	case " $exits " in *" $rc "*) rcok=0 ;; *) rcok=1 ;; esac
	[ "$rcok" -eq 0 ] && [ ! -s "$TMP/unshown" ]
	res $? "$where: $cmd (exit $rc, $k claims)"
	if [ "$rcok" -ne 0 ] || [ -s "$TMP/unshown" ]; then
		say <"$TMP/unshown"
		tail -15 "$TMP/out" | say
	fi
done <"$TMP/examples"
if [ -n "$dpid" ]; then
	kill "$dpid"
	wait "$dpid"
	dpid=""
fi
# Its labs go when the document ends: "demo" and the tunetopd's.
for l in $(ls /run/tunetop/labs 2>/dev/null); do
	tunetop lab down "$l" >/dev/null 2>&1 </dev/null
done
[ -z "$(ls -A /run/netns)" ]
res $? "$doc: its labs are removed at its end ($(ls /run/netns | tr '\n' ' '))"
echo "$run $claims $notrun" >>"$TMP/counts"
INNER

# The host's knobs before, to see no example changed one.
"$TUNETOP" knobs list >"$TMP/host-before" 2>&1
for doc in $(cut -f2 "$TMP/examples" | sed 's/:.*//' | uniq); do
	: >"$TMP/res"
	unshare -m --propagation private sh "$TMP/doc.sh" "$doc"
	while IFS='	' read -r rc text; do
		if [ "$rc" = "#" ]; then
			echo "# $text"
		else
			ok "$rc" "$text"
		fi
	done <"$TMP/res"
done
"$TUNETOP" knobs list >"$TMP/host-after" 2>&1
diff "$TMP/host-before" "$TMP/host-after" >"$TMP/host-diff"
ok $? "no knob of the host changed"
diag "$TMP/host-diff"
set -- $(awk '{r += $1; c += $2; n += $3} END {print r + 0, c + 0, n + 0}' "$TMP/counts")
[ "$2" -ge "$MIN_CLAIMS" ]
ok $? "$1 examples run, $2 claims checked (at least $MIN_CLAIMS), $3 not run (reason above)"
done_testing
