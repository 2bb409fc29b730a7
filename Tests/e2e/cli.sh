#!/usr/bin/env bash
# End-to-end test of photopick's scripting verbs against `photopick serve`: ls (table, --json, --jsonl,
# --format, a bad query), tags, tag add and tag rm, checked against the server's own API; get under
# faults, kill -9 and Ctrl-C, and handing downloads over to and from the browser (in tmux); templates,
# XMP sidecars, sync, pick, edit and rm (hostile values, the editor, kept originals), and the completion
# scripts. Every run has its own XDG folders in one
# temporary directory, removed on exit.
#
#   Tests/e2e/cli.sh                       # uses .build/debug/photopick
#   PHOTOPICK=/path/to/photopick Tests/e2e/cli.sh
set -euo pipefail
source "$(dirname "$0")/lib.sh"
e2e_setup photopick-cli tmux python3

KEY=pp_test_cli_key
SOCKET=photopick-cli-$$   # the tmux server of the browser runs
export XDG_DATA_HOME=$TMP/xdg/data XDG_STATE_HOME=$TMP/xdg/state XDG_CONFIG_HOME=$TMP/xdg/config XDG_CACHE_HOME=$TMP/xdg/cache
unset PHOTOPICK_API_KEY NO_COLOR
cleanup() {
  tmux -L "$SOCKET" kill-server 2>/dev/null || true
  stop_servers
  remove_tmp
}
trap cleanup EXIT

# serve NAME ARGS...: a server for these verbs, its library in $TMP/NAME, with the rate limit lifted.
serve() {
  local name=$1
  shift
  start_server "$name" "$TMP/$name" --rate-limit 100000 "$@"
}

serve server --photos 1000 --original-megapixels 0.1
API=$SERVER_URL
pp() { PHOTOPICK_API_KEY=$KEY "$PHOTOPICK" "$@" --api-url "$API"; }

read_library "$API" "$TMP/server.json"

echo "# ls"
pp ls --jsonl >"$TMP/ls.jsonl" 2>"$TMP/ls.err" || fail "ls --jsonl exited $?: $(cat "$TMP/ls.err")"
[ ! -s "$TMP/ls.err" ] || fail "ls --jsonl wrote to stderr: $(cat "$TMP/ls.err")"
python3 - "$TMP/server.json" "$TMP/ls.jsonl" <<'EOF' || fail "ls --jsonl does not match the server (above)"
import json, sys
from datetime import datetime
def instant(text):
    return None if text is None else datetime.fromisoformat(text.replace("Z", "+00:00"))
server = json.load(open(sys.argv[1]))
# The culling marks' tags by their default names (no config here).
MARKS = {"Pick": ("flag", "pick"), "Reject": ("flag", "reject"), "1 star": ("rating", 1)}
MARKS |= {f"{n} stars": ("rating", n) for n in range(2, 6)}
MARKS |= {c.capitalize(): ("label", c) for c in ["red", "yellow", "green", "blue", "purple"]}
names = {t["id"]: t["name"] for t in server["tags"]}
listed = [json.loads(line) for line in open(sys.argv[2], encoding="utf-8")]
if len(listed) != len(server["photos"]):
    raise SystemExit(f"{len(listed)} lines, {len(server['photos'])} photos on the server")
by_id = {p["id"]: p for p in server["photos"]}
hostile = 0
for photo in listed:
    truth = by_id[photo["id"]]
    if instant(photo.get("takenAt")) != instant(truth.get("takenAt")):
        raise SystemExit(f"photo {photo['id']}: takenAt {photo.get('takenAt')} is not the server's {truth.get('takenAt')}")
    for field in ["filename", "bytes", "width", "height", "mimeType", "title"]:
        if photo.get(field) != truth.get(field):
            raise SystemExit(f"photo {photo['id']}: {field} {photo.get(field)!r} != the server's {truth.get(field)!r}")
    on_server = [names[i] for i in truth.get("tagIds", [])]
    if sorted(photo["tags"]) != sorted(n for n in on_server if n not in MARKS):
        raise SystemExit(f"photo {photo['id']}: tags {photo['tags']} are not the server's {on_server} less the marks")
    marks = {"flag": None, "rating": None, "label": None}
    for name in on_server:
        if name in MARKS:
            family, value = MARKS[name]
            marks[family] = value
    if photo["marks"] != marks:
        raise SystemExit(f"photo {photo['id']}: marks {photo['marks']}, the server's tags say {marks}")
    hostile += any(ord(c) < 32 or c in "\u202e\u200b" for c in photo["filename"]) or "/" in photo["filename"]
if hostile < 5:
    raise SystemExit(f"only {hostile} hostile names listed; the demo library has more")
print(f"# {len(listed)} photos, {hostile} hostile names among them, every field as the server has it")
EOF
ok "ls --jsonl: one object per photo, every field and hostile name exactly as the server has it"

pp ls --json 'R00068' >"$TMP/ls.json"
python3 -c 'import json, sys; d = json.load(open(sys.argv[1])); assert isinstance(d, list) and d and all("R00068" in p["filename"] for p in d), d[:2]; print(f"# {len(d)} photos")' "$TMP/ls.json" \
  || fail "ls --json R00068 is not one array of the matching photos"
ok "ls --json QUERY: one JSON array of the matching photos"

pp ls --format '{id}\t{filename}\t{taken:%Y-%m-%d}' >"$TMP/ls.tsv"
[ "$(wc -l <"$TMP/ls.tsv")" = 1000 ] || fail "ls --format printed $(wc -l <"$TMP/ls.tsv") lines, expected 1000"
if LC_ALL=C grep -q $'\e' "$TMP/ls.tsv"; then fail "ls --format let an escape through"; fi
python3 - "$TMP/ls.tsv" <<'EOF' || fail "ls --format: a line is not id<TAB>name<TAB>date (above)"
import re, sys
for line in open(sys.argv[1], encoding="utf-8").read().split("\n")[:-1]:
    fields = line.split("\t")
    if len(fields) != 3 or not fields[0].isdigit() or not re.fullmatch(r"\d{4}-\d{2}-\d{2}|undated", fields[2]):
        raise SystemExit(f"not id<TAB>name<TAB>date: {line!r}")
EOF
ok "ls --format: 1000 lines of three tab-separated fields, no escape from a hostile name"

pp ls >"$TMP/ls.txt"
head -n 1 "$TMP/ls.txt" | grep -qE '^ *ID +TAKEN +SIZE +MARKS +NAME +TAGS' || fail "ls: no table header: $(head -n 1 "$TMP/ls.txt")"
[ "$(wc -l <"$TMP/ls.txt")" = 1001 ] || fail "ls printed $(wc -l <"$TMP/ls.txt") lines, expected a header and 1000 rows"
if LC_ALL=C grep -q $'\e' "$TMP/ls.txt"; then fail "ls let an escape through to the table"; fi
ok "ls: a table of 1000 rows under a header, control characters stripped"

set +e
pp ls 'rating>=9' >"$TMP/bad.out" 2>"$TMP/bad.err"
code=$?
set -e
[ "$code" = 2 ] || fail "ls with a bad term exited $code, expected 2"
[ "$(wc -l <"$TMP/bad.err")" = 1 ] && grep -q 'rating>=9' "$TMP/bad.err" || fail "ls with a bad term: not one line naming it: $(cat "$TMP/bad.err")"
[ ! -s "$TMP/bad.out" ] || fail "ls with a bad term printed to stdout"
ok "ls 'rating>=9': exit 2, one line: $(cat "$TMP/bad.err")"

# one_line_error NAME CODE PATTERN COMMAND...: COMMAND exits CODE with one line on stderr matching PATTERN, and nothing on stdout.
one_line_error() {
  local name=$1 code=$2 pattern=$3 got
  shift 3
  set +e
  "$@" >"$TMP/$name.out" 2>"$TMP/$name.err"
  got=$?
  set -e
  [ "$got" = "$code" ] || fail "$name: exit $got, expected $code: $(cat "$TMP/$name.err")"
  [ "$(wc -l <"$TMP/$name.err")" = 1 ] && grep -qE "$pattern" "$TMP/$name.err" || fail "$name: not one line matching $pattern: $(cat "$TMP/$name.err")"
  [ ! -s "$TMP/$name.out" ] || fail "$name printed to stdout"
}
one_line_error key-in-argv 2 "^photopick get: Unknown option '--api-key'.*photopick get --help" "$PHOTOPICK" get --api-key pp_test_cli_key --api-url "$API"
one_line_error bad-ids 2 '^photopick get: --ids 1,x is not a list of photo ids' "$PHOTOPICK" get --ids 1,x
one_line_error no-key 2 '^photopick ls: --api-url .* needs an API key: set PHOTOPICK_API_KEY' "$PHOTOPICK" ls --api-url "$API"
ok "usage errors are one line naming the problem and the fix, exit 2: a key in argv is refused ($(cut -c1-50 "$TMP/key-in-argv.err")…); --api-url with no key says so rather than opening the demo"

echo "# tag add, tag rm, tags"
TAG="cli-$$"
pp tag add "$TAG" --ids 3,5,8 2>"$TMP/add.err" || fail "tag add exited $?: $(cat "$TMP/add.err")"
grep -q "Added “$TAG” to 3 photos" "$TMP/add.err" || fail "tag add said: $(cat "$TMP/add.err")"
read_library "$API" "$TMP/after-add.json"
python3 - "$TMP/after-add.json" "$TAG" 3,5,8 <<'EOF' || fail "after tag add the server's photos carrying $TAG differ (above)"
import json, sys
library, name, ids = json.load(open(sys.argv[1])), sys.argv[2], sorted(map(int, sys.argv[3].split(",")))
tags = [t["id"] for t in library["tags"] if t["name"] == name]
if len(tags) != 1:
    raise SystemExit(f"{len(tags)} tags named {name}")
carrying = sorted(p["id"] for p in library["photos"] if tags[0] in p.get("tagIds", []))
if carrying != ids:
    raise SystemExit(f"carrying {carrying}, expected {ids}")
EOF
ok "tag add NAME --ids 3,5,8: created the tag and the server has it on exactly those photos"

pp tag add "${TAG^^}" --ids 5,13 2>"$TMP/add2.err" || fail "tag add (again) exited $?"
grep -q "to 1 photo (1 already had it)" "$TMP/add2.err" || fail "tag add (again) said: $(cat "$TMP/add2.err")"
pp tags --json >"$TMP/tags.json"
python3 -c 'import json, sys; t = [t for t in json.load(open(sys.argv[1])) if t["name"] == sys.argv[2]]; assert len(t) == 1 and t[0]["photos"] == 4, t' "$TMP/tags.json" "$TAG" \
  || fail "tags --json does not count 4 photos for $TAG"
ok "tag add in another case adds to the same tag; tags --json counts 4 photos"

pp tag rm "$TAG" --ids 3,5,8,13 2>"$TMP/rm.err" || fail "tag rm exited $?: $(cat "$TMP/rm.err")"
read_library "$API" "$TMP/after-rm.json"
python3 - "$TMP/after-rm.json" "$TAG" <<'EOF' || fail "after tag rm a photo still carries $TAG (above)"
import json, sys
library, name = json.load(open(sys.argv[1])), sys.argv[2]
tag = next(t["id"] for t in library["tags"] if t["name"] == name)
left = [p["id"] for p in library["photos"] if tag in p.get("tagIds", [])]
if left:
    raise SystemExit(f"still on {left}")
EOF
ok "tag rm NAME --ids: the server no longer has it on any photo"

set +e
pp tag rm "no-such-tag-$$" --ids 3 2>"$TMP/rm-missing.err"
code=$?
set -e
[ "$code" = 2 ] && [ "$(wc -l <"$TMP/rm-missing.err")" = 1 ] || fail "tag rm of a missing tag: exit $code, $(cat "$TMP/rm-missing.err")"
ok "tag rm of a missing tag: exit 2, one line: $(cat "$TMP/rm-missing.err")"

echo "# get"
# A server of its own that fails a fifth of its requests (500, 503, 429, resets, truncated bodies, stalls).
serve faulty --photos 300 --original-megapixels 0.3 --fault-rate 0.2 --latency 300 --seed 5
FAULTY=$SERVER_URL FAULTY_PID=$SERVER_PID
fp() { PHOTOPICK_API_KEY=$KEY "$PHOTOPICK" "$@" --api-url "$FAULTY"; }
IDS=$(seq -s, 1 50)
fp get --ids "$IDS" --to "$TMP/get50" --concurrency 8 --jsonl >"$TMP/get50.jsonl" 2>"$TMP/get50.err" \
  || fail "get of 50 under 20% faults exited $?: $(tail -n 3 "$TMP/get50.err")"
python3 - "$TMP/get50.jsonl" "$TMP/faulty/images" "$TMP/get50" <<'PY' || fail "get of 50 under faults: files differ from the originals (above)"
import hashlib, json, os, sys
events = [json.loads(line) for line in open(sys.argv[1], encoding="utf-8")]
done = {e["id"]: e["path"] for e in events if e["event"] in ("done", "skipped")}
summary = [e for e in events if e["event"] == "summary"]
if len(done) != 50 or summary != [{"event": "summary", "total": 50, "done": 50, "skipped": 0, "failed": 0, "unopenable": 0}]:
    raise SystemExit(f"{len(done)} files reported, summary {summary}")
for photo, path in done.items():
    original = os.path.join(sys.argv[2], f"{photo}-original.jpg")
    if hashlib.sha256(open(path, "rb").read()).digest() != hashlib.sha256(open(original, "rb").read()).digest():
        raise SystemExit(f"photo {photo}: {path} differs from the server's original")
    if not os.path.realpath(path).startswith(os.path.realpath(sys.argv[3]) + os.sep):
        raise SystemExit(f"{path} is outside the folder")
parts = [f for f in os.listdir(sys.argv[3]) if f.endswith(".part")]
if parts:
    raise SystemExit(f"partial files left: {parts}")
PY
ok "get of 50 at concurrency 8 under 20% injected faults: all 50 byte-identical to the originals, no partial file left"

# Tag edits under the same faults: what the server ends up with is exactly what was asked.
FTAG="faulty-$$"
fp tag add "$FTAG" --ids "$(seq -s, 1 60)" 2>"$TMP/fadd.err" || fail "tag add under faults exited $?: $(cat "$TMP/fadd.err")"
fp tag rm "$FTAG" --ids "$(seq -s, 1 2 60)" 2>"$TMP/frm.err" || fail "tag rm under faults exited $?: $(cat "$TMP/frm.err")"
read_library "$FAULTY" "$TMP/faulty.json"
python3 - "$TMP/faulty.json" "$FTAG" <<'EOF' || fail "after tag add and rm under faults the server's photos carrying $FTAG differ (above)"
import json, sys
library, name = json.load(open(sys.argv[1])), sys.argv[2]
tags = [t["id"] for t in library["tags"] if t["name"] == name]
if len(tags) != 1:
    raise SystemExit(f"{len(tags)} tags named {name}")
carrying = sorted(p["id"] for p in library["photos"] if tags[0] in p.get("tagIds", []))
if carrying != list(range(2, 61, 2)):
    raise SystemExit(f"carrying {carrying}, expected the even ids 2 to 60")
EOF
ok "tag add on 60 photos, then tag rm on 30 of them, under 20% injected faults: the server has the tag once, on exactly the other 30"

# Interrupted hard: kill -9 partway, then get again. What finished is neither touched nor fetched again.
IDS=$(seq -s, 100 160)
# The binary itself in the background (not through fp, whose subshell would take the signal).
PHOTOPICK_API_KEY=$KEY "$PHOTOPICK" get --ids "$IDS" --to "$TMP/killed" --concurrency 2 --jsonl --api-url "$FAULTY" >"$TMP/killed.jsonl" 2>/dev/null &
GET_PID=$!
for _ in $(seq 600); do
  [ "$(grep -c '"event":"done"' "$TMP/killed.jsonl" 2>/dev/null)" -ge 5 ] && break
  sleep 0.05
done
kill -9 "$GET_PID" 2>/dev/null || fail "get finished before it could be killed"
wait "$GET_PID" 2>/dev/null || true
if pgrep -f -- "--to $TMP/killed" >/dev/null; then fail "a photopick get is still running after kill -9"; fi
python3 - "$TMP/killed.jsonl" >"$TMP/finished.txt" <<'PY'
import json, sys
for line in open(sys.argv[1], encoding="utf-8"):
    try:
        event = json.loads(line)
    except ValueError:
        continue  # the line kill -9 cut short
    if event["event"] == "done":
        print(f"{event['id']}\t{event['path']}")
PY
finished=$(wc -l <"$TMP/finished.txt")
[ "$finished" -ge 5 ] || fail "only $finished finished before the kill"
while IFS=$'\t' read -r id path; do stat -c "$id %i %Y %s" "$path"; done <"$TMP/finished.txt" >"$TMP/before.stat"
before_log=$(wc -l <"$TMP/faulty.out")
fp get --ids "$IDS" --to "$TMP/killed" --concurrency 8 2>"$TMP/again.err" || fail "get after kill -9 exited $?: $(tail -n 2 "$TMP/again.err")"
while IFS=$'\t' read -r id path; do stat -c "$id %i %Y %s" "$path"; done <"$TMP/finished.txt" >"$TMP/after.stat"
cmp -s "$TMP/before.stat" "$TMP/after.stat" || fail "files finished before kill -9 changed: $(diff "$TMP/before.stat" "$TMP/after.stat" | head -n 4)"
while IFS=$'\t' read -r id path; do
  if tail -n +"$((before_log + 1))" "$TMP/faulty.out" | grep -qE "GET /files/$id/original"; then fail "photo $id, finished before the kill, was fetched again"; fi
done <"$TMP/finished.txt"
count=$(find "$TMP/killed" -type f ! -name '*.part' | wc -l)
[ "$count" = 61 ] || fail "after the second get the folder holds $count files, expected 61"
ok "kill -9 during get, then get again: the $finished finished files untouched (inode, mtime) and not fetched again; all 61 there"
stop_server "$FAULTY_PID"

echo "# get and the browser carry on each other's downloads"
# A server that stalls every request 0.6 s, so a download is still under way when it is interrupted.
serve slow --photos 300 --original-megapixels 0.3 --fault-rate 1 --faults slow --latency 600 --seed 7
SLOW=$SERVER_URL SLOW_PID=$SERVER_PID
sp() { PHOTOPICK_API_KEY=$KEY "$PHOTOPICK" "$@" --api-url "$SLOW"; }
# browse NAME ARGS...: the browser in a tmux session of its own, on this run's folders and the slow server.
browse() {
  local name=$1
  shift
  rm -f "$TMP/$name.code"
  tmux -L "$SOCKET" -f /dev/null new-session -d -s "$name" -x 120 -y 40 \
    "env PHOTOPICK_API_KEY=$KEY TERM=xterm-256color XDG_DATA_HOME=$XDG_DATA_HOME XDG_STATE_HOME=$XDG_STATE_HOME XDG_CONFIG_HOME=$XDG_CONFIG_HOME XDG_CACHE_HOME=$XDG_CACHE_HOME $PHOTOPICK $* --api-url $SLOW 2>$TMP/$name.err; echo \$? >$TMP/$name.code; sleep 30"
}
# quit NAME: q, and y when it asks because downloads are still going; waits for the exit code.
quit() {
  tmux -L "$SOCKET" send-keys -t "$1" q
  for _ in $(seq 200); do
    [ -s "$TMP/$1.code" ] && break
    if tmux -L "$SOCKET" capture-pane -p -t "$1" | grep -qF "Quit?"; then tmux -L "$SOCKET" send-keys -t "$1" y; fi
    sleep 0.1
  done
  [ "$(cat "$TMP/$1.code" 2>/dev/null)" = 0 ] || fail "the browser ($1) exited $(cat "$TMP/$1.code" 2>/dev/null): $(cat "$TMP/$1.err")"
  tmux -L "$SOCKET" kill-session -t "$1" 2>/dev/null || true
}
# finished DIR: the files in DIR that are whole (no .part), one per line.
finished() { find "$1" -type f ! -name '*.part' | sort; }
# same_originals DIR COUNT: DIR holds COUNT files, each byte for byte one of the slow server's originals.
same_originals() {
  python3 - "$1" "$2" "$TMP/slow/images" <<'PY'
import hashlib, os, sys
folder, count, images = sys.argv[1], int(sys.argv[2]), sys.argv[3]
originals = {hashlib.sha256(open(os.path.join(images, n), "rb").read()).digest() for n in os.listdir(images) if n.endswith("-original.jpg")}
files = [os.path.join(root, n) for root, _, names in os.walk(folder) for n in names]
if len(files) != count or any(f.endswith(".part") for f in files):
    raise SystemExit(f"{len(files)} files in {folder}, expected {count} and no .part: {sorted(files)[:4]}")
for path in files:
    if hashlib.sha256(open(path, "rb").read()).digest() not in originals:
        raise SystemExit(f"{path} is not one of the originals")
PY
}
# stats FILE...: inode, mtime and size of each, to compare before and after.
stats() { while read -r path; do stat -c "%n %i %Y %s" "$path"; done; }
# originals_sent SINCE: how many photos' originals the slow server sent after its log line SINCE, each counted once.
originals_sent() {
  tail -n +"$(($1 + 1))" "$TMP/slow.out" | sed -nE 's#^GET /files/([0-9]+)/original (200|206) .*#\1#p' | sort -u | wc -l
}

# Ctrl-C during a get: exit 130 with one line, and the browser finishes what is left.
IDS=$(seq -s, 201 216)
PHOTOPICK_API_KEY=$KEY "$PHOTOPICK" get --ids "$IDS" --to "$TMP/handover" --concurrency 2 --jsonl --api-url "$SLOW" >"$TMP/int.jsonl" 2>"$TMP/int.err" &
GET_PID=$!
for _ in $(seq 600); do
  [ "$(grep -c '"event":"done"' "$TMP/int.jsonl" 2>/dev/null)" -ge 3 ] && break
  sleep 0.05
done
kill -INT "$GET_PID" 2>/dev/null || fail "get finished before Ctrl-C"
set +e
wait "$GET_PID"
code=$?
set -e
[ "$code" = 130 ] || fail "get after Ctrl-C exited $code, expected 130: $(cat "$TMP/int.err")"
[ "$(wc -l <"$TMP/int.err")" = 1 ] && grep -qE '^photopick get: interrupted: [0-9]+ of 16 not finished stay queued' "$TMP/int.err" \
  || fail "get after Ctrl-C said: $(cat "$TMP/int.err")"
finished "$TMP/handover" >"$TMP/int-done.txt"
before=$(wc -l <"$TMP/int-done.txt")
[ "$before" -ge 3 ] && [ "$before" -lt 16 ] || fail "$before of 16 finished before Ctrl-C; expected some, not all"
stats <"$TMP/int-done.txt" >"$TMP/int-before.stat"
sleep 1  # requests cut off by the interrupt finish their stall and reach the log first
since=$(wc -l <"$TMP/slow.out")
browse resume --download-dir "$TMP/elsewhere"
for _ in $(seq 900); do [ "$(finished "$TMP/handover" | wc -l)" = 16 ] && break; sleep 0.1; done
[ "$(finished "$TMP/handover" | wc -l)" = 16 ] || fail "the browser did not finish the interrupted get: $(finished "$TMP/handover" | wc -l) of 16 after 90 s"
quit resume
same_originals "$TMP/handover" 16 || fail "after the browser resumed, the folder is not the 16 originals (above)"
stats <"$TMP/int-done.txt" | cmp -s - "$TMP/int-before.stat" || fail "files the get finished changed when the browser resumed"
sent=$(originals_sent "$since")
[ "$sent" = $((16 - before)) ] || fail "the server sent $sent originals after Ctrl-C, expected only the $((16 - before)) not finished"
[ ! -e "$TMP/elsewhere" ] || [ -z "$(ls -A "$TMP/elsewhere")" ] || fail "the browser put the get's files in its own folder"
ok "Ctrl-C during get: exit 130 and one line ($(cut -c1-60 "$TMP/int.err")…); the browser, opened next, finished the other $((16 - before)) into the get's folder, the $before done untouched and not fetched again"

# The reverse: downloads the browser started, quit part way, are finished by a get into the same folder.
QUERY=IMG_40   # eleven photos of the seed-7 library
expected=$(sp ls --format '{id}' "$QUERY" | wc -l)
[ "$expected" -ge 8 ] || fail "the query $QUERY matches $expected photos; the check needs eight or more"
browse first --download-dir "$TMP/from-browser"
for _ in $(seq 600); do tmux -L "$SOCKET" capture-pane -p -t first | grep -qE ' 1/[1-9][0-9,]*$' && break; sleep 0.1; done
tmux -L "$SOCKET" send-keys -t first / "$QUERY" Enter
for _ in $(seq 100); do tmux -L "$SOCKET" capture-pane -p -t first | grep -qE " 1/$expected\$" && break; sleep 0.1; done
tmux -L "$SOCKET" capture-pane -p -t first | grep -qE " 1/$expected\$" || fail "the browser did not list the $expected photos of $QUERY: $(tmux -L "$SOCKET" capture-pane -p -t first | tail -n 1)"
tmux -L "$SOCKET" send-keys -t first a d
for _ in $(seq 600); do [ "$(finished "$TMP/from-browser" 2>/dev/null | wc -l)" -ge 2 ] && break; sleep 0.05; done
quit first
finished "$TMP/from-browser" >"$TMP/browser-done.txt"
before=$(wc -l <"$TMP/browser-done.txt")
[ "$before" -ge 2 ] && [ "$before" -lt "$expected" ] || fail "$before of $expected finished in the browser before it quit; expected some, not all"
stats <"$TMP/browser-done.txt" >"$TMP/browser-before.stat"
sleep 1
since=$(wc -l <"$TMP/slow.out")
sp get "$QUERY" --to "$TMP/from-browser" --concurrency 4 2>"$TMP/after-browser.err" || fail "get after the browser exited $?: $(cat "$TMP/after-browser.err")"
grep -qE "^photopick get: $((expected - before)) fetched, $before already there, 0 failed, of $expected" "$TMP/after-browser.err" \
  || fail "get after the browser said: $(cat "$TMP/after-browser.err")"
same_originals "$TMP/from-browser" "$expected" || fail "after the get, the folder is not the $expected originals (above)"
stats <"$TMP/browser-done.txt" | cmp -s - "$TMP/browser-before.stat" || fail "files the browser finished changed in the get"
sent=$(originals_sent "$since")
[ "$sent" = $((expected - before)) ] || fail "the server sent $sent originals to the get, expected only the $((expected - before)) not finished"
ok "downloads started in the browser and quit part way: get $QUERY finished the other $((expected - before)) of $expected, the $before done untouched and not fetched again"
stop_server "$SLOW_PID"

# Templates: every hostile name and a ../ in the template stay inside the folder.
pp get --to "$TMP/templated/inside" --template '../{title}/{taken:%Y}/../{filename}' --variant web 2>"$TMP/templated.err" >/dev/null \
  || fail "get with a template exited $?: $(tail -n 2 "$TMP/templated.err")"
outside=$(find "$TMP/templated" -type f ! -path "$TMP/templated/inside/*" | head -n 3)
[ -z "$outside" ] || fail "a templated file landed outside the folder: $outside"
count=$(find "$TMP/templated/inside" -type f | wc -l)
[ "$count" = 1000 ] || fail "the templated get wrote $count files, expected 1000"
if find "$TMP/templated/inside" | LC_ALL=C grep -q $'[\x01-\x1f]'; then fail "a control character reached a file or folder name"; fi
ok "get --template '../{title}/{taken:%Y}/../{filename}' of all 1000, hostile names included: every file inside the folder, no control character in a name"

echo "# XMP sidecars"
pp tag add Pick --ids 20 2>/dev/null && pp tag add '3 stars' --ids 20,21 2>/dev/null && pp tag add Red --ids 21 2>/dev/null \
  && pp tag add Reject --ids 22 2>/dev/null && pp tag add 'sea & <sky> "blue"' --ids 20,21 2>/dev/null || fail "could not mark photos 20-22"
pp get --ids 20,21,22 --to "$TMP/xmp" --variant web --sidecar xmp 2>"$TMP/xmp.err" || fail "get --sidecar xmp exited $?: $(cat "$TMP/xmp.err")"
grep -q "3 sidecars written" "$TMP/xmp.err" || fail "get --sidecar xmp said: $(cat "$TMP/xmp.err")"
cat >"$TMP/xmp.py" <<'PY'
import json, sys, xml.etree.ElementTree as ET
folder, expected = sys.argv[1], json.loads(sys.argv[2])
import os
NS = {"rdf": "http://www.w3.org/1999/02/22-rdf-syntax-ns#", "xmp": "http://ns.adobe.com/xap/1.0/", "dc": "http://purl.org/dc/elements/1.1/"}
found = {}
for name in os.listdir(folder):
    if not name.endswith(".xmp"):
        continue
    if not os.path.exists(os.path.join(folder, name[:-4])):
        raise SystemExit(f"{name} is beside no file")
    description = ET.parse(os.path.join(folder, name)).getroot().find("rdf:RDF/rdf:Description", NS)
    rating = description.get("{http://ns.adobe.com/xap/1.0/}Rating")
    label = description.get("{http://ns.adobe.com/xap/1.0/}Label")
    subjects = [li.text for li in description.findall("dc:subject/rdf:Bag/rdf:li", NS)]
    found[name[:-4]] = [rating, label, sorted(subjects)]
if sorted(map(json.dumps, found.values())) != sorted(map(json.dumps, expected)):
    raise SystemExit(f"sidecars say {found}, expected {expected}")
PY
EXPECTED='[["3", null, ["sea & <sky> \"blue\""]], ["3", "Red", ["sea & <sky> \"blue\""]], ["-1", null, []]]'
python3 "$TMP/xmp.py" "$TMP/xmp" "$EXPECTED" || fail "the XMP sidecars do not say what the marks are (above)"
ok "get --sidecar xmp: beside each file <file>.xmp, read by Python's XML parser: ratings 3, 3 and -1 (the reject), the red label, the keyword with & < > \" in it"
if command -v exiftool >/dev/null; then
  exiftool -j -XMP:Rating -XMP:Label -XMP:Subject "$TMP"/xmp/*.xmp >"$TMP/exif.json" 2>/dev/null || fail "exiftool could not read the sidecars"
  python3 - "$TMP/exif.json" <<'PY' || fail "exiftool reads the sidecars otherwise (above)"
import json, sys
rows = json.load(open(sys.argv[1]))
seen = sorted(json.dumps([row.get("Rating"), row.get("Label"), row.get("Subject")]) for row in rows)
expected = sorted(json.dumps(row) for row in [[3, None, 'sea & <sky> "blue"'], [3, "Red", 'sea & <sky> "blue"'], [-1, None, None]])
if seen != expected:
    raise SystemExit(f"exiftool: {seen}")
PY
  ok "exiftool reads the same ratings, label and keywords from the sidecars"
else
  echo "# exiftool is not installed (Debian: libimage-exiftool-perl); its check is left out"
fi
pp tag add '5 stars' --ids 20 2>/dev/null || fail "could not rate photo 20 five stars"
pp get --ids 20,21,22 --to "$TMP/xmp" --variant web --sidecar xmp 2>"$TMP/xmp2.err" || fail "the second get --sidecar xmp exited $?"
grep -q "0 fetched, 3 already there, 0 failed, of 3, 1 sidecar written" "$TMP/xmp2.err" || fail "the second get said: $(cat "$TMP/xmp2.err")"
EXPECTED='[["5", null, ["sea & <sky> \"blue\""]], ["3", "Red", ["sea & <sky> \"blue\""]], ["-1", null, []]]'
python3 "$TMP/xmp.py" "$TMP/xmp" "$EXPECTED" || fail "after 5 stars the sidecar was not rewritten (above)"
ok "marks changed, get again: nothing fetched, only the changed photo's sidecar rewritten (5 stars)"

echo "# sync"
SYNC=$TMP/sync
mkdir -p "$SYNC/mine"
echo "not photopick's" >"$SYNC/notes.txt"
echo "mine" >"$SYNC/mine/keep.jpg"
expected=$(pp ls --format '{id}' 'R0006' | wc -l)
NARROW=$(pp ls --format '{name}' 'R0006' | head -n 1)
kept=$(pp ls --format '{id}' "$NARROW" | wc -l)
[ "$kept" -ge 1 ] && [ $((expected - kept)) -ge 2 ] || fail "the query R0006 matches $expected, the narrower $NARROW $kept; the check needs two or more between them"
pp sync 'R0006' "$SYNC" --variant web --template '{taken:%Y}/{filename}' --sidecar xmp 2>"$TMP/sync1.err" || fail "sync exited $?: $(cat "$TMP/sync1.err")"
first=$(find "$SYNC" -type f -name '*.jpg' ! -path "$SYNC/mine/*" | wc -l)
[ "$first" = "$expected" ] || fail "sync fetched $first files, the query matches $expected photos"
pp sync "$NARROW" "$SYNC" --variant web --template '{taken:%Y}/{filename}' --sidecar xmp --delete --dry-run >"$TMP/plan.txt" 2>"$TMP/plan.err" \
  || fail "sync --dry-run exited $?"
[ "$(grep -c '^delete .*\.jpg$' "$TMP/plan.txt")" = $((expected - kept)) ] && [ "$(grep -c '^get ' "$TMP/plan.txt")" = 0 ] \
  || fail "sync --dry-run planned $(grep -c '^delete .*\.jpg$' "$TMP/plan.txt") deletions and $(grep -c '^get ' "$TMP/plan.txt") fetches, expected $((expected - kept)) and 0"
[ "$(find "$SYNC" -type f -name '*.jpg' ! -path "$SYNC/mine/*" | wc -l)" = "$first" ] || fail "sync --dry-run changed the folder"
# One of the files to go has been edited since (a byte added): it is the user's now, and stays.
EDITED=""
while read -r verb path; do
  if [ "$verb" = delete ] && [ -f "$path" ] && [ "${path%.jpg}" != "$path" ]; then EDITED=$path; break; fi
done <"$TMP/plan.txt"
[ -n "$EDITED" ] || fail "no planned deletion names a file that is there: $(head -n 3 "$TMP/plan.txt")"
printf 'x' >>"$EDITED"
edited_sum=$(sha256sum <"$EDITED")
pp sync "$NARROW" "$SYNC" --variant web --template '{taken:%Y}/{filename}' --sidecar xmp --delete --dry-run >"$TMP/plan2.txt" 2>/dev/null
grep -qxF "keep $EDITED" "$TMP/plan2.txt" || fail "sync --dry-run does not plan to keep the edited file: $(grep -F "$EDITED" "$TMP/plan2.txt")"
pp sync "$NARROW" "$SYNC" --variant web --template '{taken:%Y}/{filename}' --sidecar xmp --delete 2>"$TMP/sync2.err" || fail "sync --delete exited $?: $(cat "$TMP/sync2.err")"
left=$(find "$SYNC" -type f -name '*.jpg' ! -path "$SYNC/mine/*" | wc -l)
[ "$left" = $((kept + 1)) ] || fail "after sync --delete $left photos are left, expected the $kept the narrower query matches and the edited one"
[ "$(sha256sum <"$EDITED")" = "$edited_sum" ] || fail "sync --delete removed or changed the edited file $EDITED"
grep -qF "kept $EDITED: it changed since it was downloaded" "$TMP/sync2.err" || fail "sync --delete did not say it kept the edited file: $(cat "$TMP/sync2.err")"
[ "$(find "$SYNC" -type f -name '*.xmp' | wc -l)" = $((kept + 1)) ] || fail "after sync --delete the sidecars do not match the photos left"
[ -f "$SYNC/notes.txt" ] && [ "$(cat "$SYNC/mine/keep.jpg")" = mine ] || fail "sync --delete touched a file that is not its own"
ok "sync: $first fetched with sidecars; --dry-run plans $((expected - kept)) deletions and changes nothing; --delete leaves exactly the $kept that match, with their sidecars, keeps one of its own edited since (and says so), and never touches other files"

echo "# sync among the user's own files"
# A folder the user already keeps things in: a file under a photo's name, their own NAME.part, a
# byte-identical cp -p copy of an original, symlinks pointing out of the folder and into it. Synced,
# two downloads edited (one keeping its length with the date put back, as exiftool -P does), then
# synced to a narrower query with --delete: the user's files are untouched, and the edited downloads
# are kept and named on stderr, one line each.
OWN=$TMP/own OUT=$TMP/outside
mkdir -p "$OWN/sub" "$OUT"
pp ls --format '{id}|{filename}' 'R000687' >"$TMP/own.ls"
[ "$(wc -l <"$TMP/own.ls")" -ge 7 ] || fail "the query R000687 matches $(wc -l <"$TMP/own.ls") photos; the check needs 7"
name() { sed -n "$1p" "$TMP/own.ls" | cut -d'|' -f2; }
id() { sed -n "$1p" "$TMP/own.ls" | cut -d'|' -f1; }
NARROW=$(name 1); NARROW=${NARROW%.*}
echo "the user's own, not photopick's" >"$OWN/$(name 2)"
head -c 5000 /dev/urandom >"$OWN/$(name 3).part"
pp get --ids "$(id 4)" --to "$TMP/own-source" 2>/dev/null || fail "get of the photo to copy exited $?"
cp -p "$TMP/own-source/$(name 4)" "$OWN/$(name 4)"
echo "outside" >"$OUT/victim.jpg"
ln -s "$OUT/victim.jpg" "$OWN/$(name 5)"
ln -s "$OUT" "$OWN/out-folder"
echo "notes" >"$OWN/sub/notes.txt"
ln -s "$OWN/sub/notes.txt" "$OWN/link-in.jpg"
# user_state: every entry that is the user's, with its type, link target and SHA-256.
user_state() {
  (cd "$OWN" && find . -path ./sub -prune -o \( -type l -printf 'link %p -> %l\n' \) -o \( -type f -name "$(name 2)" -printf 'file %p\n' \) \
    -o \( -type f -name "$(name 3).part" -printf 'file %p\n' \) -o \( -type f -name "$(name 4)" -printf 'file %p\n' \) | sort)
  sha256sum "$OWN/$(name 2)" "$OWN/$(name 3).part" "$OWN/$(name 4)" "$OWN/sub/notes.txt" "$OUT/victim.jpg"
  ls -A "$OUT"
}
user_state >"$TMP/own.before"
pp sync 'R000687' "$OWN" 2>"$TMP/own1.err" || fail "sync among the user's files exited $?: $(cat "$TMP/own1.err")"
user_state >"$TMP/own.after1"
cmp -s "$TMP/own.before" "$TMP/own.after1" || fail "sync changed the user's files: $(diff "$TMP/own.before" "$TMP/own.after1" | head -n 6)"
stem2=$(name 2); stem5=$(name 5)
[ -f "$OWN/${stem2%.*} (2).${stem2##*.}" ] && [ -f "$OWN/${stem5%.*} (2).${stem5##*.}" ] \
  || fail "the photos whose names the user's file and link hold are not beside them as ' (2)': $(ls "$OWN")"
[ "$(find "$OWN" -maxdepth 1 -name "${stem2%.*}*" | wc -l)" = 2 ] || fail "photo 2 was written more than once: $(ls "$OWN")"
[ "$(find "$OWN" -maxdepth 1 -name "$(name 4)*" | wc -l)" = 1 ] || fail "the user's identical copy was downloaded again beside itself: $(ls "$OWN")"
[ -z "$(find "$OWN" -name '.photopick.*.part')" ] || fail "partial files left: $(find "$OWN" -name '.photopick.*')"
# Two downloads edited: one a byte longer, one with the same length and its date put back.
LONGER=$OWN/$(name 6) SAMELEN=$OWN/$(name 7)
printf 'x' >>"$LONGER"
cp -p "$SAMELEN" "$TMP/own-date"
python3 -c 'import sys; f = open(sys.argv[1], "r+b"); f.seek(-3, 2); b = f.read(1); f.seek(-3, 2); f.write(bytes([b[0] ^ 0xFF])); f.close()' "$SAMELEN"
touch -r "$TMP/own-date" "$SAMELEN"
edited_sums=$(sha256sum "$LONGER" "$SAMELEN")
user_state >"$TMP/own.before2"
pp sync "$NARROW" "$OWN" --delete --dry-run >"$TMP/own-plan.txt" 2>"$TMP/own-plan.err" || fail "sync --delete --dry-run exited $?: $(cat "$TMP/own-plan.err")"
grep -qxF "keep $LONGER" "$TMP/own-plan.txt" && grep -qxF "keep $SAMELEN" "$TMP/own-plan.txt" \
  || fail "the dry run does not plan to keep both edited downloads: $(cat "$TMP/own-plan.txt")"
if grep -E "$(name 2)\$|$(name 3).part|$(name 4)\$|$(name 5)\$|link-in|out-folder|notes" "$TMP/own-plan.txt"; then fail "the dry run plans to touch a file of the user's (above)"; fi
pp sync "$NARROW" "$OWN" --delete 2>"$TMP/own2.err" || fail "sync --delete among the user's files exited $?: $(cat "$TMP/own2.err")"
user_state >"$TMP/own.after2"
cmp -s "$TMP/own.before2" "$TMP/own.after2" || fail "sync --delete changed the user's files: $(diff "$TMP/own.before2" "$TMP/own.after2" | head -n 6)"
[ "$(sha256sum "$LONGER" "$SAMELEN")" = "$edited_sums" ] || fail "sync --delete changed or removed an edited download"
[ "$(grep -c ': it changed since it was downloaded$' "$TMP/own2.err")" = 2 ] && grep -qF "kept $LONGER: it changed" "$TMP/own2.err" \
  && grep -qF "kept $SAMELEN: it changed" "$TMP/own2.err" || fail "sync --delete did not name each edited download once: $(cat "$TMP/own2.err")"
deleted=$(grep -c '^delete ' "$TMP/own-plan.txt")
while read -r verb path; do
  [ "$verb" = delete ] && [ -e "$path" ] && fail "the dry run planned to delete $path, the run left it"
done <"$TMP/own-plan.txt"
grep -qF "deleted $deleted files that no longer match" "$TMP/own2.err" || fail "the run deleted other than the $deleted the dry run planned: $(tail -n 1 "$TMP/own2.err")"
[ -f "$OWN/$(name 1)" ] || fail "the photo the narrower query matches is gone"
ok "sync among the user's files (same names, a .part, a cp -p copy, links in and out): none of them changed (sha256, links); --delete removed exactly the $deleted its dry run planned and kept both edited downloads (one of the same length, date restored), naming each once"

echo "# pick"
expected=$(pp ls --format '{id}' 'R00069' | head -n 2)
tmux -L "$SOCKET" -f /dev/null new-session -d -s pick -x 120 -y 40 \
  "env PHOTOPICK_API_KEY=$KEY TERM=xterm-256color XDG_DATA_HOME=$XDG_DATA_HOME XDG_STATE_HOME=$XDG_STATE_HOME XDG_CONFIG_HOME=$XDG_CONFIG_HOME XDG_CACHE_HOME=$XDG_CACHE_HOME $PHOTOPICK pick R00069 --api-url $API >$TMP/pick.out 2>$TMP/pick.err; echo \$? >$TMP/pick.code; sleep 30"
# The list is there once the status line shows the cursor on the first of the photos listed.
for _ in $(seq 600); do tmux -L "$SOCKET" capture-pane -p -t pick | grep -qE ' 1/[1-9][0-9,]*$' && break; sleep 0.1; done
tmux -L "$SOCKET" capture-pane -p -t pick | grep -q '/R00069' || fail "pick did not open the browser filtered by its query: $(tmux -L "$SOCKET" capture-pane -p -t pick | head -n 2)"
tmux -L "$SOCKET" send-keys -t pick Space Space
for _ in $(seq 600); do tmux -L "$SOCKET" capture-pane -p -t pick | grep -q '2 selected' && break; sleep 0.1; done
tmux -L "$SOCKET" capture-pane -p -t pick | grep -q '2 selected' \
  || fail "pick: two spaces did not select two photos: $(tmux -L "$SOCKET" capture-pane -p -t pick | sed -n '1p;$p')"
tmux -L "$SOCKET" send-keys -t pick q
for _ in $(seq 100); do [ -s "$TMP/pick.code" ] && break; sleep 0.1; done
tmux -L "$SOCKET" kill-server 2>/dev/null || true
[ "$(cat "$TMP/pick.code" 2>/dev/null)" = 0 ] || fail "pick exited $(cat "$TMP/pick.code" 2>/dev/null): $(cat "$TMP/pick.err")"
[ "$(cat "$TMP/pick.out")" = "$expected" ] || fail "pick printed $(cat -A "$TMP/pick.out" | head -c 300), expected the two selected ids $(echo $expected)"
ok "pick R00069 in tmux: two selected with space, q, and standard output holds exactly their ids ($(echo $expected)), the screen none of it"

# The whole selection comes out, as the browser's keys act on it: the listed first, then one the query
# now hides. The rest of the second photo's name, typed onto the query, leaves only it listed.
second_name=$(pp ls --format '{name}' 'R00069' | sed -n 2p)
rest=${second_name#R00069}
[ -n "$rest" ] && [ "$rest" != "$second_name" ] || fail "the second photo of R00069 is named $second_name; the check needs R00069…"
rm -f "$TMP/pick.code"
tmux -L "$SOCKET" -f /dev/null new-session -d -s pick2 -x 120 -y 40 \
  "env PHOTOPICK_API_KEY=$KEY TERM=xterm-256color XDG_DATA_HOME=$XDG_DATA_HOME XDG_STATE_HOME=$XDG_STATE_HOME XDG_CONFIG_HOME=$XDG_CONFIG_HOME XDG_CACHE_HOME=$XDG_CACHE_HOME $PHOTOPICK pick R00069 --api-url $API >$TMP/pick.out 2>$TMP/pick.err; echo \$? >$TMP/pick.code; sleep 30"
for _ in $(seq 600); do tmux -L "$SOCKET" capture-pane -p -t pick2 | grep -qE ' 1/[1-9][0-9,]*$' && break; sleep 0.1; done
tmux -L "$SOCKET" send-keys -t pick2 Space Space
for _ in $(seq 600); do tmux -L "$SOCKET" capture-pane -p -t pick2 | grep -q '2 selected' && break; sleep 0.1; done
tmux -L "$SOCKET" send-keys -t pick2 /
tmux -L "$SOCKET" send-keys -t pick2 -l "$rest"
tmux -L "$SOCKET" send-keys -t pick2 Enter
for _ in $(seq 100); do tmux -L "$SOCKET" capture-pane -p -t pick2 | grep -qE ' 1/1$' && break; sleep 0.1; done
tmux -L "$SOCKET" capture-pane -p -t pick2 | grep -qE ' 1/1$' || fail "pick: the query R00069$rest does not list one photo: $(tmux -L "$SOCKET" capture-pane -p -t pick2 | tail -n 1)"
tmux -L "$SOCKET" send-keys -t pick2 q
for _ in $(seq 100); do [ -s "$TMP/pick.code" ] && break; sleep 0.1; done
tmux -L "$SOCKET" kill-server 2>/dev/null || true
[ "$(cat "$TMP/pick.code" 2>/dev/null)" = 0 ] || fail "pick exited $(cat "$TMP/pick.code" 2>/dev/null): $(cat "$TMP/pick.err")"
reordered=$(printf '%s\n%s' "$(echo "$expected" | sed -n 2p)" "$(echo "$expected" | sed -n 1p)")
[ "$(cat "$TMP/pick.out")" = "$reordered" ] || fail "pick with one selected photo hidden printed $(cat -A "$TMP/pick.out" | head -c 300), expected $(echo $reordered)"
ok "pick, two selected, then the query narrowed to the second: both ids come out, the listed one first ($(echo $reordered))"

echo "# edit and rm"
# photo ID: the server's copy of one photo, as JSON on one line.
photo() {
  python3 - "$API" "$KEY" "$1" <<'PY'
import json, sys, urllib.request, urllib.error
base, key, id = sys.argv[1:4]
request = urllib.request.Request(f"{base}/photos/{id}", headers={"Authorization": "Bearer " + key})
try:
    print(json.dumps(json.load(urllib.request.urlopen(request, timeout=30)), sort_keys=True))
except urllib.error.HTTPError as error:
    print(json.dumps({"status": error.code}))
PY
}
field() { photo "$1" | python3 -c "import json, sys; print(json.load(sys.stdin).get('$2'))"; }
# one_line FILE WHAT: FILE holds exactly one line, the error a verb wrote.
one_line() { [ "$(wc -l <"$1")" -eq 1 ] || fail "$2 wrote $(wc -l <"$1") lines to stderr, not one: $(cat -A "$1" | head -c 400)"; }

hostile_title=$'Harbour\tat\ndusk \e[31m☃'
pp edit --ids 901 --title "$hostile_title" --description '' --jsonl >"$TMP/edit.jsonl" 2>"$TMP/edit.err" || fail "edit --title exited $?: $(cat "$TMP/edit.err")"
python3 - "$TMP/edit.jsonl" "$hostile_title" <<'PY' || fail "edit --jsonl does not report the title it set (above)"
import json, sys
events = [json.loads(line) for line in open(sys.argv[1], encoding="utf-8")]
assert events[0] == {"event": "edited", "id": 901, "title": sys.argv[2]} or events[0]["title"] == sys.argv[2], events
assert events[-1] == {"edited": 1, "event": "summary", "failed": 0}, events[-1]
PY
[ "$(photo 901 | python3 -c 'import json, sys; print(repr(json.load(sys.stdin)["title"]))')" = "$(python3 -c 'import sys; print(repr(sys.argv[1]))' "$hostile_title")" ] \
  || fail "the server's title of 901 is $(field 901 title), not the one set"
ok "edit --title keeps a tab, a newline and an escape exactly; --jsonl reports it"

pp edit --ids 902 --filename '../../etc/passwd' 2>"$TMP/edit.err" || fail "edit --filename ../ exited $?: $(cat "$TMP/edit.err")"
[ "$(field 902 filename)" = "../../etc/passwd" ] || fail "the server's name of 902 is $(field 902 filename)"
long_ok=$(python3 -c 'print("é" * 148 + ".jpg")')   # 300 bytes, 152 characters: the server takes it
pp edit --ids 903 --filename "$long_ok" 2>"$TMP/edit.err" || fail "a 300-byte name of 152 characters was refused: $(cat "$TMP/edit.err")"
[ "$(field 903 filename)" = "$long_ok" ] || fail "the 300-byte name did not arrive whole"
long_bad=$(python3 -c 'print("n" * 296 + ".jpg")')   # 300 characters: more than the server's 255
before=$(field 904 filename)
if pp edit --ids 904 --filename "$long_bad" 2>"$TMP/edit.err"; then fail "a 300-character name was accepted"; fi
one_line "$TMP/edit.err" "edit with a name the server refuses"
grep -q "255" "$TMP/edit.err" || fail "the server's refusal did not reach the user: $(cat "$TMP/edit.err")"
[ "$(field 904 filename)" = "$before" ] || fail "the refused name changed 904 anyway"
ok "edit --filename: ../ and a 300-byte name arrive as given; a 300-character one is the server's refusal in one line ($(cut -c1-80 "$TMP/edit.err")…)"

if pp edit --ids 905,906 --filename same.jpg 2>"$TMP/edit.err"; then fail "one name for two photos was accepted"; fi
one_line "$TMP/edit.err" "edit with one name for two photos"
printf '905\n906\n907\n' | pp edit - --filename '{taken:%Y%m%d}_{n:03}.{extension}' 2>"$TMP/edit.err" || fail "edit - --filename TEMPLATE exited $?: $(cat "$TMP/edit.err")"
for n in 1 2 3; do
  name=$(field $((904 + n)) filename)
  [[ $name =~ ^[0-9]{8}_00${n}\.[A-Za-z]+$ ]] || fail "photo $((904 + n)) is named $name, not <date>_00$n.<ext>"
done
t0=$(field 908 takenAt)
pp edit --ids 908 --shift +1h 2>"$TMP/edit.err" || fail "edit --shift exited $?: $(cat "$TMP/edit.err")"
python3 - "$t0" "$(field 908 takenAt)" <<'PY' || fail "edit --shift +1h did not move 908 by exactly an hour (above)"
import sys
from datetime import datetime, timedelta
a, b = (datetime.fromisoformat(t.replace("Z", "+00:00")) for t in sys.argv[1:3])
assert b - a == timedelta(hours=1), (a, b)
PY
if pp edit --ids 908 --shift 1h 2>"$TMP/edit.err"; then fail "a shift without a sign was accepted"; fi
one_line "$TMP/edit.err" "edit --shift 1h"
ok "edit: one name for two is refused, a template numbers ids read from -, --shift +1h moves by exactly an hour"

# The editor: a script that renames (tabs kept), one that deletes a line, one that fails.
cat >"$TMP/editor-rename.sh" <<'SH'
#!/bin/sh
awk -F '\t' 'BEGIN { OFS = "\t" } /^#/ || NF != 3 { print; next } { $2 = "Edited_" $1 ".jpg"; $3 = "Tab\\there"; print }' "$1" >"$1.new" && mv "$1.new" "$1"
SH
cat >"$TMP/editor-drop.sh" <<'SH'
#!/bin/sh
grep -v '^910	' "$1" >"$1.new"; mv "$1.new" "$1"
SH
printf '#!/bin/sh\nexit 3\n' >"$TMP/editor-fail.sh"
chmod +x "$TMP"/editor-*.sh
EDITOR=$TMP/editor-rename.sh pp edit --ids 909,910 --editor --yes 2>"$TMP/edit.err" || fail "edit --editor exited $?: $(cat "$TMP/edit.err")"
[ "$(field 909 filename)" = "Edited_909.jpg" ] && [ "$(field 910 title)" = "$(printf 'Tab\there')" ] || fail "the editor's changes did not arrive: $(photo 910)"
before=$(photo 911)
if EDITOR=$TMP/editor-drop.sh pp edit --ids 910,911 --editor --yes 2>"$TMP/edit.err"; then fail "a removed line was applied"; fi
one_line "$TMP/edit.err" "edit --editor with a line removed"
grep -q "photo 910" "$TMP/edit.err" && grep -q "missing" "$TMP/edit.err" || fail "the removed line is not named: $(cat "$TMP/edit.err")"
kept=$(sed -nE 's/.*kept at ([^ ]+\.tsv).*/\1/p' "$TMP/edit.err")
[ -f "$kept" ] || fail "the edited file is not kept where the error says ($kept)"
if VISUAL=$TMP/editor-fail.sh pp edit --ids 911 --editor --yes 2>"$TMP/edit.err"; then fail "an editor exiting 3 was applied"; fi
one_line "$TMP/edit.err" "edit --editor with a failing editor"
grep -q "status 3" "$TMP/edit.err" || fail "the editor's status is not said: $(cat "$TMP/edit.err")"
[ "$(photo 911)" = "$before" ] || fail "photo 911 changed though nothing was applied: $before → $(photo 911)"
ok "edit --editor: a rename with a tab escaped arrives; a removed line or a failing editor applies nothing, in one line, the file kept"

code=0
pp rm --ids 920 </dev/null 2>"$TMP/rm.err" || code=$?
[ "$code" = 2 ] || fail "rm without --yes and without a terminal exited $code, not 2 (usage)"
one_line "$TMP/rm.err" "rm without --yes"
grep -q -- "--yes" "$TMP/rm.err" || fail "rm without --yes does not say to pass it: $(cat "$TMP/rm.err")"
pp rm --ids 920,921 --dry-run >"$TMP/rm.dry" 2>"$TMP/rm.err" || fail "rm --dry-run exited $?"
[ "$(wc -l <"$TMP/rm.dry")" -eq 2 ] && [ "$(field 920 status)" = None ] || fail "rm --dry-run listed $(wc -l <"$TMP/rm.dry") or deleted"
# Photo 5's name is an escape sequence: its kept original must land, safely named, in the folder.
for id in 5 920 921; do
  python3 - "$API" "$KEY" "$id" "$TMP/original-$id" <<'PY'
import sys, urllib.request
base, key, id, out = sys.argv[1:5]
request = urllib.request.Request(f"{base}/photos/{id}/download", headers={"Authorization": "Bearer " + key})
open(out, "wb").write(urllib.request.urlopen(request, timeout=60).read())
PY
done
printf '5\n920\n921\n' | pp rm - --keep-originals "$TMP/purged" --yes --jsonl >"$TMP/rm.jsonl" 2>"$TMP/rm.err" || fail "rm --yes exited $?: $(cat "$TMP/rm.err")"
python3 - "$TMP/rm.jsonl" "$XDG_STATE_HOME/photopick/purge-log.jsonl" "$TMP" <<'PY' || fail "rm's report, the purge log or the kept originals are wrong (above)"
import json, os, sys
events = [json.loads(line) for line in open(sys.argv[1])]
log = [json.loads(line) for line in open(sys.argv[2])]
tmp = sys.argv[3]
assert [e["event"] for e in events] == ["deleted"] * 3 + ["summary"], events
for event in events[:3]:
    kept = event["kept"]
    assert os.path.dirname(kept) == os.path.join(tmp, "purged"), kept
    assert "\x1b" not in kept, kept
    assert open(kept, "rb").read() == open(os.path.join(tmp, f"original-{event['id']}"), "rb").read(), f"kept {kept} differs"
    kinds = [r["kind"] for r in log if r["id"] == event["id"] and r["kind"] != "finished"]
    assert kinds == ["planned", "kept", "intent", "deleted"], (event["id"], kinds)
PY
for id in 5 920 921; do [ "$(field $id status)" = 404 ] || fail "photo $id is still on the server after rm"; done
pp rm --ids 5 --yes 2>"$TMP/rm.err" || fail "rm again of a photo it deleted exited $?: $(cat "$TMP/rm.err")"
grep -q "1 already deleted by an earlier purge (5)" "$TMP/rm.err" || fail "rm again did not say photo 5 was deleted before: $(cat "$TMP/rm.err")"
ok "rm: asks or needs --yes, --dry-run lists, ids from -, originals kept byte for byte (an escape in a name made safe), logged plan→kept→intent→deleted; run again, it says they are already deleted"

echo "# originals of every kind"
# A HEIC downloads as itself; --format jpeg asks the service for a JPEG of it, saved as NAME.jpg; a DNG's
# sidecar is NAME.DNG.xmp (darktable's name, which keeps a pair's two sidecars apart).
HEIC=$(pp ls --format '{id}|{filename}' 'HEIC' | head -n 1)
DNG=$(pp ls --format '{id}|{filename}' 'DNG' | head -n 1)
[ -n "$HEIC" ] && [ -n "$DNG" ] || fail "the demo library has no HEIC or no DNG: '$HEIC' '$DNG'"
pp get --ids "${HEIC%%|*}" --to "$TMP/kinds/original" 2>"$TMP/kinds.err" || fail "get of a HEIC exited $?: $(cat "$TMP/kinds.err")"
pp get --ids "${HEIC%%|*}" --format jpeg --to "$TMP/kinds/jpeg" 2>>"$TMP/kinds.err" || fail "get --format jpeg exited $?: $(cat "$TMP/kinds.err")"
pp get --ids "${DNG%%|*}" --sidecar xmp --to "$TMP/kinds/raw" 2>>"$TMP/kinds.err" || fail "get of a DNG exited $?: $(cat "$TMP/kinds.err")"
if pp get --ids "${HEIC%%|*}" --format webp --to "$TMP/kinds/webp" 2>"$TMP/kinds-webp.err"; then fail "get --format webp was accepted"; fi
python3 - "$TMP/kinds" "${HEIC#*|}" "${DNG#*|}" <<'PY' || fail "the originals of other kinds are wrong (above)"
import os, sys
root, heic, dng = sys.argv[1:4]
stem = heic.rsplit(".", 1)[0]
assert os.listdir(f"{root}/original") == [heic], os.listdir(f"{root}/original")
assert open(f"{root}/original/{heic}", "rb").read(12)[4:12] == b"ftypheic", "the HEIC is not a HEIC"
assert os.listdir(f"{root}/jpeg") == [stem + ".jpg"], os.listdir(f"{root}/jpeg")
assert open(f"{root}/jpeg/{stem}.jpg", "rb").read(3) == b"\xff\xd8\xff", "--format jpeg did not give a JPEG"
assert sorted(os.listdir(f"{root}/raw")) == [dng, dng + ".xmp"], os.listdir(f"{root}/raw")
assert open(f"{root}/raw/{dng}", "rb").read(4) == b"II*\x00", "the DNG is not a TIFF"
PY
grep -q "use original or jpeg" "$TMP/kinds-webp.err" || fail "get --format webp did not say what to use: $(cat "$TMP/kinds-webp.err")"
HEIC_NAME=${HEIC#*|}
ok "originals of every kind: $HEIC_NAME downloads as HEIC and with --format jpeg as ${HEIC_NAME%.*}.jpg, ${DNG#*|} as a DNG with ${DNG#*|}.xmp beside it; --format webp is refused with the formats to use"

echo "# RAW+JPEG pairs"
# A pair (a DNG and the JPEG of its shot, listed one after the other): a query that finds it gets both
# files, --ids exactly the file named, --pairs raw or jpeg that file of the pair whichever was named; an
# unknown choice is refused with the ones to use.
PAIR=$(pp ls --format '{id}|{filename}' | awk -F'|' '{ stem = $2; sub(/\.[^.]*$/, "", stem) }
  stem == last && $2 ~ /\.JPG$/ && previous ~ /\.DNG$/ { print previous "|" $0; exit } { last = stem; previous = $0 }')
[ -n "$PAIR" ] || fail "the demo library lists no RAW+JPEG pair"
IFS='|' read -r RAW_ID RAW_NAME JPG_ID JPG_NAME <<<"$PAIR"
pp get "${JPG_NAME%.*}" --to "$TMP/pairs/both" 2>"$TMP/pairs.err" || fail "get of a pair exited $?: $(cat "$TMP/pairs.err")"
pp get --ids "$JPG_ID" --to "$TMP/pairs/named" 2>>"$TMP/pairs.err" || fail "get --ids of a pair's JPEG exited $?: $(cat "$TMP/pairs.err")"
pp get --ids "$JPG_ID" --pairs raw --to "$TMP/pairs/raw" 2>>"$TMP/pairs.err" || fail "get --pairs raw exited $?: $(cat "$TMP/pairs.err")"
pp get --ids "$RAW_ID" --pairs jpeg --to "$TMP/pairs/jpeg" 2>>"$TMP/pairs.err" || fail "get --pairs jpeg exited $?: $(cat "$TMP/pairs.err")"
if pp get --ids "$RAW_ID" --pairs all --to "$TMP/pairs/all" 2>"$TMP/pairs-all.err"; then fail "get --pairs all was accepted"; fi
grep -q "use both, raw or jpeg" "$TMP/pairs-all.err" || fail "get --pairs all did not say what to use: $(cat "$TMP/pairs-all.err")"
[ "$(ls "$TMP/pairs/both" | sort | tr '\n' ' ')" = "$(printf '%s\n' "$RAW_NAME" "$JPG_NAME" | sort | tr '\n' ' ')" ] \
  || fail "get ${JPG_NAME%.*} did not bring both files of the pair: $(ls "$TMP/pairs/both")"
[ "$(ls "$TMP/pairs/named")" = "$JPG_NAME" ] || fail "get --ids $JPG_ID brought $(ls "$TMP/pairs/named"), not $JPG_NAME alone"
[ "$(ls "$TMP/pairs/raw")" = "$RAW_NAME" ] || fail "--pairs raw brought $(ls "$TMP/pairs/raw"), not $RAW_NAME"
[ "$(ls "$TMP/pairs/jpeg")" = "$JPG_NAME" ] || fail "--pairs jpeg brought $(ls "$TMP/pairs/jpeg"), not $JPG_NAME"
ok "RAW+JPEG pairs: get ${JPG_NAME%.*} brings $RAW_NAME and $JPG_NAME, --ids $JPG_ID only $JPG_NAME, --pairs raw the DNG and --pairs jpeg the JPEG whichever is named; --pairs all is refused"

echo "# originals the server holds damaged"
# The same library served again with one original of each kind stored damaged (its magic, then random
# bytes, its digest its own): get fetches and verifies each, then reads each through its format's
# decoder; a damaged one is one line naming the file and why, kept as the server holds it, exit 5.
pp ls --format '{id}|{filename}' >"$TMP/kinds.list"
DAMAGED=$(python3 - "$TMP/kinds.list" <<'PY'
import sys
first = {}
for line in open(sys.argv[1], encoding="utf-8"):
    photo_id, name = line.rstrip("\n").split("|", 1)
    first.setdefault(name.rsplit(".", 1)[-1].lower(), photo_id)
kinds = ["jpg", "heic", "dng", "png", "tif", "webp", "avif"]
missing = [kind for kind in kinds if kind not in first]
if missing: raise SystemExit(f"no {missing} in the demo library: {sorted(first)}")
print(",".join(first[kind] for kind in kinds))
PY
) || fail "the demo library lacks a kind of original"
HEALTHY=$(awk -F'|' '$2 ~ /\.JPG$/ { n++ } n == 2 { print $1; exit }' "$TMP/kinds.list")
serve damaged --photos 1000 --original-megapixels 0.1 --damaged-originals "$DAMAGED"
code=0
PHOTOPICK_API_KEY=$KEY "$PHOTOPICK" get --ids "$DAMAGED,$HEALTHY" --to "$TMP/damaged-get" --jsonl --api-url "$SERVER_URL" \
  >"$TMP/damaged.jsonl" 2>"$TMP/damaged.err" || code=$?
[ "$code" = 5 ] || fail "get of damaged originals exited $code, expected 5: $(cat "$TMP/damaged.err")"
python3 - "$TMP/damaged.jsonl" "$TMP/damaged.err" "$TMP/damaged-get" "$DAMAGED" "$HEALTHY" <<'PY' || fail "damaged originals were not reported as they should be (above)"
import json, os, sys
events = [json.loads(line) for line in open(sys.argv[1], encoding="utf-8")]
errors = open(sys.argv[2], encoding="utf-8").read().splitlines()
folder, damaged, healthy = sys.argv[3], {int(i) for i in sys.argv[4].split(",")}, int(sys.argv[5])
unopenable = {e["id"]: e for e in events if e["event"] == "unopenable"}
assert set(unopenable) == damaged, f"unopenable {sorted(unopenable)}, damaged {sorted(damaged)}"
done = {e["id"] for e in events if e["event"] == "done"}
assert done == damaged | {healthy}, f"done {sorted(done)}"
assert len(os.listdir(folder)) == len(damaged) + 1, os.listdir(folder)
lines = [line for line in errors if " does not open: " in line]
assert len(lines) == len(damaged), errors
for event in unopenable.values():
    assert os.path.exists(event["path"]), f"{event['path']} was not kept"
    assert any(event["path"] in line and "kept as the server holds it" in line for line in lines), (event, lines)
assert errors[-1].startswith(f"photopick get: {len(damaged)} of {len(damaged) + 1} do not open"), errors[-1]
summary = [e for e in events if e["event"] == "summary"][0]
assert summary["unopenable"] == len(damaged) and summary["failed"] == 0, summary
PY
ok "damaged originals of all seven kinds: get fetches them whole, names each in one line ($(grep -m1 'does not open' "$TMP/damaged.err" | sed 's/.*does not open: //' | cut -c1-50)…), keeps them as the server holds them, the healthy one passes, exit 5"

echo "# stats"
# Marks of every kind on the first server's photos, then the figures against Python's own counts over ls --json.
mapfile -t ids < <(pp ls --format '{id}' | head -10)
pp tag add Pick --ids "${ids[0]},${ids[1]},${ids[2]}" >/dev/null
pp tag add "3 stars" --ids "${ids[1]},${ids[3]},${ids[5]},${ids[7]}" >/dev/null
pp tag add "5 stars" --ids "${ids[7]},${ids[8]}" >/dev/null
pp tag add Red --ids "${ids[3]},${ids[9]}" >/dev/null
pp ls --json >"$TMP/all.json"
pp stats --json >"$TMP/stats.json" 2>"$TMP/stats.err" || fail "stats --json exited $?: $(cat "$TMP/stats.err")"
pp ls --summary --json >"$TMP/summary.json"
pp stats 'taken:2015' --json >"$TMP/stats-2015.json"
pp ls --json 'taken:2015' >"$TMP/ls-2015.json"
python3 - "$TMP/all.json" "$TMP/stats.json" "$TMP/summary.json" "$TMP/ls-2015.json" "$TMP/stats-2015.json" <<'PY' || fail "stats --json does not match Python's counts over ls --json (above)"
import json, sys, collections, time
from datetime import datetime
def counts(photos):
    days, months = collections.Counter(), collections.Counter()
    undated = 0
    for p in photos:
        if p.get("takenAt") is None:
            undated += 1
            continue
        # Days in this machine's zone, as photopick and taken: read them.
        local = datetime.fromisoformat(p["takenAt"].replace("Z", "+00:00")).astimezone()
        days[local.strftime("%Y-%m-%d")] += 1
        months[local.strftime("%Y-%m")] += 1
    lenses = collections.Counter(p.get("lens") or None for p in photos)
    marks = [p["marks"] for p in photos]
    summary = {
        "photos": len(photos),
        "picked": sum(m["flag"] == "pick" for m in marks),
        "rejected": sum(m["flag"] == "reject" for m in marks),
        "rated": sum((m["rating"] or 0) > 0 for m in marks),
        "labelled": sum(m["label"] is not None for m in marks),
    }
    summary["untouched"] = sum(m["flag"] is None and not m["rating"] and m["label"] is None for m in marks)
    stars = collections.Counter(m["rating"] or 0 for m in marks)
    labels = collections.Counter(m["label"] for m in marks if m["label"])
    return days, months, undated, lenses, summary, stars, labels
def check(photos, stats, summary_json=None):
    days, months, undated, lenses, summary, stars, labels = counts(photos)
    assert stats["summary"] == summary, (stats["summary"], summary)
    if summary_json is not None:
        assert summary_json == summary, (summary_json, summary)
    assert stats["photos"] == len(photos) and stats["undated"] == undated, (stats["photos"], stats["undated"], undated)
    assert {d["day"]: d["count"] for d in stats["days"]} == dict(days), "days differ"
    assert {m["label"]: m["count"] for m in stats["months"]} == dict(months), "months differ"
    got_lenses = {(b["label"] if b.get("term") else None): b["count"] for b in stats["lenses"]}
    assert got_lenses == dict(lenses), (got_lenses, dict(lenses))
    got_stars = {(len(b["label"]) if b["label"] != "unrated" else 0): b["count"] for b in stats["ratings"]}
    assert got_stars == {n: stars.get(n, 0) for n in range(6)}, (got_stars, stars)
    assert {b["label"]: b["count"] for b in stats["labels"] if b["count"]} == dict(labels), (stats["labels"], labels)
    for field, key in [("iso", ("exposure", "iso")), ("aperture", ("exposure", "fNumber")), ("focalLengths", ("exposure", "focalLength"))]:
        recorded = sum(1 for p in photos if (p.get(key[0]) or {}).get(key[1]))
        assert sum(b["count"] for b in stats[field] if b.get("term")) == recorded, (field, recorded)
    return summary
summary = check(json.load(open(sys.argv[1])), json.load(open(sys.argv[2])), json.load(open(sys.argv[3])))
assert summary["picked"] >= 3 and summary["rated"] >= 5 and summary["labelled"] >= 2, summary
check(json.load(open(sys.argv[4])), json.load(open(sys.argv[5])))
print(f"# {summary}")
PY
ok "stats --json and ls --summary --json equal Python's counts over ls --json: days, months, lenses, ratings, labels, marks, on the whole library and on taken:2015"

pp stats >"$TMP/stats.txt"
grep -q "^Lenses$" "$TMP/stats.txt" && head -1 "$TMP/stats.txt" | grep -q " picked, " || fail "stats as text: $(head -3 "$TMP/stats.txt")"
ok "stats as text: $(head -1 "$TMP/stats.txt")"

echo "# completions"
for shell in bash zsh fish; do
  "$PHOTOPICK" --generate-completion-script "$shell" >"$TMP/completion.$shell"
  for verb in ls get sync tags tag pick edit rm serve doctor; do
    grep -q "$verb" "$TMP/completion.$shell" || fail "the $shell completion script does not know $verb"
  done
done
bash -n "$TMP/completion.bash" || fail "the bash completion script does not parse"
ok "completion scripts for bash, zsh and fish name every verb; the bash one parses"

echo "# all $CHECKS checks passed in $((SECONDS - START)) s"
