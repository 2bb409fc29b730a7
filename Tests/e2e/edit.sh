#!/usr/bin/env bash
# End-to-end test of editing and purging in the browser, in tmux, against `photopick serve` with faults:
# an E edit, a bulk rename of 20 photos in $EDITOR (a script), a capture-time shift, an undo, and a purge
# of rejects with --keep-originals. The server's state (read through its API) must equal the intent; the
# purge log and the kept originals (byte for byte) must match what was deleted. Then a purge is killed
# with SIGKILL while it runs, and the restart's report must be exact: every photo the log calls deleted
# is gone from the server, every other one is still there.
#
#   Tests/e2e/edit.sh                       # uses .build/debug/photopick
#   PHOTOPICK=/path/to/photopick Tests/e2e/edit.sh
set -euo pipefail
source "$(dirname "$0")/lib.sh"
e2e_setup photopick-edit tmux python3

KEY=pp_test_edit_key
SOCKET=photopick-edit-$$
export XDG_DATA_HOME=$TMP/xdg/data XDG_STATE_HOME=$TMP/xdg/state XDG_CONFIG_HOME=$TMP/xdg/config XDG_CACHE_HOME=$TMP/xdg/cache
unset PHOTOPICK_API_KEY NO_COLOR
cleanup() {
  tmux -L "$SOCKET" kill-server 2>/dev/null || true
  stop_servers
  remove_tmp
}
trap cleanup EXIT
on_failure() {
  for session in $(tmux -L "$SOCKET" list-sessions -F '#S' 2>/dev/null); do
    echo "# screen of $session:" >&2
    tmux -L "$SOCKET" capture-pane -p -t "$session" >&2 || true
  done
}

# Faults on one request in seven, a few of them slow; the rate limit lifted.
start_server server "$TMP/server" --photos 300 --original-megapixels 0.2 --rate-limit 100000 \
  --fault-rate 0.15 --faults 500,503,reset,slow --latency 400 --seed 11
API=$SERVER_URL
LOG=$XDG_STATE_HOME/photopick/purge-log.jsonl
KEPT=$TMP/kept

# api METHOD PATH [OUT]: the server through its API, retried through injected faults; prints the
# status, and the body into OUT.
api() {
  python3 - "$API" "$KEY" "$@" <<'PY'
import sys, time, urllib.request, urllib.error
base, key, method, path = sys.argv[1:5]
out = sys.argv[5] if len(sys.argv) > 5 else None
for attempt in range(40):
    request = urllib.request.Request(base + path, method=method, headers={"Authorization": "Bearer " + key})
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            body, status = response.read(), response.status
    except urllib.error.HTTPError as error:
        body, status = error.read(), error.code
    except Exception:
        time.sleep(0.1); continue
    if status in (429, 500, 502, 503):
        time.sleep(0.1); continue
    if out: open(out, "wb").write(body)
    print(status); break
else:
    raise SystemExit("no answer for " + method + " " + path)
PY
}

# browse NAME: the browser in a tmux session, with the editor script and the folder for originals.
browse() {
  local name=$1
  rm -f "$TMP/$name.code"
  tmux -L "$SOCKET" -f /dev/null new-session -d -s "$name" -x 120 -y 40 \
    "env PHOTOPICK_API_KEY=$KEY EDITOR=$TMP/rename.sh TERM=xterm-256color XDG_DATA_HOME=$XDG_DATA_HOME XDG_STATE_HOME=$XDG_STATE_HOME XDG_CONFIG_HOME=$XDG_CONFIG_HOME XDG_CACHE_HOME=$XDG_CACHE_HOME $PHOTOPICK --api-url $API --keep-originals $KEPT 2>$TMP/$name.err; echo \$? >$TMP/$name.code; sleep 60"
  wait_for "$name" ' 1/[1-9][0-9,]*$' "the list"
}
screen() { tmux -L "$SOCKET" capture-pane -p -t "$1"; }
keys() { local name=$1; shift; tmux -L "$SOCKET" send-keys -t "$name" "$@"; }
typed() { tmux -L "$SOCKET" send-keys -t "$1" -l "$2"; }
# wait_for NAME PATTERN WHAT: until the screen matches the extended regular expression (60 s at most).
wait_for() {
  for _ in $(seq 600); do screen "$1" | grep -qE "$2" && return 0; sleep 0.1; done
  fail "$1: no $3 on screen (wanted /$2/): $(screen "$1" | tail -n 1)"
}
# quit NAME: q, and y when it asks; waits for the exit code.
quit() {
  keys "$1" q
  for _ in $(seq 600); do
    [ -s "$TMP/$1.code" ] && break
    if screen "$1" | grep -qF "Quit?"; then keys "$1" y; fi
    sleep 0.1
  done
  [ "$(cat "$TMP/$1.code" 2>/dev/null)" = 0 ] || fail "the browser ($1) exited $(cat "$TMP/$1.code" 2>/dev/null): $(cat "$TMP/$1.err")"
  tmux -L "$SOCKET" kill-session -t "$1" 2>/dev/null || true
}

# The editor: each photo's file name becomes Trip_<id>.<extension>; the ids and titles stay.
cat >"$TMP/rename.sh" <<'SH'
#!/bin/sh
awk -F '\t' 'BEGIN { OFS = "\t" } /^#/ || NF != 3 { print; next } { n = split($2, parts, "."); $2 = "Trip_" $1 "." parts[n]; print }' "$1" >"$1.new" && mv "$1.new" "$1"
SH
chmod +x "$TMP/rename.sh"

# The demo library comes with rejects of its own: they go first, so # offers exactly the ones marked here.
PHOTOPICK_API_KEY=$KEY "$PHOTOPICK" tag rm Reject --api-url "$API" 2>"$TMP/untag.err" || fail "tag rm Reject: $(cat "$TMP/untag.err")"
read_library "$API" "$TMP/before.json"
python3 - "$TMP/before.json" >"$TMP/order" <<'PY'
import json, sys
photos = json.load(open(sys.argv[1]))["photos"]
# The browser lists by capture time, oldest first; ties by id.
order = sorted(photos, key=lambda p: (p["takenAt"] is None, p["takenAt"] or "", p["id"]))
print(" ".join(str(p["id"]) for p in order))
PY
read -r -a ORDER <"$TMP/order"

echo "# E, Ctrl-E, a shift and an undo"
browse edit
# E on the first photo: a title.
keys edit E
wait_for edit 'Edit this photo' "edit form"
keys edit C-u
typed edit 'Harbour at dusk ☃'
keys edit Enter
wait_for edit 'Edited 1 photo: 1 retitled' "edit summary"
# The first 20 photos: a visual range, then the editor renames them.
keys edit v
for _ in $(seq 19); do keys edit j; done
keys edit v C-e
wait_for edit "Apply the editor's changes: 20 renamed" "bulk edit summary"
keys edit y
wait_for edit 'Edited 20 photos: 20 renamed' "bulk edit applied"
# The same 20, one hour later: E, the capture time field (shift-tab from the title), +1h.
keys edit E
wait_for edit 'Edit 20 photos' "form for the selection"
keys edit BTab C-u
typed edit '+1h'
wait_for edit '→' "the shift's before and after"
keys edit Enter
wait_for edit 'given a new capture time' "shift applied"
# A title for the 22nd photo, then u takes it back.
keys edit Escape Escape
keys edit g
for _ in $(seq 21); do keys edit j; done
keys edit E
wait_for edit 'Edit this photo' "edit form"
keys edit C-u
typed edit 'Taken back'
keys edit Enter
wait_for edit 'Edited 1 photo: 1 retitled' "second title"
keys edit u
wait_for edit 'Undone:' "undo"
ok "E, a bulk rename of 20 in \$EDITOR, a +1h shift and an undo, on screen"

echo "# purge of rejects, originals kept"
# Photos 30–34 in the list are rejected, then # asks and 5 is typed.
keys edit g
for _ in $(seq 29); do keys edit j; done
for _ in $(seq 5); do keys edit X j; done
wait_for edit '✕' "reject marks"
sleep 1
for id in "${ORDER[@]:29:5}"; do api GET "/photos/$id/download" "$TMP/original-$id" >/dev/null; done
keys edit '#'
wait_for edit 'Delete 5 rejected photos' "the purge question"
typed edit 5
keys edit Enter
wait_for edit 'Deleted 5 photos' "the purge's summary"
# Everything sent: quit asks while edits wait.
for _ in $(seq 600); do screen edit | grep -q 'unsent\|sending' || break; sleep 0.1; done
quit edit

read_library "$API" "$TMP/after.json"
python3 - "$TMP/before.json" "$TMP/after.json" "$LOG" "$TMP" "${ORDER[*]}" <<'PY' || fail "the server's state is not the intent (above)"
import datetime, json, os, sys
before, after = (json.load(open(p)) for p in sys.argv[1:3])
log = [json.loads(line) for line in open(sys.argv[3])]
tmp, order = sys.argv[4], [int(x) for x in sys.argv[5].split()]
was = {p["id"]: p for p in before["photos"]}
now = {p["id"]: p for p in after["photos"]}
def instant(text): return datetime.datetime.fromisoformat(text.replace("Z", "+00:00"))
renamed, retitled, undone, purged = order[:20], order[0], order[21], order[29:34]
assert now[retitled]["title"] == "Harbour at dusk ☃", now[retitled].get("title")
assert now[undone].get("title") == was[undone].get("title"), ("undo", now[undone].get("title"))
for id in renamed:
    extension = was[id]["filename"].rsplit(".", 1)[-1]
    assert now[id]["filename"] == f"Trip_{id}.{extension}", (id, now[id]["filename"])
    shift = instant(now[id]["takenAt"]) - instant(was[id]["takenAt"])
    assert shift == datetime.timedelta(hours=1), (id, shift)
for id in purged:
    assert id not in now, f"photo {id} is still on the server"
changed = [id for id in now if id not in renamed + [retitled] and now[id] != was[id]]
assert not changed, f"photos nobody edited changed: {changed[:5]}"
assert len(now) == len(was) - 5
mine = [r for r in log if r["id"] in purged]
for id in purged:
    kinds = [r["kind"] for r in mine if r["id"] == id]
    assert kinds == ["planned", "kept", "intent", "deleted"], (id, kinds)
    record = next(r for r in mine if r["id"] == id and r["kind"] == "intent")
    assert record["filename"] == was[id]["filename"] and record["bytes"] == was[id]["bytes"], (record, was[id])
    assert instant(record["takenAt"]) == instant(was[id]["takenAt"]), (record, was[id])
    kept = next(r for r in mine if r["id"] == id and r["kind"] == "kept")["path"]
    assert open(kept, "rb").read() == open(os.path.join(tmp, f"original-{id}"), "rb").read(), f"kept {kept} differs"
print(f"# 20 renamed and shifted by 1 h, 1 titled, 1 undone, 5 purged with originals kept; {len(now)} photos left")
PY
ok "the server (read through its API) holds the intent; the purge log and the kept originals match the 5 deleted"

echo "# kill -9 in the middle of a purge"
# A server that stalls half its requests 0.8 s, so the kill can find a deletion asked for and not answered.
start_server slow "$TMP/slow" --photos 200 --original-megapixels 0.2 --rate-limit 100000 --fault-rate 0.5 --faults slow --latency 800 --seed 12
API=$SERVER_URL
PHOTOPICK_API_KEY=$KEY "$PHOTOPICK" tag rm Reject --api-url "$API" 2>"$TMP/untag.err" || fail "tag rm Reject: $(cat "$TMP/untag.err")"
read_library "$API" "$TMP/slow-before.json"
# Reject 40 photos from position 60, purge them, and kill photopick once a few are deleted and the last
# line of the log is a deletion asked for and not yet answered.
browse kill
keys kill g
for _ in $(seq 59); do keys kill j; done
keys kill v
for _ in $(seq 39); do keys kill j; done
keys kill X
wait_for kill '40 selected' "40 rejects"
keys kill Escape
keys kill '#'
wait_for kill 'Delete 40 rejected photos' "the second purge question"
# Counted before the answer: the plan is logged as soon as it is confirmed.
start_lines=$(wc -l <"$LOG")
typed kill 40
keys kill Enter
killed=""
for _ in $(seq 1200); do
  if [ "$(tail -n +$((start_lines + 1)) "$LOG" | grep -c '"kind":"deleted"')" -ge 3 ] && tail -n 1 "$LOG" | grep -q '"kind":"intent"'; then
    pkill -KILL -f "$PHOTOPICK --api-url $API" && killed=yes
    break
  fi
  sleep 0.02
done
[ -n "$killed" ] || fail "the purge never had a deletion in flight to kill"
tmux -L "$SOCKET" kill-session -t kill 2>/dev/null || true
python3 - "$LOG" "$start_lines" >"$TMP/at-kill" <<'PY'
import json, sys
records = [json.loads(line) for line in open(sys.argv[1]).readlines()[int(sys.argv[2]):]]
outcome = {r["id"] for r in records if r["kind"] in ("deleted", "failed")}
print(len([r for r in records if r["kind"] == "deleted"]), len([r for r in records if r["kind"] == "intent" and r["id"] not in outcome]))
PY
read -r deleted_at_kill unanswered <"$TMP/at-kill"
[ "$unanswered" = 1 ] || fail "at the kill $unanswered deletions were unanswered; wanted one"
# The restart asks the server about the unanswered one and says what became of it.
browse restart
wait_for restart 'A purge was interrupted' "the restart's report"
screen restart | tail -n 1 >"$TMP/restart.line"
quit restart
read_library "$API" "$TMP/killed.json"
python3 - "$TMP/slow-before.json" "$TMP/killed.json" "$LOG" "$start_lines" "$TMP/restart.line" <<'PY' || fail "the killed purge's report is not exact (above)"
import json, re, sys
before, killed = (json.load(open(p)) for p in sys.argv[1:3])
records = [json.loads(line) for line in open(sys.argv[3]).readlines()[int(sys.argv[4]):]]
line = open(sys.argv[5]).read().strip()
was, now = {p["id"] for p in before["photos"]}, {p["id"] for p in killed["photos"]}
intents = {r["id"] for r in records if r["kind"] == "intent"}
deleted = {r["id"] for r in records if r["kind"] == "deleted"}
failed = {r["id"] for r in records if r["kind"] == "failed"}
assert intents <= deleted | failed, f"unsettled after the restart: {sorted(intents - deleted - failed)}"
gone = was - now
assert gone == deleted, f"gone from the server {sorted(gone)}, logged deleted {sorted(deleted)}"
assert not (failed & gone), f"logged not deleted but gone: {sorted(failed & gone)}"
# The report says how many went and which did not: the one in flight included, by the server's word.
planned = {r["id"] for r in records if r["kind"] == "planned"}
assert len(planned) == 40, len(planned)
assert failed == planned - deleted, f"not deleted {sorted(failed)}, planned and not deleted {sorted(planned - deleted)}"
assert not (failed - now), f"logged not deleted but missing: {sorted(failed - now)}"
count = lambda n: "1 photo" if n == 1 else f"{n} photos"
assert f"{count(len(deleted))} deleted; {len(failed)} not deleted, still on the server ({', '.join(map(str, sorted(failed)[:3]))}, …)." in line, line
assert any(r["kind"] == "finished" for r in records), "the purge was not marked settled"
last = [r for r in records if r["kind"] in ("deleted", "failed") and r.get("reason", "").startswith("interrupted")
        and "never reached" not in r.get("reason", "")]
assert len(last) == 1, f"the restart settled {len(last)} deletions in flight, not 1"
print(f"# killed with 1 deletion in flight ({last[0]['kind']} by the server's word); the server lost exactly the {len(deleted)} logged; the restart said: {line[:150]}")
PY
ok "kill -9 mid-purge: the restart settles the deletion in flight, reports it exactly, and the log's deleted photos are exactly those gone"

echo "# all $CHECKS checks passed in $((SECONDS - START)) s"
