#!/usr/bin/env bash
# End-to-end test of the photopick terminal browser, driven through tmux.
#
# Every run of the binary happens in its own tmux session on a private socket, inside a wrapper
# that records `stty -a` of the pane's terminal before start and after exit, and the exit code.
# All XDG directories and download folders live in one temporary directory, removed on exit.
# The embedded server (`photopick serve`) is started over the same data directory *after* the
# browser has exited, to check what really reached the server and the disk.
#
#   Tests/e2e/tui.sh                       # uses .build/debug/photopick
#   PHOTOPICK=/path/to/photopick Tests/e2e/tui.sh
#   KEEP_TMP=1 Tests/e2e/tui.sh            # keep the temporary directory for a post-mortem
set -euo pipefail
set -E
source "$(dirname "$0")/lib.sh"
e2e_setup photopick-e2e tmux python3 curl pgrep cmp sha256sum

unset TMUX TMUX_PANE
SOCKET=photopick-e2e-$$
KEY=pp_test_e2e_key            # keys must be pp_test_ plus at least 4 letters, digits or '_'
XDG=$TMP/xdg
export_env=(
  "XDG_DATA_HOME=$XDG/data" "XDG_STATE_HOME=$XDG/state" "XDG_CONFIG_HOME=$XDG/config" "XDG_CACHE_HOME=$XDG/cache"
)
DEMO_DATA=$XDG/data/photopick/demo
DOWNLOADS=$TMP/downloads
mkdir -p "$XDG/data" "$XDG/state" "$XDG/config" "$XDG/cache" "$DOWNLOADS" "$TMP/runs"

TARGET=""
RUN=""

tm() { tmux -L "$SOCKET" "$@"; }

cleanup() {
  local status=$?
  trap - ERR
  stop_servers
  # A browser still running in a pane (after a failure) is stopped and waited for before its
  # directories are removed.
  local wrapper children=() i pid
  for wrapper in $(tm list-panes -a -F '#{pane_pid}' 2>/dev/null || true); do
    for pid in $(pgrep -P "$wrapper" 2>/dev/null || true); do children+=("$pid"); done
  done
  for pid in ${children[@]+"${children[@]}"}; do kill -TERM "$pid" 2>/dev/null || true; done
  for i in $(seq 50); do
    local alive=0
    for pid in ${children[@]+"${children[@]}"}; do kill -0 "$pid" 2>/dev/null && alive=1; done
    [ "$alive" = 0 ] && break
    sleep 0.1
  done
  tm kill-server 2>/dev/null || true
  remove_tmp
  exit "$status"
}
trap cleanup EXIT
trap 'echo "not ok - unexpected failure (exit $?) at line $LINENO: $BASH_COMMAND" >&2' ERR

show_pane() {
  [ -n "$TARGET" ] || return 0
  echo "---- pane $TARGET ----" >&2
  tm capture-pane -p -t "$TARGET" >&2 2>/dev/null || echo "(pane is gone)" >&2
  echo "---- end of pane ----" >&2
}

# on_failure: after `fail`'s line, the pane, how photopick exited and the end of its log.
on_failure() {
  show_pane
  if [ -n "$RUN" ] && [ -f "$RUN/code" ]; then echo "# photopick exited with $(cat "$RUN/code")" >&2; fi
  local log=${RUN_LOG:-$XDG/state/photopick/photopick.log}   # RUN_LOG: a scenario with its own XDG directories
  if [ -f "$log" ]; then echo "---- last lines of $log ----" >&2; tail -n 15 "$log" >&2; fi
  echo "# FAILED after $CHECKS passing checks ($((SECONDS - START)) s)" >&2
}

pane() { tm capture-pane -p -t "$TARGET"; }
now_ns() { date +%s%N; }

# _wait MODE PATTERN TIMEOUT: poll the pane every 0.1 s until PATTERN is there (MODE fixed or
# regex) or gone (MODE gone).
_wait() {
  local mode=$1 pattern=$2 timeout=$3 text
  local deadline=$(( $(now_ns) + timeout * 1000000000 ))
  while :; do
    text=$(pane 2>/dev/null || true)
    case $mode in
      fixed) grep -qF -- "$pattern" <<<"$text" && return 0 ;;
      regex) grep -qE -- "$pattern" <<<"$text" && return 0 ;;
      gone) grep -qF -- "$pattern" <<<"$text" || return 0 ;;
    esac
    if [ "$(now_ns)" -ge "$deadline" ]; then
      case $mode in
        gone) fail "timed out after ${timeout}s waiting for '$pattern' to leave the screen" ;;
        *) fail "timed out after ${timeout}s waiting for '$pattern' on the screen" ;;
      esac
    fi
    sleep 0.1
  done
}
wait_for() { _wait fixed "$1" "${2:-20}"; }
wait_for_re() { _wait regex "$1" "${2:-20}"; }
wait_gone() { _wait gone "$1" "${2:-20}"; }

# The wrapper run in each pane: stty before, the command, its exit code, stty after. The code
# file is written last and renamed into place, so once it exists the stty files are complete.
cat >"$TMP/run.sh" <<'EOF'
#!/bin/sh
dir=$1; shift
trap ':' INT          # a handler, not SIG_IGN: the child still gets the default; the wrapper survives Ctrl-C
stty -a >"$dir/stty.before" 2>&1
"$@"
code=$?
stty -a >"$dir/stty.after" 2>&1
echo "$code" >"$dir/code.tmp" && mv "$dir/code.tmp" "$dir/code"
exec sleep 600
EOF

# launch NAME DOWNLOAD_DIR [VAR=VALUE...] [-- PHOTOPICK_ARGS...]: start photopick in a new 120x40
# session NAME, with the test's XDG directories, no API key unless given, TERM=xterm-256color.
launch() {
  local name=$1 dir=$2; shift 2
  local env_args=()
  while [ $# -gt 0 ] && [ "$1" != -- ]; do env_args+=("$1"); shift; done
  [ $# -gt 0 ] && shift
  RUN=$TMP/runs/$name
  TARGET=$name
  mkdir -p "$RUN" "$dir"
  tm new-session -d -s "$name" -x 120 -y 40 -c "$ROOT" \
    /bin/sh "$TMP/run.sh" "$RUN" \
    env -u PHOTOPICK_API_KEY -u NO_COLOR -u COLUMNS -u LINES TERM=xterm-256color "${export_env[@]}" \
    ${env_args[@]+"${env_args[@]}"} "$PHOTOPICK" --download-dir "$dir" "$@"
}

# wait_exit [TIMEOUT]: wait for the exit-code file of the current run.
wait_exit() {
  local timeout=${1:-20}
  local deadline=$(( $(now_ns) + timeout * 1000000000 ))
  until [ -s "$RUN/code" ]; do
    [ "$(now_ns)" -lt "$deadline" ] || fail "photopick did not exit within ${timeout}s"
    sleep 0.1
  done
}

# expect_exit CODE [TIMEOUT]: the run ended with CODE.
expect_exit() {
  wait_exit "${2:-20}"
  local code
  code=$(cat "$RUN/code")
  [ "$code" = "$1" ] || fail "exit code is $code, expected $1"
  ok "$TARGET: exit code $1"
}

# expect_same_tty [--ignore-size]: stty -a after the run equals stty -a before it.
expect_same_tty() {
  local before=$RUN/stty.before after=$RUN/stty.after
  if [ "${1:-}" = --ignore-size ]; then
    sed -E 's/rows [0-9]+; columns [0-9]+;//' "$before" >"$before.nosize"
    sed -E 's/rows [0-9]+; columns [0-9]+;//' "$after" >"$after.nosize"
    before=$before.nosize after=$after.nosize
  fi
  if ! diff -u "$before" "$after" >"$RUN/stty.diff"; then
    cat "$RUN/stty.diff" >&2
    fail "$TARGET: terminal modes differ after exit (stty -a)"
  fi
  ok "$TARGET: terminal modes restored (stty -a identical before and after${1:+, ignoring the size})"
}

end_session() {
  tm kill-session -t "$TARGET" 2>/dev/null || true
  TARGET=""
  RUN=""
}

# quit_with_q: q, confirming with y if it asks (it asks only while downloads or tag edits are pending).
quit_with_q() {
  tm send-keys -t "$TARGET" q
  local deadline=$(( $(now_ns) + 20 * 1000000000 ))
  until [ -s "$RUN/code" ]; do
    if pane 2>/dev/null | grep -qF "Quit?"; then
      echo "# $TARGET: q asked 'Quit?' (work still pending); answering y"
      tm send-keys -t "$TARGET" y
      break
    fi
    [ "$(now_ns)" -lt "$deadline" ] || fail "photopick did not exit within 20s of q"
    sleep 0.1
  done
}

# photopick_pid MARKER: sets PID to the photopick process (child of the pane's wrapper) whose
# command line contains MARKER.
photopick_pid() {
  local marker=$1 wrapper pid="" i
  wrapper=$(tm display-message -p -t "$TARGET" '#{pane_pid}')
  for i in $(seq 50); do
    pid=$(pgrep -P "$wrapper" -f -- "$marker" || true)
    [ -n "$pid" ] && break
    sleep 0.1
  done
  [ -n "$pid" ] || fail "no photopick process with '$marker' under the pane's wrapper (pid $wrapper)"
  [ "$(wc -w <<<"$pid")" = 1 ] || fail "several processes match '$marker': $pid"
  PID=$pid
}

# check.py DUMP TAG FILE...: each FILE names one photo and, unless TAG is empty, the tag exists once
# and exactly those photos carry it. Prints "id<TAB>bytes<TAB>filename" for them.
cat >"$TMP/check.py" <<'EOF'
import json, sys

dump, tag_name, files = sys.argv[1], sys.argv[2], sys.argv[3:]
library = json.load(open(dump))
by_name = {}
for photo in library["photos"]:
    by_name.setdefault(photo["filename"], []).append(photo)
chosen = []
for name in files:
    matches = by_name.get(name, [])
    if len(matches) != 1:
        raise SystemExit(f"{len(matches)} photos on the server are named {name!r}, expected 1")
    chosen.append(matches[0])
if tag_name:
    tags = [t for t in library["tags"] if t["name"] == tag_name]
    if len(tags) != 1:
        raise SystemExit(f"tag {tag_name!r}: {len(tags)} on the server, expected 1")
    tag = tags[0]["id"]
    carrying = sorted(p["id"] for p in library["photos"] if tag in p.get("tagIds", []))
    expected = sorted(p["id"] for p in chosen)
    if carrying != expected:
        raise SystemExit(f"photos carrying {tag_name!r} (id {tag}): {carrying}, expected {expected}")
for photo in chosen:
    print(f"{photo['id']}\t{photo['bytes']}\t{photo['filename']}")
EOF

# verify_server_state LABEL DATA FOLDER TAG: with the browser closed, serve its data directory DATA and
# check every file downloaded to FOLDER (listed in DOWNLOADED) against the original bytes, and, unless
# TAG is empty, that exactly those photos carry TAG on the server.
verify_server_state() {
  local label=$1 data=$2 folder=$3 tag=$4
  start_server "$label" "$data"
  ok "$label: photopick serve on the demo data answers at $SERVER_URL"
  read_library "$SERVER_URL" "$TMP/library-$label.json" || fail "$label: could not read the library from $SERVER_URL"
  local chosen
  chosen=$(python3 "$TMP/check.py" "$TMP/library-$label.json" "$tag" "${DOWNLOADED[@]}") \
    || fail "$label: the downloaded files do not match the server (above)"
  [ -z "$tag" ] || ok "$label: tag '$tag' exists on the server and exactly the ${#DOWNLOADED[@]} photos ${DOWNLOADED[*]} carry it"
  local id bytes name original
  mkdir -p "$TMP/originals-$label"
  while IFS=$'\t' read -r id bytes name; do
    original=$TMP/originals-$label/$id
    curl -fsSL --max-time 60 -H "Authorization: Bearer $KEY" -o "$original" "$SERVER_URL/photos/$id/download" \
      || fail "$label: could not fetch the original of photo $id"
    [ "$(stat -c %s "$original")" = "$bytes" ] || fail "$label: the server's original of photo $id is not $bytes bytes"
    cmp -s "$original" "$folder/$name" || fail "$label: $folder/$name differs from the original of photo $id"
    ok "$label: $name is byte-identical to the server's original of photo $id ($bytes bytes)"
  done <<<"$chosen"
  stop_server
}

# expect_downloads LABEL FOLDER WHAT NAME...: FOLDER holds exactly the regular files NAME... and no
# .part, the NAME... being WHAT (as the check says); DOWNLOADED is set to its listing.
expect_downloads() {
  local label=$1 folder=$2 what=$3 name
  shift 3
  mapfile -t DOWNLOADED < <(download_listing "$folder")
  [ "${#DOWNLOADED[@]}" = $# ] \
    || fail "$label: expected exactly $# entries in the download folder, found ${#DOWNLOADED[@]}: ${DOWNLOADED[*]}"
  for name in "${DOWNLOADED[@]}"; do
    [[ $name != *.part ]] || fail "$label: a .part file was left behind: $name"
    [ -f "$folder/$name" ] || fail "$label: $name in the download folder is not a regular file"
  done
  [ "$(printf '%s\n' "${DOWNLOADED[@]}")" = "$(printf '%s\n' "$@" | LC_ALL=C sort)" ] \
    || fail "$label: downloaded ${DOWNLOADED[*]}, but selected $*"
  ok "$label: exactly $# files downloaded, no .part left, named as the $what"
}

# download_listing [DIR]: every entry in the download folder (DIR, or $DOWNLOADS), hidden ones included.
# Presses d in session $1 and waits until its $2 photos are fetched and the strip shows them done.
download_all() {
  local session=$1 count=$2 status
  tm send-keys -t "$session" d
  wait_for "Downloads finished: $count fetched" 120
  status=$(pane | grep -F "Downloads finished:")
  grep -qF "$count fetched, 0 already there, 0 failed." <<<"$status" || fail "$session: unexpected download summary: $status"
  wait_for_re "↓ $count done .*100%"
  ok "$session: d downloads the $count photos ($(sed 's/^ *//; s/ *[0-9]*\/[0-9,]*$//' <<<"$status"))"
}

# The names of the list rows marked selected (✓ in colour, * in mono), top to bottom; the tag chips
# and the marks (flag, stars, label) between the mark and the name, as wide as the rows need, are skipped.
marked_rows() {
  pane | python3 -c '
import re, sys
for line in sys.stdin:
    m = re.match(r"^ [✓*] [ ●+]*[ ⚑✕★●]*(\S.*?)\s{2,}\d{4}-\d\d-\d\d ", line)
    if m:
        print(m.group(1))
'
}

download_listing() { (cd "${1:-$DOWNLOADS}" && find . -mindepth 1 -printf '%P\n' | LC_ALL=C sort); }

# snapshot_downloads OUT: SHA-256, then name, inode, size and mtime, of every downloaded file, into OUT.
snapshot_downloads() {
  (cd "$DOWNLOADS" && sha256sum -- "${DOWNLOADED[@]}" && stat -c '%n %i %s %Y' -- "${DOWNLOADED[@]}") >"$1"
}

# expect_one_line PREFIX WHAT: after the run, the restored screen of the current session holds one
# line, starting with PREFIX; WHAT describes it in the failure message.
expect_one_line() {
  local prefix=$1 what=$2 lines
  # -J joins the terminal's wrapping of a long line, so what is left is what was printed.
  mapfile -t lines < <(tm capture-pane -p -J -t "$TARGET" | grep -v '^ *$')
  [ "${#lines[@]}" = 1 ] && [[ ${lines[0]} == "$prefix"* ]] \
    || { printf '  | %s\n' "${lines[@]}" >&2; fail "$TARGET: expected $what on the restored screen"; }
  ok "$TARGET: one line on the restored screen: ${lines[0]}"
}

# ----------------------------------------------------------------------------------------------
echo "# photopick e2e: $PHOTOPICK"
echo "# temporary directory $TMP, tmux socket $SOCKET"
# A session that lives for the whole script keeps the tmux server up between runs.
tm new-session -d -s keeper -x 120 -y 40 sleep 100000
tm set-option -g default-terminal xterm-256color >/dev/null

# ---- Scenario 1: first run ------------------------------------------------------------------
echo "# scenario 1: first run: move, filter, select, tag, download, quit"
TAG=e2e-$$-$RANDOM
launch s1 "$DOWNLOADS"
# The status line counts rows: 2,000 photos, 180 of them RAW+JPEG pairs listed as one row each.
wait_for "/1,820" 90
ok "s1: the demo library opened and all 2,000 photos are listed, in 1,820 rows (a RAW+JPEG pair is one)"
header=$(pane | head -n 1)
[[ $header == " photopick"* ]] || fail "s1: the header does not start with ' photopick': $header"
grep -qF "Demo library" <<<"$header" || fail "s1: the header does not say 'Demo library': $header"
pane | sed -n 2p | grep -qE 'Name +Taken' || fail "s1: row 1 has no column titles"
ok "s1: header and column titles drawn"
log=$XDG/state/photopick/photopick.log
grep -qF "demo library: 2000 photos in $DEMO_DATA, served at http://127.0.0.1:" "$log" \
  || fail "s1: the log has no 'demo library: 2000 photos in $DEMO_DATA' line"
ok "s1: the log names the demo library in \$XDG_DATA_HOME"

tm send-keys -t s1 j j
wait_for_re ' 3/1,820$'
ok "s1: j j moves to 3/1,820"

tm send-keys -t s1 /
tm send-keys -t s1 -l R00068
tm send-keys -t s1 Enter
wait_for_re '[0-9,]+ shown'
header=$(pane | head -n 1)
grep -qF "/R00068" <<<"$header" || fail "s1: the header does not show the filter /R00068: $header"
shown=$(grep -oE '[0-9,]+ shown' <<<"$header")
ok "s1: the filter R00068 is kept after Enter ($shown)"

tm send-keys -t s1 Space Space Space
wait_for "3 selected"
# Selected rows carry ✓ in column 1; their names are what must be downloaded and tagged.
mapfile -t SELECTED < <(marked_rows)
[ "${#SELECTED[@]}" = 3 ] || fail "s1: expected 3 rows marked selected, found ${#SELECTED[@]}: ${SELECTED[*]}"
ok "s1: space x3 selects 3 photos (${SELECTED[*]})"

tm send-keys -t s1 t
wait_for "Tag 3 photos"
tm send-keys -t s1 -l "$TAG"
wait_for "Create tag “$TAG”"
tm send-keys -t s1 Enter
wait_for "[x]"
line=$(pane | grep -F "[x]")
grep -qF "$TAG" <<<"$line" || fail "s1: the checked picker entry is not $TAG: $line"
grep -qF "3 photos" <<<"$line" || fail "s1: the new tag does not count 3 photos: $line"
ok "s1: t creates the tag $TAG and adds it to the 3 photos"
tm send-keys -t s1 Escape
wait_gone "Tag 3 photos"
ok "s1: Esc closes the tag picker"

download_all s1 3

quit_with_q
expect_exit 0
expect_same_tty
end_session

expect_downloads s1 "$DOWNLOADS" "selected photos" "${SELECTED[@]}"
verify_server_state s1 "$DEMO_DATA" "$DOWNLOADS" "$TAG"
snapshot_downloads "$TMP/downloads-s1.txt"

# ---- Scenario 2: restart -------------------------------------------------------------------
echo "# scenario 2: restart with the same state: the tag shows, a second download is skipped"
launch s2 "$DOWNLOADS"
wait_for "/1,820" 60
ok "s2: reopened on the same library"
FIRST=${DOWNLOADED[0]}
tm send-keys -t s2 /
tm send-keys -t s2 -l "$FIRST"
tm send-keys -t s2 Enter
wait_for_re '(^| )1 shown'
wait_for "$TAG"
line=$(pane | grep -E '│ Tags ' || true)
grep -qF "$TAG" <<<"$line" || fail "s2: the side pane's Tags row does not name $TAG: '$line'"
ok "s2: filtering by $FIRST shows the tag in the side pane ($(sed 's/.*│ //' <<<"$line"))"
tm send-keys -t s2 d
# The queue remembers the earlier download, and its file is still there.
wait_for_re '1 already downloaded' 60
message=$(pane | grep -oE '[^│]*1 already downloaded[^│]*' | tail -n 1 | sed 's/^ *//; s/ *[0-9]*\/[0-9,]*$//' || true)
ok "s2: d again reports the photo as already there ($message)"
quit_with_q
expect_exit 0
expect_same_tty
end_session

mapfile -t again < <(download_listing)
[ "$(printf '%s\n' "${again[@]}")" = "$(printf '%s\n' "${DOWNLOADED[@]}")" ] \
  || fail "s2: the download folder changed: ${again[*]}"
snapshot_downloads "$TMP/downloads-s2.txt"
diff -u "$TMP/downloads-s1.txt" "$TMP/downloads-s2.txt" >&2 || fail "s2: downloaded files changed (checksum, inode, size or mtime)"
ok "s2: the 3 files are still there, unchanged (same SHA-256, inode, size and mtime)"
verify_server_state s2 "$DEMO_DATA" "$DOWNLOADS" "$TAG"

# ---- Scenario 3: signals restore the terminal -------------------------------------------------
echo "# scenario 3: SIGTERM, SIGHUP and Ctrl-C restore the terminal"
for case in TERM:143 HUP:129; do
  signal=${case%%:*} code=${case##*:}
  name=s3-$(tr 'A-Z' 'a-z' <<<"$signal")
  marker=$TMP/signal-$signal-downloads
  launch "$name" "$marker"
  wait_for "/1,820"
  photopick_pid "$marker"
  kill -"$signal" "$PID"
  expect_exit "$code"
  ! kill -0 "$PID" 2>/dev/null || fail "$name: photopick (pid $PID) still runs after SIG$signal"
  expect_same_tty
  end_session
done
launch s3-ctrl-c "$TMP/ctrl-c-downloads"
wait_for "/1,820"
# The wrapper's sh has no job control, so no shell would take the terminal back: Ctrl-Z says so and
# leaves the browser as it was, instead of tearing the screen down for a stop the kernel drops.
tm send-keys -t s3-ctrl-c C-z
wait_for "ctrl-z cannot suspend: photopick was not started from a shell with job control; q quits"
pane | grep -qF "R0006867.DNG" || fail "s3-ctrl-c: the list is gone after a Ctrl-Z that could not suspend"
ok "s3-ctrl-c: Ctrl-Z without a job-control shell says why it cannot suspend, and the list stays"
tm send-keys -t s3-ctrl-c C-c
expect_exit 0
expect_same_tty
end_session

# From an interactive shell: Ctrl-Z stops photopick as a job, the shell has the terminal, fg brings
# the browser back whole.
TARGET=s3-job
tm new-session -d -s s3-job -x 120 -y 40 -c "$ROOT" env -u PHOTOPICK_API_KEY TERM=xterm-256color PS1='$ ' "${export_env[@]}" bash --norc --noprofile -i
wait_for '$'
tm send-keys -t s3-job -l "$PHOTOPICK --download-dir $TMP/job-downloads"
tm send-keys -t s3-job Enter
wait_for "/1,820"
tm send-keys -t s3-job C-z
wait_for_re "Stopped +$PHOTOPICK"
photopick_pid "$TMP/job-downloads"
ps -o stat= -p "$PID" | grep -q '^T' || fail "s3-job: photopick (pid $PID) is not stopped after Ctrl-Z"
tm send-keys -t s3-job fg Enter
wait_for "/1,820"
pane | grep -qF "R0006867.DNG" || fail "s3-job: the list is not drawn whole after fg"
ok "s3-job: Ctrl-Z from bash stops photopick as a job (the shell says Stopped), fg draws the list again"
tm send-keys -t s3-job q
wait_gone "/1,820"
end_session

# ---- Scenario 4: start-up errors are reported after the screen is restored ------------------
echo "# scenario 4: a refused key (exit 3) and an unreachable server (exit 4)"
start_server s4 "$TMP/s4-data" --photos 100
launch s4-key "$TMP/s4-downloads" PHOTOPICK_API_KEY=pp_test_wrong -- --api-url "$SERVER_URL"
expect_exit 3 30
expect_one_line "photopick: The API key was refused" "one line 'photopick: The API key was refused...'"
expect_same_tty
end_session
stop_server

launch s4-net "$TMP/s4-downloads" PHOTOPICK_API_KEY=pp_test_anything -- --api-url http://127.0.0.1:1/api/v1
expect_exit 4 60
expect_one_line "photopick: " "one 'photopick: ...' line"
expect_same_tty
end_session

# ---- Scenario 5: a burst of resizes ------------------------------------------------------------
echo "# scenario 5: 50 resizes in about a second, ending at 100x30"
launch s5 "$TMP/s5-downloads"
wait_for "/1,820"
burst_start=$(now_ns)
for i in $(seq 49); do
  if [ $((i % 2)) = 1 ]; then tm resize-window -t s5 -x 60 -y 20; else tm resize-window -t s5 -x 130 -y 45; fi
  sleep 0.015   # spreads the 50 resizes over about a second
done
tm resize-window -t s5 -x 100 -y 30
burst_ms=$(( ($(now_ns) - burst_start) / 1000000 ))
sleep 1
size=$(tm display-message -p -t s5 '#{pane_width}x#{pane_height}')
[ "$size" = 100x30 ] || fail "s5: the pane is $size after the burst, expected 100x30"
pane >"$TMP/s5-screen.txt"
python3 - "$TMP/s5-screen.txt" <<'EOF' || fail "s5: the screen is not laid out for 100x30 (above)"
import sys, unicodedata

def width(text):
    return sum(0 if unicodedata.combining(c) else 2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in text)

lines = open(sys.argv[1], encoding="utf-8").read().split("\n")
if lines and lines[-1] == "":
    lines.pop()
problems = []
if len(lines) != 30:
    problems.append(f"{len(lines)} lines captured, expected 30")
if not lines or not lines[0].startswith(" photopick"):
    problems.append(f"first line does not start with ' photopick': {lines[0] if lines else ''!r}")
status = lines[-1] if lines else ""
if "/1,820" not in status:
    problems.append(f"last line has no '/1,820': {status!r}")
elif width(status.rstrip()) < 98:
    problems.append(f"status line ends at column {width(status.rstrip())}, not at the right edge of 100: {status!r}")
for number, line in enumerate(lines):
    if width(line) > 100:
        problems.append(f"line {number} is {width(line)} columns wide: {line!r}")
for problem in problems:
    print("  " + problem, file=sys.stderr)
if problems:
    for line in lines:
        print("  | " + line, file=sys.stderr)
    sys.exit(1)
EOF
ok "s5: after 50 resizes in ${burst_ms} ms the screen is drawn for 100x30 (header, status with /1,820, no line over 100 columns)"
quit_with_q
expect_exit 0
expect_same_tty --ignore-size
end_session

# ---- Scenario 6: the contact sheet -----------------------------------------------------------
echo "# scenario 6: grid on a fresh library: thumbnails, 2-D moves, select 2 tiles, download, full-screen preview, back"
# Its own XDG directories, so the demo library, the state and the preview cache start empty. The
# download folder is where XDG_DOWNLOAD_DIR leads, and is also given as --download-dir (launch
# always passes one). VAR=VALUE given to launch come after the shared ones, so they win.
S6=$TMP/s6
S6_XDG=$S6/xdg
S6_DEMO_DATA=$S6_XDG/data/photopick/demo
S6_PREVIEWS=$S6_XDG/cache/photopick/previews
S6_DOWNLOADS=$S6/downloads/photopick
mkdir -p "$S6_XDG/data" "$S6_XDG/state" "$S6_XDG/config" "$S6_XDG/cache" "$S6_DOWNLOADS"
RUN_LOG=$S6_XDG/state/photopick/photopick.log
launch s6 "$S6_DOWNLOADS" \
  "XDG_DATA_HOME=$S6_XDG/data" "XDG_STATE_HOME=$S6_XDG/state" "XDG_CONFIG_HOME=$S6_XDG/config" \
  "XDG_CACHE_HOME=$S6_XDG/cache" "XDG_DOWNLOAD_DIR=$S6/downloads"
wait_for "/1,820" 90
grep -qF "demo library: 2000 photos in $S6_DEMO_DATA, served at http://127.0.0.1:" "$RUN_LOG" \
  || fail "s6: the log has no 'demo library: 2000 photos in $S6_DEMO_DATA' line"
ok "s6: a fresh demo library made in the scenario's own \$XDG_DATA_HOME lists all 2,000 photos"

# At 120x40 the sheet is 5 tiles of 23 columns across, and 3 rows of 11 lines (7 thumbnail rows, the
# mark and name, the tag chips, the frame) below the header. Only the current tile is framed, and
# thumbnails are at most 21 columns wide.
tm send-keys -t s6 Tab
wait_for_re '┌(─){21}┐'
# libchafa draws previews in block elements (U+2580–U+259F), spaces where a cell is one colour.
BLOCKS='[▀▁▂▃▄▅▆▇█▉▊▋▌▍▎▏▐▔▕▖▗▘▙▚▛▜▝▞▟]'
wait_for_re "$BLOCKS" 10
! pane | grep -qE 'Name +Taken' || fail "s6: the list's column titles are still drawn in the grid"
ok "s6: Tab shows the contact sheet: the current tile framed, thumbnails drawn in block symbols, no column titles"

tm send-keys -t s6 l
wait_for_re ' 2/1,820$'
ok "s6: l moves one tile right, to 2/1,820"
tm send-keys -t s6 j
wait_for_re ' 7/1,820$'
ok "s6: j moves one row of 5 tiles down, to 7/1,820"

tm send-keys -t s6 Space Space
wait_for "2 selected"
wait_for_re ' 9/1,820$'
header=$(pane | head -n 1)
grep -qF "2 selected" <<<"$header" || fail "s6: the header does not say '2 selected': $header"
ok "s6: space x2 selects 2 tiles and leaves the cursor on 9/1,820 ($(grep -oE '2 selected( \([^)]*\))?' <<<"$header"))"

# Marked tiles carry "✓ " before the name; where the mark is gives
# the tile's position, as the sheet still starts at the first row.
mapfile -t MARKED < <(pane | python3 -c '
import re, sys, unicodedata

def width(text):
    return sum(0 if unicodedata.combining(c) else 2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in text)

for number, line in enumerate(sys.stdin.read().split("\n")):
    if number == 0:
        continue
    for m in re.finditer(r"(?:^|(?<=[ │]))✓ (\S(?:.*?\S)?)(?= {2,}|│| *$)", line):
        column = width(line[:m.start()])
        print(f"{(number - 1) // 11 * 5 + column // 23 + 1}\t{m.group(1)}")
' | LC_ALL=C sort -n)
[ "$(printf '%s\n' "${MARKED[@]%%$'\t'*}" | paste -sd ' ')" = "7 8" ] \
  || fail "s6: expected the tiles at 7 and 8 to be marked, found: $(printf '[%s] ' "${MARKED[@]}")"
GRID_SELECTED=("${MARKED[@]#*$'\t'}")
ok "s6: the marked tiles are 7 and 8 (${GRID_SELECTED[*]})"

download_all s6 2

# The full-screen picture is wider than any thumbnail (21 columns) once it has loaded.
tm send-keys -t s6 p
wait_for "p or esc returns"
# A row of symbols wider than a tile, from the body's left margin (the download strip's bar, also a
# run of block symbols, starts with its arrow).
wait_for_re "^ +$BLOCKS{30,}" 10
caption=$(pane | grep -F "p or esc returns")
grep -qE '^ 9/1,820 ' <<<"$caption" || fail "s6: the preview's caption does not start with the position 9/1,820: $caption"
! pane | grep -qF '┌' || fail "s6: a frame (┌) is still drawn over the full-screen preview"
ok "s6: p shows photo 9 full screen (symbols wider than a tile), caption '$(sed 's/^ *//; s/  \+/ … /' <<<"$caption")'"

tm send-keys -t s6 Escape
wait_gone "p or esc returns"
wait_for_re '┌(─){21}┐'
ok "s6: Esc returns from the preview to the contact sheet (current tile framed again)"

tm send-keys -t s6 Tab
wait_for_re 'Name +Taken'
mapfile -t LIST_SELECTED < <(marked_rows)
[ "$(printf '%s\n' "${LIST_SELECTED[@]}")" = "$(printf '%s\n' "${GRID_SELECTED[@]}")" ] \
  || fail "s6: the list marks ${LIST_SELECTED[*]}, the grid marked ${GRID_SELECTED[*]}"
ok "s6: Tab returns to the list: column titles back, the same 2 rows marked (${LIST_SELECTED[*]})"

quit_with_q
expect_exit 0
expect_same_tty
end_session

expect_downloads s6 "$S6_DOWNLOADS" "marked tiles" "${LIST_SELECTED[@]}"

previews=$(find "$S6_PREVIEWS" -maxdepth 1 -type f -name '*.jpg' 2>/dev/null | wc -l)
[ "$previews" -ge 1 ] || fail "s6: no .jpg preview under $S6_PREVIEWS"
ok "s6: the preview cache \$XDG_CACHE_HOME/photopick/previews holds $previews .jpg files"

# With the browser closed, serve its data directory: each file is the server's original, byte for byte.
verify_server_state s6 "$S6_DEMO_DATA" "$S6_DOWNLOADS" ""
RUN_LOG=""

# ---- Scenario 8: kill -9 during a listing, then a warm start -----------------------------------
echo "# scenario 8: kill -9 during a slow listing; the next start shows what was kept at once and resumes"
start_server s8 "$TMP/s8-data" --photos 6000 --rate-limit 20 --rate-limit-window 2 --original-megapixels 0.1
launch s8 "$TMP/s8-downloads" PHOTOPICK_API_KEY=$KEY -- --api-url "$SERVER_URL"
wait_for_re "[1-9][0-9,]* of \? loaded" 30
sleep 3
before_kill=$(pane | sed -nE 's/.* ([0-9,]+) of \? loaded.*/\1/p' | head -n 1 | tr -d ,)
[ -n "$before_kill" ] && [ "$before_kill" -lt 6000 ] || fail "s8: the listing was not under way when killed ($before_kill)"
wrapper=$(tm list-panes -t s8 -F '#{pane_pid}' | head -n 1)
victim=$(pgrep -P "$wrapper" | head -n 1)
kill -9 "$victim"
wait_exit 10
ok "s8: killed photopick with SIGKILL at $before_kill of 6,000 photos"
end_session
launch s8b "$TMP/s8-downloads" PHOTOPICK_API_KEY=$KEY -- --api-url "$SERVER_URL"
started=$(now_ns)
wait_for_re "[1-9][0-9,]* of \? loaded" 10
shown=$(pane | sed -nE 's/.* ([0-9,]+) of \? loaded.*/\1/p' | head -n 1 | tr -d ,)
elapsed=$(( ($(now_ns) - started) / 1000000 ))
[ "$shown" -ge "$before_kill" ] || fail "s8: the restart showed $shown photos, fewer than the $before_kill kept"
ok "s8: the restart showed $shown kept photos ${elapsed} ms after launch, no fewer than the $before_kill seen before the kill"
wait_for "6,000 photos" 60
ok "s8: the listing resumed and completed: 6,000 photos"
quit_with_q
expect_exit 0
expect_same_tty
end_session
stop_server

# ---- Scenario 9: culling ------------------------------------------------------------------------
echo "# scenario 9: cull mode: P X 3 6 on four photos, the marks on the server, /rating>=3, a bad term; then cull 100 and download the picks"
start_server s9 "$TMP/s9-data" --photos 300 --original-megapixels 0.3
read_library "$SERVER_URL" "$TMP/s9-before.json" || fail "s9: could not read the library before culling"
# marks.py DUMP: each photo's marks (flag, stars, label) by the default tag names, in list order
# (capture time, unknown last, then id), as "id<TAB>marks<TAB>other tags".
cat >"$TMP/marks.py" <<'PY'
import json, sys
from datetime import datetime
library = json.load(open(sys.argv[1]))
names = {t["id"]: t["name"] for t in library["tags"]}
marks = {"Pick", "Reject", "1 star", "2 stars", "3 stars", "4 stars", "5 stars", "Red", "Yellow", "Green", "Blue", "Purple"}
def taken(photo):
    return datetime.fromisoformat(photo["takenAt"].replace("Z", "+00:00")).timestamp() if photo["takenAt"] else 0
order = sorted(library["photos"], key=lambda p: (p["takenAt"] is None, taken(p), p["id"]))
for photo in order:
    tags = [names[i] for i in photo.get("tagIds", [])]
    print(f"{photo['id']}\t{','.join(sorted(t for t in tags if t in marks))}\t{','.join(sorted(t for t in tags if t not in marks))}")
PY
python3 "$TMP/marks.py" "$TMP/s9-before.json" >"$TMP/s9-before.txt"
launch s9 "$TMP/s9-downloads" PHOTOPICK_API_KEY=$KEY -- --api-url "$SERVER_URL"
wait_for "300 photos" 60
wait_for_re ' 1/296$'
tm send-keys -t s9 c
wait_for_re 'cull · 1/296$'
ok "s9: c enters cull mode and the status line says so"
for key in P X 3 6; do tm send-keys -t s9 "$key"; done
wait_for_re 'cull · 5/296$'
ok "s9: P, X, 3, 6 each marked a photo and moved on: the cursor advanced four times, to 5/296"
wait_gone "to send" 30
ok "s9: every tag edit reached the server (the header's 'to send' count is gone)"
read_library "$SERVER_URL" "$TMP/s9-after.json" || fail "s9: could not read the library after culling"
python3 "$TMP/marks.py" "$TMP/s9-after.json" >"$TMP/s9-after.txt"
python3 - "$TMP/s9-before.txt" "$TMP/s9-after.txt" <<'PY' || fail "s9: the server's marks are not the ones made (above)"
import sys
before = [line.rstrip("\n").split("\t") for line in open(sys.argv[1])]
after = [line.rstrip("\n").split("\t") for line in open(sys.argv[2])]
expected = {0: "Pick", 1: "Reject", 2: "3 stars", 3: "Red"}
for position, (old, new) in enumerate(zip(before, after)):
    want = expected.get(position, old[1])
    # The photo's own mark replaces a flag it had (Reject is one of the demo's starting tags).
    if position in expected and old[1] and want != old[1]:
        kept = [m for m in old[1].split(",") if not (m in ("Pick", "Reject") and want in ("Pick", "Reject"))]
        want = ",".join(sorted(set(kept + [want])))
    if new[1] != want or new[2] != old[2]:
        raise SystemExit(f"photo {new[0]} (position {position + 1}): marks {new[1]!r} and tags {new[2]!r}, expected marks {want!r} and tags {old[2]!r}")
print("# s9: photos " + ", ".join(f"{after[i][0]}={after[i][1]}" for i in range(4)))
PY
ok "s9: on the server photo 1 has Pick, photo 2 Reject, photo 3 3 stars, photo 4 Red, and no other photo or tag changed"

tm send-keys -t s9 Escape
wait_for_re ' 5/296$'
ok "s9: Esc leaves cull mode"
tm send-keys -t s9 /
tm send-keys -t s9 -l 'rating>=3'
tm send-keys -t s9 Enter
wait_for "1 shown"
third=$(sed -n 3p "$TMP/s9-after.txt" | cut -f1)
python3 - "$TMP/s9-after.json" "$third" "$(pane | sed -n 3p)" <<'PY' || fail "s9: /rating>=3 does not list photo 3 (above)"
import json, sys
library, photo, row = json.load(open(sys.argv[1])), int(sys.argv[2]), sys.argv[3]
name = next(p["filename"] for p in library["photos"] if p["id"] == photo)
if name[:8] not in row or "★★★" not in row:
    raise SystemExit(f"row {row!r} is not photo {photo} ({name!r}) with three stars")
PY
ok "s9: /rating>=3 shows exactly photo 3, with its three stars"
tm send-keys -t s9 /
tm send-keys -t s9 C-u
tm send-keys -t s9 -l 'camera:gr iso>=lots'
wait_for "iso>=lots: “lots” is not a number; write it like iso>=3200"
ok "s9: a bad term shows its reason on the prompt line"
tm send-keys -t s9 Escape
wait_gone "shown"

# Culling 100 photos and downloading the picks, counting every key pressed.
KEYS=0
press() { tm send-keys -t s9 "$@"; KEYS=$((KEYS + $#)); }
type_text() { tm send-keys -t s9 -l "$1"; KEYS=$((KEYS + ${#1})); }
press g
press c
pattern=(P 3 X 4 2 P 5 X 1 3)
for i in $(seq 0 99); do press "${pattern[$((i % 10))]}"; done
wait_for_re 'cull · 101/296$' 30
press c
press /
type_text pick
press Enter
wait_for "shown"
press a
press d
wait_for_re "Downloads finished: [0-9]+ fetched" 120
wait_gone "to send" 60
quit_with_q
expect_exit 0
end_session
read_library "$SERVER_URL" "$TMP/s9-culled.json" || fail "s9: could not read the library after culling 100"
python3 - "$TMP/s9-culled.json" "$TMP/s9-downloads" <<'PY' || fail "s9: the downloads are not the picks (above)"
import json, os, sys
library, folder = json.load(open(sys.argv[1])), sys.argv[2]
pick = next(t["id"] for t in library["tags"] if t["name"] == "Pick")
picks = [p for p in library["photos"] if pick in p.get("tagIds", [])]
files = [f for f in os.listdir(folder) if not f.startswith(".")]
if any(f.endswith(".part") for f in files):
    raise SystemExit("a .part was left")
if len(files) != len(picks) or sum(os.path.getsize(os.path.join(folder, f)) for f in files) != sum(p["bytes"] for p in picks):
    raise SystemExit(f"{len(files)} files downloaded, {len(picks)} photos picked on the server")
print(f"# s9: {len(picks)} picks on the server, {len(files)} files downloaded with the same total size")
PY
ok "s9: culled 100 photos and downloaded the picks in $KEYS keystrokes (g, c, 100 marks, c, /pick Enter, a, d)"
stop_server

# ---- Scenario 10: the loupe ---------------------------------------------------------------------
echo "# scenario 10: z in full screen shows the original at 100%, l pans it, z returns; a photo deleted meanwhile keeps its stand-in with the reason"
start_server s10 "$TMP/s10-data" --photos 20 --original-megapixels 2
launch s10 "$TMP/s10-downloads" PHOTOPICK_API_KEY=$KEY -- --api-url "$SERVER_URL"
wait_for "20 photos" 60
wait_for_re ' 1/20$'
tm send-keys -t s10 p
wait_for "p or esc returns"
tm send-keys -t s10 z
# Photo 1 is a DNG: its 100% is of the full-size preview the camera embedded, and the caption says so.
wait_for_re '100% · [^·]+ · [0-9]+,[0-9]+ of [0-9]+×[0-9]+' 60
first=$(pane | grep -oE '100% · [^·]+ · [0-9]+,[0-9]+ of [0-9]+×[0-9]+')
shows=$(sed -E 's/ · [0-9]+,[0-9]+ of .*//' <<<"$first")
[ "$shows" = "100% · embedded preview $(sed -E 's/.* of //' <<<"$first")" ] || fail "s10: the caption does not say what the DNG's 100% is of: $first"
grep -qE '100% · 1/20 *$' <<<"$(pane | tail -n 1)" || fail "s10: the status line does not say 100%: $(pane | tail -n 1)"
ok "s10: z shows the DNG original at 100% of its embedded preview ($first)"
x=$(sed -E 's/.* ([0-9]+),([0-9]+) of .*/\1/' <<<"$first"); y=$(sed -E 's/.* ([0-9]+),([0-9]+) of .*/\2/' <<<"$first")
width=$(sed -E 's/.* of ([0-9]+)×.*/\1/' <<<"$first")
# 120 columns of 8 pixels each: a third of the view is 320 pixels, short of the picture's right edge.
expected=$(( x + 320 < width - 960 ? x + 320 : width - 960 ))
tm send-keys -t s10 l
wait_for "$shows · $expected,$y of " 20
ok "s10: l pans the view right by a third, to $expected,$y"
tm send-keys -t s10 z
wait_gone "100% ·"
wait_for "p or esc returns"
ok "s10: z returns to the full-screen preview"
# The next photo, its preview drawn; then it is deleted on the server, as from the web app.
tm send-keys -t s10 j
wait_for_re ' 2/20 '
wait_gone "loading…" 30
name=$(pane | grep -oE ' 2/20 +[^ ]+' | awk '{print $2}')
read_library "$SERVER_URL" "$TMP/s10.json" || fail "s10: could not read the library"
id=$(python3 -c 'import json, sys; print(next(p["id"] for p in json.load(open(sys.argv[1]))["photos"] if p["filename"] == sys.argv[2]))' "$TMP/s10.json" "$name")
curl -fsS -X DELETE -H "Authorization: Bearer $KEY" "$SERVER_URL/photos/$id" || fail "s10: could not delete photo $id ($name)"
tm send-keys -t s10 z
wait_for "stands in · original unavailable: Not found: it was deleted" 30
ok "s10: z on a photo deleted meanwhile keeps the cached rendition with the reason ($name)"
tm send-keys -t s10 Escape Escape q
expect_exit 0
expect_same_tty
end_session
stop_server

# ---- Scenario 11: the terminal's replies and pastes are data, never keys -------------------------
echo "# scenario 11: late probe answers and unsolicited reports typed into the browser change nothing; a paste filters in /, and in the list only says so"
start_server s11 "$TMP/s11-data" --photos 300 --original-megapixels 0.3
SERVER_OUT=$TMP/s11.out
launch s11 "$TMP/s11-downloads" PHOTOPICK_API_KEY=$KEY -- --api-url "$SERVER_URL"
wait_for "300 photos" 60
wait_for_re ' 1/296$'
wait_gone "to send" 30
sleep 1
before=$(wc -l <"$SERVER_OUT")
# The kitty answer that became `i` and `1` on a slow link, then XTVERSION, DA1 and DA2, XTSMGRAPHICS, the
# cell size, a cursor position report, focus in and out, a colour answer, an OSC 52 answer, a DECRQSS.
replies=(
  $'\e_Gi=31;OK\e\\' $'\eP>|kitty(0.26.5)\e\\' $'\e[?62;c' $'\e[>1;4000;29c' $'\e[?1;0;1024S' $'\e[6;17;8t'
  $'\e[12;40R' $'\e[I' $'\e[O' $'\e]11;rgb:1e1e/1e1e/2e2e\a' $'\e]52;c;aWlpaTE=\a' $'\eP1$r0;1m\e\\'
  $'\e_Gi=1;EINVAL:iiii 1 a d\e\\' $'\eP>|XTerm(379)\e\\' $'\e[?63;1;2;4;6;9;15;16;22;28c'
)
for reply in "${replies[@]}"; do tm send-keys -t s11 -l "$reply"; done
# One answer whose Esc came alone, the rest 0.3 s later: Esc (cancel) once, then the rest is still read as a reply.
tm send-keys -t s11 -l $'\e'
sleep 0.3
tm send-keys -t s11 -l $'_Gi=31;OK\e\\'
sleep 2
grep -qE ' 1/296$' <<<"$(pane)" || fail "s11: the cursor moved or the status line changed after the replies: $(pane | tail -n 1)"
pane | grep -qE '[0-9]+ selected' && fail "s11: the replies selected photos"
pane | grep -qF "to send" && fail "s11: the replies queued tag edits"
writes=$(tail -n +"$((before + 1))" "$SERVER_OUT" | grep -cE '^(PUT|POST|PATCH|DELETE) ' || true)
[ "$writes" = 0 ] || fail "s11: the server received $writes writes after the replies: $(tail -n +"$((before + 1))" "$SERVER_OUT" | grep -E '^(PUT|POST|PATCH|DELETE) ' | head -3)"
ok "s11: ${#replies[@]} replies and reports typed into the list (one split after its Esc): no selection, no tag edit, 0 writes on the server"
# A paste in the list is not keys: `iiii 1 a d` would invert, tag, select all and download.
tm set-buffer -b s11 'iiii 1 a d'
tm paste-buffer -p -d -b s11 -t s11
wait_for "Paste ignored"
pane | grep -qE '[0-9]+ selected' && fail "s11: the paste selected photos"
ok "s11: a paste in the list does nothing but say so"
# The first word of the first photo's name, pasted into the filter, must list that photo and not all 300.
word=$(pane | sed -n 3p | sed -E 's/^[^A-Za-z0-9]*//' | grep -oE '^[A-Za-z0-9]+' || true)
[ -n "$word" ] || fail "s11: no name on the first row to filter by: $(pane | sed -n 3p)"
tm send-keys -t s11 /
tm set-buffer -b s11 "$word"
tm paste-buffer -p -d -b s11 -t s11
wait_for_re '[0-9]+ shown'
shown=$(pane | grep -oE '[0-9]+ shown' | head -n 1 | cut -d' ' -f1)
[ "$shown" -ge 1 ] && [ "$shown" -lt 300 ] || fail "s11: the pasted filter '$word' shows $shown photos"
pane | grep -qF "$word" || fail "s11: the pasted filter is not on the prompt line"
ok "s11: a paste into / filters: '$word' shows $shown of 300"
tm send-keys -t s11 Escape
wait_gone "shown"
writes=$(tail -n +"$((before + 1))" "$SERVER_OUT" | grep -cE '^(PUT|POST|PATCH|DELETE) ' || true)
[ "$writes" = 0 ] || fail "s11: the server received $writes writes during the pastes"
tm send-keys -t s11 q
expect_exit 0
expect_same_tty
end_session
stop_server

# ---- Scenario 12: a mark on a tag not made yet survives SIGTERM ---------------------------------
echo "# scenario 12: with the server gone, V (Purple, no such tag yet) then SIGTERM; the next start creates Purple once and marks the photo"
start_server s12 "$TMP/s12-data" --photos 50 --original-megapixels 0.3
PORT=$(sed -E 's#^http://[^:]+:([0-9]+).*#\1#' <<<"$SERVER_URL")
read_library "$SERVER_URL" "$TMP/s12-before.json" || fail "s12: could not read the library"
python3 -c 'import json, sys; sys.exit(any(t["name"] == "Purple" for t in json.load(open(sys.argv[1]))["tags"]))' "$TMP/s12-before.json" \
  || fail "s12: the demo library already has a Purple tag"
launch s12 "$TMP/s12-downloads" PHOTOPICK_API_KEY=$KEY -- --api-url "$SERVER_URL"
wait_for "50 photos" 60
wait_for_re ' 1/50$'
first=$(pane | sed -n 3p | sed -E 's/^[^A-Za-z0-9]*//' | awk '{print $1}')
stop_server
tm send-keys -t s12 c
wait_for_re 'cull · 1/50$'
tm send-keys -t s12 V
wait_for_re 'cull · 2/50$'
photopick_pid "$TMP/s12-downloads"
kill -TERM "$PID"
expect_exit 143
end_session
ok "s12: V marked $first Purple with the server gone, then SIGTERM"
start_server s12b "$TMP/s12-data" --port "$PORT"
launch s12b "$TMP/s12-downloads" PHOTOPICK_API_KEY=$KEY -- --api-url "$SERVER_URL"
wait_for "50 photos" 60
wait_gone "to send" 30
tm send-keys -t s12b q
expect_exit 0
end_session
read_library "$SERVER_URL" "$TMP/s12-after.json" || fail "s12: could not read the library after the restart"
python3 - "$TMP/s12-after.json" "$first" <<'PY' || fail "s12: the mark did not survive (above)"
import json, sys
library, first = json.load(open(sys.argv[1])), sys.argv[2]
purple = [t for t in library["tags"] if t["name"].lower() == "purple"]
if len(purple) != 1:
    raise SystemExit(f"{len(purple)} tags named Purple")
marked = [p["filename"] for p in library["photos"] if purple[0]["id"] in p.get("tagIds", [])]
if len(marked) != 1 or not marked[0].startswith(first):
    raise SystemExit(f"Purple is on {marked}, expected the first photo ({first}…)")
PY
posts=$(grep -cE '^POST /api/v1/tags ' "$TMP/s12b.out" || true)
[ "$posts" = 1 ] || fail "s12: the restart sent $posts POST /tags, expected 1"
ok "s12: after the restart Purple exists once (1 POST /tags) and marks $first alone"
stop_server

# ---- Scenario 13: the shoot at a glance -----------------------------------------------------------
echo "# scenario 13: c counts the marks in the header, I draws the charts and Enter filters to a bar, H puts a histogram beside the full-screen preview"
start_server s13 "$TMP/s13-data" --photos 60 --original-megapixels 0.3
launch s13 "$TMP/s13-downloads" PHOTOPICK_API_KEY=$KEY -- --api-url "$SERVER_URL"
wait_for "60 photos" 60
wait_for_re ' 1/[0-9]+$'
tm send-keys -t s13 c
wait_for_re 'cull [0-9,]+: [0-9]+ picked · [0-9]+ rejected · 0 rated · 0 labelled · [0-9]+ untouched'
tm send-keys -t s13 P
wait_for_re 'cull [0-9,]+: 1 picked · '
ok "s13: in cull mode the header counts the marks, and P counts at once: $(pane | head -n 1 | grep -oE 'cull [^▰▱]+' )"
tm send-keys -t s13 c I
wait_for_re '[0-9,]+ photos? listed · per (day|month|year), '
wait_for "Cameras"
wait_for "Aperture"
chosen=$(pane | grep -oE '▸ [0-9-]+ · [0-9,]+ photos?' | head -n 1)
[ -n "$chosen" ] || fail "s13: no bar chosen in the charts"
tm send-keys -t s13 l
wait_gone "$chosen"
second=$(pane | grep -oE '▸ [0-9-]+ · [0-9,]+ photos?' | head -n 1)
label=$(sed -E 's/▸ ([0-9-]+) .*/\1/' <<<"$second"); count=$(sed -E 's/.* · ([0-9,]+) photos?/\1/' <<<"$second")
tm send-keys -t s13 Enter
wait_for "/taken:$label"
wait_for_re " 1/$count\$"
ok "s13: I drew the charts; l chose $second, Enter filtered to taken:$label and lists $count"
tm send-keys -t s13 p H
wait_for "Histogram"
wait_for_re '▼ [0-9.<]+%.*▲ [0-9.<]+%'
ok "s13: H in full screen shows the histogram with the clipped shares: $(pane | grep -oE '▼ [0-9.<]+%.*▲ [0-9.<]+%' | tr -s ' ')"
tm send-keys -t s13 Escape q
expect_exit 0
expect_same_tty
end_session
stop_server

# ---- Scenario 7: terminals that cannot address the cursor ------------------------------------
echo "# scenario 7: TERM=dumb and an unknown TERM are refused before the screen is touched"
launch s7-dumb "$TMP/s7-downloads" TERM=dumb
expect_exit 2
expect_one_line "photopick: TERM=dumb cannot move the cursor" "one line naming TERM=dumb and the fix"
expect_same_tty
end_session

launch s7-unknown "$TMP/s7-downloads" TERM=photopick-no-such-term
expect_exit 2
expect_one_line "photopick: TERM=photopick-no-such-term is not a terminal type this system knows" "one line naming the unknown TERM and the fix"
expect_same_tty
end_session

echo "# all $CHECKS checks passed in $((SECONDS - START)) s"
