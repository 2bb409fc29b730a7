#!/usr/bin/env bash
# The browser's warm start over a link that stalls every request: with the catalogue of a previous run,
# rows must be on screen before the server could have answered anything (issue 29: they came two round
# trips late), and the library must then be confirmed and checked as usual.
#
# A first run against `photopick serve` makes the catalogue; a second, against the same address with
# every request stalled 1.5 s (`--fault-rate 1 --faults slow`), is timed from launch to the first row.
#
#   Tests/e2e/warmstart.sh                 # uses .build/debug/photopick
#   PHOTOPICK=/path/to/photopick Tests/e2e/warmstart.sh
set -euo pipefail
source "$(dirname "$0")/lib.sh"
e2e_setup photopick-warmstart tmux

unset TMUX TMUX_PANE
SOCKET=photopick-warmstart-$$
KEY=pp_test_warmstart
STALL_MS=1500
BUDGET_MS=500
export XDG_STATE_HOME=$TMP/state XDG_CACHE_HOME=$TMP/cache XDG_CONFIG_HOME=$TMP/config XDG_DATA_HOME=$TMP/data-home

tm() { tmux -L "$SOCKET" "$@"; }
now_ms() { echo $(( $(date +%s%N) / 1000000 )); }
cleanup() {
  tm kill-server 2>/dev/null || true
  stop_servers
  remove_tmp
}
trap cleanup EXIT

# browse NAME: photopick in a new 120x40 session NAME on the server at SERVER_URL.
browse() {
  tm new-session -d -s "$1" -x 120 -y 40 \
    env -u PHOTOPICK_API_KEY TERM=xterm-256color PHOTOPICK_API_KEY="$KEY" "$PHOTOPICK" --api-url "$SERVER_URL" --graphics symbols
}
screen() { tm capture-pane -p -t "$1"; }

# wait_for NAME PATTERN SECONDS: until the screen of NAME shows PATTERN (an extended regex).
wait_for() {
  local deadline=$(( $(now_ms) + $3 * 1000 ))
  until screen "$1" | grep -qE "$2"; do
    [ "$(now_ms)" -lt "$deadline" ] || { screen "$1" >&2; fail "no '$2' on screen within $3 s"; }
    sleep 0.01
  done
}

start_server first "$TMP/library" --photos 300 --original-megapixels 0.3
PORT=$(echo "$SERVER_URL" | sed -E 's#^http://[^:]+:([0-9]+)/.*#\1#')
browse first
wait_for first "300 photos" 60
tm send-keys -t first q
sleep 1
stop_server
ok "a first run keeps the library's catalogue"

# The same address, every request stalled.
"$PHOTOPICK" serve --data "$TMP/library" --port "$PORT" --key "$KEY" --fault-rate 1 --faults slow --latency "$STALL_MS" \
  >"$TMP/stalled.out" 2>&1 &
SERVER_PID=$!
SERVER_PIDS+=("$SERVER_PID")
for _ in $(seq 300); do grep -q "PhotoPick server at" "$TMP/stalled.out" && break; sleep 0.1; done
started=$(now_ms)
browse second
wait_for second '\.(JPG|jpg|jpeg|png)' 20
rows=$(( $(now_ms) - started ))
[ "$rows" -lt "$STALL_MS" ] || fail "rows after $rows ms, not before the server's first answer ($STALL_MS ms)"
ok "rows after $rows ms, before any answer (every request stalls $STALL_MS ms)"
[ "$rows" -le "$BUDGET_MS" ] || fail "rows after $rows ms, over the $BUDGET_MS ms budget"
ok "within the $BUDGET_MS ms budget"
# Confirmed: /me answered and named the remembered account, which the log says.
deadline=$(( $(now_ms) + 30000 ))
until grep -q "signed in as key" "$XDG_STATE_HOME/photopick/photopick.log" 2>/dev/null && \
      [ "$(grep -c "signed in as key" "$XDG_STATE_HOME/photopick/photopick.log")" -ge 2 ]; do
  [ "$(now_ms)" -lt "$deadline" ] || fail "the second run never heard /me"
  sleep 0.1
done
! grep -q "the key belongs to" "$XDG_STATE_HOME/photopick/photopick.log" || fail "the remembered library was not the key's"
ok "the library was confirmed once the server answered"
tm send-keys -t second q
echo "# warmstart: $CHECKS checks in $((SECONDS - START)) s"
