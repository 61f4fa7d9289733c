#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Bad options get one line naming the option and what is accepted, exit 2;
# an unreachable server gets a clear error within the connect timeout.
. "$(dirname "$0")/lib.sh"

check() {
	want=$1
	shift
	"$TUNETOP" "$@" >"$TMP/out" 2>"$TMP/err"
	rc=$?
	[ $rc -eq 2 ] && [ "$(wc -l <"$TMP/err")" -eq 1 ] && grep -q -- "$want" "$TMP/err" && [ ! -s "$TMP/out" ]
	ok $? "tunetop $* -> exit 2, one line naming $want (rc $rc: $(head -c 150 "$TMP/err"))"
}

check "-t" run -t TCP_FOO
check "-l" run -l abc
check "-l" run -l -5
check "-r" run -- -r 0
check "-m" run -t TCP_STREAM -- -m 12X
check "-T" run -T a,b
check "-i" run -i 40,3
check "-I" run -I 90,5
check "-n" run -- -n 0
check "-b" run -- -b 99999
check "-Z" run -Z
check "-H" run -H
check "BOGUS" run -- -o BOGUS
check "frobnicate" frobnicate
check "--connect-timeout" run --connect-timeout 0
# Bad lab names are usage errors too, named with what is accepted (and a
# control character in one is shown escaped).
check 'lab name "a/b": invalid (1 to 40 of' lab up --name a/b
check 'lab name "x y": invalid' lab down "x y"
check 'option -\\x1b\[31m: unknown' lab down "-$(printf '\033[31m')"
check 'lab name "\\x1b\[31m": invalid' lab status "$(printf '\033[31m')"
check "option --lab: lab name" run --lab ../x -l 1
check "option --lab: lab name" knobs list --side lab-a --lab "-x"
check "--connect-timeout" run --connect-timeout soon

"$TUNETOPD" -p 99999 >"$TMP/out" 2>"$TMP/err"
[ $? -eq 2 ] && grep -q -- "-p" "$TMP/err"
ok $? "tunetopd -p 99999 -> exit 2 naming -p"

"$TUNETOPD" --gen-key "$TMP/key" >"$TMP/out" 2>"$TMP/err"
[ $? -eq 0 ] && [ "$(stat -c %a "$TMP/key")" = 600 ] && [ "$(tr -d '\n' <"$TMP/key" | wc -c)" -eq 64 ]
ok $? "tunetopd --gen-key writes a 64-hex-digit key, mode 0600"
"$TUNETOPD" --gen-key "$TMP/key" >"$TMP/out" 2>"$TMP/err"
[ $? -eq 1 ] && grep -q "not overwritten" "$TMP/err"
ok $? "tunetopd --gen-key never overwrites a key file"

# A port nobody listens on: refused at once.
port=$(free_port)
start=$(date +%s)
"$TUNETOP" run -H 127.0.0.1 -p "$port" -l 1 >"$TMP/out" 2>"$TMP/err"
rc=$?
[ $rc -ne 0 ] && grep -q "127.0.0.1" "$TMP/err" && grep -qi "refused" "$TMP/err"
ok $? "a closed port: a clear 'refused' error naming the host (rc $rc)"

# A server that never accepts (full backlog): the connect timeout.
python3 - "$TMP/port" <<'PY' &
import socket, sys, time
s = socket.socket(); s.bind(("127.0.0.1", 0)); s.listen(0)
fill = []
for _ in range(4):
    c = socket.socket(); c.setblocking(False)
    try: c.connect(s.getsockname())
    except BlockingIOError: pass
    fill.append(c)
open(sys.argv[1], "w").write(str(s.getsockname()[1]))
time.sleep(30)
PY
PIDS="$PIDS $!"
wait_file "$TMP/port"
start=$(date +%s)
"$TUNETOP" run -H 127.0.0.1 -p "$(cat "$TMP/port")" -l 1 --connect-timeout 2 >"$TMP/out" 2>"$TMP/err"
rc=$?
took=$(( $(date +%s) - start ))
[ $rc -eq 1 ] && [ $took -ge 1 ] && [ $took -le 4 ] && grep -q "no answer within the connect timeout" "$TMP/err"
ok $? "an unanswered connect fails with a timeout error within the connect timeout (${took}s, rc $rc)"
[ $rc -ne 0 ] || diag "$TMP/err"

done_testing
