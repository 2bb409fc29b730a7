# Shared by the end-to-end scripts (cli.sh, tui.sh), sourced after `set -euo pipefail`: the binary
# under test, one temporary directory, TAP-style checks, and `photopick serve` instances on free ports.
#
#   source "$(dirname "$0")/lib.sh"
#   e2e_setup photopick-cli tmux python3   # then KEY=..., and trap cleanup EXIT in the script

# e2e_setup PREFIX TOOL...: from the repository root, find photopick ($PHOTOPICK, default
# .build/debug/photopick), check that each TOOL is installed, and make TMP, a new temporary directory
# named after PREFIX. Sets ROOT, PHOTOPICK, TMP, START, CHECKS and SERVER_PIDS.
e2e_setup() {
  local prefix=$1 tool
  shift
  cd "$(dirname "${BASH_SOURCE[0]}")/../.."
  ROOT=$(pwd)
  PHOTOPICK=${PHOTOPICK:-.build/debug/photopick}
  case $PHOTOPICK in /*) ;; *) PHOTOPICK=$ROOT/$PHOTOPICK ;; esac
  [ -x "$PHOTOPICK" ] || { echo "not ok - no executable photopick at $PHOTOPICK (build it, or set PHOTOPICK)" >&2; exit 1; }
  for tool in "$@"; do
    command -v "$tool" >/dev/null || { echo "not ok - $tool is needed" >&2; exit 1; }
  done
  TMP=$(mktemp -d "${TMPDIR:-/tmp}/$prefix.XXXXXX")
  START=$SECONDS
  CHECKS=0
  SERVER_PIDS=()
}

# ok DESCRIPTION: one more check passed.
ok() {
  CHECKS=$((CHECKS + 1))
  echo "ok $CHECKS - $*"
}

# fail DESCRIPTION: the next check failed; runs the script's on_failure, if it has one, and exits 1.
fail() {
  trap - ERR
  echo "not ok $((CHECKS + 1)) - $*" >&2
  if declare -F on_failure >/dev/null; then on_failure; fi
  exit 1
}

# start_server NAME DATA [ARGS...]: photopick serve over the data directory DATA in the background, on
# a free port with the test's KEY, its log in $TMP/NAME.out; sets SERVER_PID and SERVER_URL (its API
# base URL, ending in /api/v1) once it is ready.
start_server() {
  local name=$1 data=$2 out=$TMP/$1.out i
  shift 2
  : >"$out"   # before the server's shell opens it, so the first read below cannot find it missing
  "$PHOTOPICK" serve --data "$data" --port 0 --key "$KEY" "$@" >"$out" 2>&1 &
  SERVER_PID=$!
  SERVER_PIDS+=("$SERVER_PID")
  SERVER_URL=""
  for i in $(seq 300); do
    SERVER_URL=$(sed -nE 's#^PhotoPick server at (http://[^ ]+).*#\1#p' "$out" | head -n 1)
    [ -n "$SERVER_URL" ] && break
    kill -0 "$SERVER_PID" 2>/dev/null || { cat "$out" >&2; fail "photopick serve ($name) exited before it was ready"; }
    sleep 0.1
  done
  [ -n "$SERVER_URL" ] || { cat "$out" >&2; fail "photopick serve ($name) printed no URL within 30s"; }
  SERVER_URL=${SERVER_URL%/}
  case $SERVER_URL in */api/v1) ;; *) SERVER_URL=$SERVER_URL/api/v1 ;; esac
}

# stop_server [PID]: stops that server (by default the last one started) and waits for it.
stop_server() {
  local stopped=${1:-$SERVER_PID} pid remaining=()
  kill -TERM "$stopped" 2>/dev/null || true
  wait "$stopped" 2>/dev/null || true
  for pid in ${SERVER_PIDS[@]+"${SERVER_PIDS[@]}"}; do [ "$pid" = "$stopped" ] || remaining+=("$pid"); done
  SERVER_PIDS=(${remaining[@]+"${remaining[@]}"})
  return 0
}

# stop_servers: stops every server still running; for the scripts' cleanup.
stop_servers() {
  local pid
  for pid in ${SERVER_PIDS[@]+"${SERVER_PIDS[@]}"}; do
    kill -TERM "$pid" 2>/dev/null || true
    wait "$pid" 2>/dev/null || true
  done
  SERVER_PIDS=()
}

# remove_tmp: removes TMP, unless KEEP_TMP is set (then says where it is), for a post-mortem.
remove_tmp() {
  if [ -n "${KEEP_TMP:-}" ]; then echo "# kept $TMP"; else rm -rf "$TMP"; fi
}

# read_library BASE OUT: the server's own view through its API, every tag and photo, written to OUT as
# {"tags": [...], "photos": [...]}. A failed request is tried again, so a faulty server can be read too.
read_library() {
  python3 - "$1" "$KEY" "$2" <<'EOF'
import json, sys, time, urllib.parse, urllib.request
base, key, out = sys.argv[1:4]
def get(path):
    for attempt in range(30):
        request = urllib.request.Request(base + path, headers={"Authorization": "Bearer " + key})
        try:
            with urllib.request.urlopen(request, timeout=30) as response:
                return json.load(response)
        except Exception:
            if attempt == 29:
                raise
            time.sleep(0.2)
def walk(resource):
    items, cursor = [], None
    for _ in range(10000):
        query = {"limit": "100"} | ({"cursor": cursor} if cursor else {})
        page = get("/" + resource + "?" + urllib.parse.urlencode(query))
        items += page["data"]
        pagination = page.get("pagination") or {}
        cursor = pagination.get("nextCursor", page.get("nextCursor"))
        if not cursor or pagination.get("hasMore") is False:
            return items
    raise SystemExit("pagination of " + resource + " never ended")
json.dump({"tags": walk("tags"), "photos": walk("photos")}, open(out, "w"))
EOF
}
