#!/usr/bin/env bash
# The packages on a machine without Swift: a minimal Debian 12 root (debootstrap --variant=minbase
# bookworm, made once and kept in $PHOTOPICK_DEBIAN12, by default /var/cache/photopick-ci/debian12),
# copied afresh for each run so nothing of a run before is in it. In the copy, with /proc and /dev/pts
# mounted: `apt-get install ./photopick_*.deb`, then photopick --version, doctor, serve with ls --json
# against it, and the browser in tmux until its first frame shows the demo library and q ends it with
# the terminal restored; then the .deb removed and the tarball unpacked and installed under a PREFIX,
# and the same again. Run Resources/package.sh first. Needs root, debootstrap and Debian's mirror.
#
# Usage: Tests/e2e/debian12.sh
set -euo pipefail
cd "$(dirname "$0")/../.."
[ "$(id -u)" -eq 0 ] || { echo "debian12.sh: needs root (debootstrap, chroot and mounts)" >&2; exit 2; }
deb=$(ls dist/photopick_*_"$(dpkg --print-architecture)".deb 2>/dev/null | tail -1)
tarball=$(ls dist/photopick-*-linux-"$(uname -m)".tar.gz 2>/dev/null | tail -1)
[ -n "$deb" ] && [ -n "$tarball" ] || { echo "debian12.sh: no packages in dist/; run Resources/package.sh first" >&2; exit 2; }
base=${PHOTOPICK_DEBIAN12:-/var/cache/photopick-ci/debian12}
started=$(date +%s)
if [ ! -x "$base/usr/bin/apt-get" ]; then
  echo "debian12.sh: making a minimal Debian 12 root in $base"
  rm -rf "$base.new"
  debootstrap --variant=minbase bookworm "$base.new" "${DEBIAN_MIRROR:-http://deb.debian.org/debian}" >"$base.log" 2>&1 \
    || { tail -20 "$base.log" >&2; echo "debian12.sh: debootstrap failed; its log is $base.log" >&2; exit 1; }
  mv "$base.new" "$base"
fi
root=$(mktemp -d /var/tmp/photopick-debian12.XXXXXX)
cleanup() {
  umount -R "$root/dev" "$root/proc" 2>/dev/null || true
  rm -rf "$root"
}
trap cleanup EXIT
cp -a "$base/." "$root/"
mount --bind /proc "$root/proc"
mount --rbind /dev "$root/dev"
cp "$deb" "$tarball" "$root/tmp/"
checks=0
ok() { checks=$((checks + 1)); echo "ok $checks - $*"; }
fail() { echo "not ok $((checks + 1)) - $*" >&2; exit 1; }
inside() { chroot "$root" env -i HOME=/root PATH=/usr/local/bin:/usr/bin:/bin:/usr/sbin:/sbin LANG=C.UTF-8 TERM=xterm-256color "$@"; }

# tmux drives the browser; man-db and bash-completion read what the package puts where they look.
# None is the package's dependency. apt's lists are needed for its dependencies too.
inside apt-get update -q >/dev/null
inside env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends tmux man-db bash-completion >/dev/null 2>&1
installed=$(inside env DEBIAN_FRONTEND=noninteractive apt-get install -y "/tmp/$(basename "$deb")" 2>&1) || fail "apt-get install of the .deb: $installed"
ok "apt-get install ./$(basename "$deb") in a minimal Debian 12 root: $(grep -o '[0-9]* newly installed' <<<"$installed")"

# photopick as installed at $1: version, no Swift, doctor, serve and ls, the browser.
check() {
  local binary=$1 how=$2
  local version
  version=$(inside "$binary" --version) || fail "$how: --version failed"
  ok "$how: photopick --version: $version"
  if inside ldd "$binary" | grep -E 'libswift|libFoundation|lib_Foundation|libdispatch|not found'; then fail "$how: ldd lists Swift's libraries or a missing one (above)"; fi
  [ ! -e "$root/opt/swift" ] || fail "$how: the root has a Swift toolchain"
  ok "$how: ldd lists no Swift library and nothing missing, and the root has no toolchain"
  local doctor
  doctor=$(inside "$binary" doctor 2>&1) || fail "$how: doctor exited $?: $doctor"
  grep -q "missing: nothing found missing" <<<"$doctor" || fail "$how: doctor found something missing: $(tail -3 <<<"$doctor")"
  ok "$how: photopick doctor finds nothing missing"
  local port=$((20000 + RANDOM % 20000))
  inside sh -c "$binary serve --photos 200 --port $port --key pp_test_debian12 --data /tmp/served >/tmp/serve.log 2>&1 & echo \$! >/tmp/serve.pid"
  local listed=""
  for _ in $(seq 100); do
    listed=$(inside env PHOTOPICK_API_KEY=pp_test_debian12 "$binary" ls --json --api-url http://127.0.0.1:$port/api/v1 2>/dev/null) && break
    sleep 0.1
  done
  inside sh -c 'kill "$(cat /tmp/serve.pid)"' || fail "$how: serve was gone before ls ended: $(cat "$root/tmp/serve.log")"
  local count
  count=$(grep -o '"id":' <<<"$listed" | wc -l)
  [ "$count" -eq 200 ] || fail "$how: ls --json against serve --photos 200 listed $count photos"
  ok "$how: photopick serve --photos 200, and ls --json against it lists 200 photos"
  inside rm -rf /root/.local/share/photopick /root/.local/state/photopick
  inside tmux -f /dev/null new-session -d -s t -x 120 -y 40 "$binary; echo \"exit \$?\" >/tmp/browser-exit; sleep 60"
  local screen="" begun=$(date +%s%N)
  for _ in $(seq 300); do
    screen=$(inside tmux capture-pane -t t -p) && grep -q "2,000 photos" <<<"$screen" && break
    sleep 0.05
  done
  grep -q "Demo library" <<<"$screen" && grep -q "R0006867.DNG" <<<"$screen" || fail "$how: the browser's first frame did not show the demo library: $(head -3 <<<"$screen")"
  local first=$((($(date +%s%N) - begun) / 1000000))
  inside tmux send-keys -t t q
  for _ in $(seq 100); do [ -s "$root/tmp/browser-exit" ] && break; sleep 0.05; done
  screen=$(inside tmux capture-pane -t t -p)
  inside tmux kill-server
  [ "$(cat "$root/tmp/browser-exit" 2>/dev/null)" = "exit 0" ] || fail "$how: q did not end the browser with status 0"
  ! grep -q "Demo library\|R0006867" <<<"$screen" || fail "$how: after q the browser's screen is still in the pane"
  rm -f "$root/tmp/browser-exit"
  ok "$how: the browser in tmux shows the demo library (first frame ${first} ms after the start, the library made on the way) and q leaves the terminal as it was"
}

check /usr/bin/photopick ".deb"
man=$(inside sh -c 'MANPAGER=cat MANWIDTH=80 man photopick 2>&1 | head -5') || true
grep -q "PHOTOPICK(1)" <<<"$man" && ok ".deb: man photopick shows its page" || fail ".deb: man photopick said: $man"
# Tab after `photopick se`, as bash-completion runs it: the completion is found by name and offers serve.
completed=$(inside bash -c 'source /usr/share/bash-completion/bash_completion
  COMP_WORDS=(photopick se); COMP_CWORD=1; COMP_LINE="photopick se"; COMP_POINT=${#COMP_LINE}
  _completion_loader photopick; $(complete -p photopick | sed "s/.*-F \([^ ]*\).*/\1/") photopick se photopick; echo "${COMPREPLY[*]}"')
[ "$completed" = serve ] && ok ".deb: bash completes photopick se to serve" || fail ".deb: bash completion of photopick se gave: $completed"
inside env DEBIAN_FRONTEND=noninteractive apt-get remove -y -q photopick >/dev/null
[ ! -e "$root/usr/bin/photopick" ] || fail "apt-get remove left /usr/bin/photopick"
ok "apt-get remove photopick takes the binary away"

# The tarball under a PREFIX, the .deb gone (its libraries stay installed, as they would on a machine).
name=$(basename "$tarball" .tar.gz)
inside tar -C /tmp -xzf "/tmp/$name.tar.gz"
inside env PREFIX=/opt/photopick "/tmp/$name/install.sh" >/dev/null
ok "the tarball unpacked and installed with PREFIX=/opt/photopick"
check /opt/photopick/bin/photopick "tarball"
echo "# all $checks package checks passed in $(($(date +%s) - started)) s"
