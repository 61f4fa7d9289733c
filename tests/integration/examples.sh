#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# examples.sh - every example command of README, the man pages and docs/*.md
# runs as written (the marking convention is in docs/HACKING.md).
. "$(dirname "$0")/lib.sh"
need_root "lab examples"
isolated_state

# extract: one example per line, "FILE:LINE<TAB>STATUS<TAB>COMMAND", STATUS
# "run" or the reason it is not run ("needs ...").
extract() {
	python3 - "$top_srcdir" <<'PY'
import glob, os, re, sys
top = sys.argv[1]
def blocks_md(path):
	for n, line in enumerate(open(path), 1):
		if re.match(r'^( {4,}|\t)', line):
			yield n, line.strip()
def blocks_man(path):
	inside = False
	for n, line in enumerate(open(path), 1):
		if line.startswith(('.nf', '.EX')):
			inside = True
		elif line.startswith(('.fi', '.EE')):
			inside = False
		elif inside:
			yield n, line.strip().replace('\\-', '-')
files = [('README', blocks_md)] + [(f, blocks_man) for f in
	('docs/tunetop.1', 'docs/tunetopd.8')] + [(f, blocks_md) for f in
	sorted(glob.glob(os.path.join(top, 'docs/*.md'))) if not f.endswith('HACKING.md')]
for name, fn in files:
	path = name if os.path.isabs(name) else os.path.join(top, name)
	cmd, start, need = '', 0, ''
	for n, text in fn(path):
		if text.startswith('# needs'):
			need = text[2:]
			continue
		if not cmd and not re.match(r'^(\$ )?(tunetop|tunetopd) [^ ]*[^:] ', text + ' '):
			need = ''
			continue
		if not cmd:
			start = n
			text = re.sub(r'^\$ ', '', text)
		m = re.search(r'\s+# (needs .*)$', text)
		if m:
			need, text = m.group(1), text[:m.start()]
		cmd += (' ' if cmd else '') + text.rstrip('\\').strip()
		if text.endswith(('&&', '\\', '|')):
			continue
		if not need and re.search(r'(^| )-H ', cmd):
			need = 'needs a remote host running tunetopd (-H)'
		print('%s:%d\t%s\t%s' % (os.path.relpath(path, top), start,
					 need or 'run', cmd))
		cmd, need = '', ''
PY
}

extract >"$TMP/examples" || { echo "not ok 1 - extracting the examples"; exit 1; }
mkdir -p "$TMP/bin" "$TMP/cwd"
ln -s "$TUNETOP" "$TMP/bin/tunetop"
ln -s "$TUNETOPD" "$TMP/bin/tunetopd"
PATH="$TMP/bin:$PATH"
export PATH
TUNETOP_DATADIR="$top_srcdir/data"
export TUNETOP_DATADIR
notrun=0
doc=""
while IFS='	' read -r where status cmd; do
	# Each document is a session of its own: its labs go when it ends.
	if [ "${where%%:*}" != "$doc" ]; then
		"$TUNETOP" lab down demo >/dev/null 2>&1
		doc=${where%%:*}
	fi
	if [ "$status" != run ]; then
		echo "# not run: $where: $cmd ($status)"
		notrun=$((notrun + 1))
		continue
	fi
	(cd "$TMP/cwd" && sh -c "$cmd") >"$TMP/out" 2>"$TMP/err" </dev/null
	rc=$?
	ok "$rc" "$where: $cmd (exit $rc)"
	[ "$rc" -eq 0 ] || { diag "$TMP/err"; tail -5 "$TMP/out" | sed 's/^/# /'; }
done <"$TMP/examples"
"$TUNETOP" lab down demo >/dev/null 2>&1
echo "# $notrun examples not run (reason above)"
done_testing
