#!/usr/bin/env bash
# The packages on a machine without Swift: a minimal Debian 12 root (debootstrap --variant=minbase
# bookworm, made once and kept in $PHOTOPICK_DEBIAN12, by default /var/cache/photopick-ci/debian12),
# copied afresh for each run so nothing of a run before is in it. In the copy, with /proc and /dev/pts
# mounted and bookworm-backports in apt's sources (libheif 1.19), as README.md's Install section says:
# `apt-get install -t bookworm-backports ./photopick_*.deb`, then photopick --version, doctor, serve
# with ls --json and a HEIC original's get against it, and the browser in tmux until its first frame
# shows the demo library and q ends it with the terminal restored; then the .deb removed with the
# libraries it pulled in, the libraries the README names for the tarball installed, and the tarball
# unpacked and installed under a PREFIX, and the same again. Run Resources/package.sh first (it leaves one version in dist/). Needs root,
# debootstrap and Debian's mirror. The mounts live in a private namespace of this script's and go with
# it; the root's copy is removed without crossing into them.
#
# Usage: Tests/e2e/debian12.sh
set -euo pipefail
cd "$(dirname "$0")/../.."
checkout=$(pwd)
source Tests/e2e/debootstrap.sh
shopt -s nullglob
debs=(dist/photopick_*_"$(dpkg --print-architecture)".deb)
tarballs=(dist/photopick-*-linux-"$(uname -m)".tar.gz)
sumfiles=(dist/photopick-*-SHA256SUMS)
shopt -u nullglob
if [ ${#debs[@]} -ne 1 ] || [ ${#tarballs[@]} -ne 1 ] || [ ${#sumfiles[@]} -ne 1 ]; then
  echo "debian12.sh: dist/ must hold one .deb, one tarball and their SHA256SUMS (it holds ${#debs[@]}, ${#tarballs[@]} and ${#sumfiles[@]}); run Resources/package.sh" >&2
  exit 2
fi
deb=${debs[0]} tarball=${tarballs[0]} sums=${sumfiles[0]}

if [ "${1:-}" != --inside ]; then
  [ "$(id -u)" -eq 0 ] || { echo "debian12.sh: needs root (debootstrap, chroot and mounts); run it as root or with sudo" >&2; exit 2; }
  base=${PHOTOPICK_DEBIAN12:-/var/cache/photopick-ci/debian12}
  debootstrap_root debian12.sh "$base" bookworm
  exec unshare --mount --propagation private "$checkout/Tests/e2e/debian12.sh" --inside "$base"
fi
base=$2

started=$(date +%s)
root=$(mktemp -d /var/tmp/photopick-debian12.XXXXXX)
cleanup() {
  # Whatever still runs in the root first (tmux, a server), then the mounts; the copy is removed only
  # when nothing is mounted in it, and never across a file system's edge.
  for process in /proc/[0-9]*; do
    [ "$(readlink "$process/root" 2>/dev/null)" = "$root" ] && kill -9 "${process#/proc/}" 2>/dev/null
  done
  umount -R --lazy "$root/dev" "$root/proc" 2>/dev/null || true
  if findmnt -R --noheadings --output TARGET | grep -q "^$root/"; then
    echo "debian12.sh: $root still has mounts; left in place" >&2
  else
    rm -rf --one-file-system "$root"
  fi
}
trap cleanup EXIT
cp -a "$base/." "$root/"
cp -L /etc/resolv.conf "$root/etc/resolv.conf"
# libheif 1.19 comes from bookworm-backports, which README.md's Install section has a user add first.
echo 'deb http://deb.debian.org/debian bookworm-backports main' >"$root/etc/apt/sources.list.d/bookworm-backports.list"
mount --bind /proc "$root/proc"
mount --rbind /dev "$root/dev"
cp "$deb" "$tarball" "$sums" "$root/tmp/"
checks=0
ok() { checks=$((checks + 1)); echo "ok $checks - $*"; }
fail() { echo "not ok $((checks + 1)) - $*" >&2; exit 1; }
inside() { chroot "$root" env -i HOME=/root PATH=/usr/local/bin:/usr/bin:/bin:/usr/sbin:/sbin LANG=C.UTF-8 TERM=xterm-256color "$@"; }

# The copies checked on the far side against the checksum file written beside them.
verified=$(inside sh -c "cd /tmp && sha256sum -c $(basename "$sums")" 2>&1) || fail "sha256sum -c of the copies: $verified"
[ "$(grep -c ': OK$' <<<"$verified")" -eq 2 ] || fail "$(basename "$sums") does not name both packages: $verified"
ok "the copied packages match $(basename "$sums"): 2 files OK"
apt=(apt-get -q -o Acquire::Retries=5)

# tmux drives the browser; man-db and bash-completion read what the package puts where they look.
# None is the package's dependency. apt's lists are needed for its dependencies too.
said=$(inside "${apt[@]}" update 2>&1) && ! grep -q '^[WE]:' <<<"$said" || fail "apt-get update in the root: $said"
said=$(inside env DEBIAN_FRONTEND=noninteractive "${apt[@]}" install -y --no-install-recommends tmux man-db bash-completion 2>&1) \
  || fail "apt-get install of tmux, man-db and bash-completion: $(tail -5 <<<"$said")"
installed=$(inside env DEBIAN_FRONTEND=noninteractive "${apt[@]}" install -y -t bookworm-backports "/tmp/$(basename "$deb")" 2>&1) || fail "apt-get install of the .deb: $installed"
ok "apt-get install -t bookworm-backports ./$(basename "$deb") in a minimal Debian 12 root: $(grep -o '[0-9]* newly installed' <<<"$installed"), libheif $(inside dpkg-query -W -f '${Version}' libheif1)"
# dpkg makes md5sums itself for a package that ships none, so the package's own are looked for.
dpkg-deb --info "$deb" md5sums >/dev/null 2>&1 || fail "the .deb carries no md5sums"
verified=$(inside dpkg --verify photopick 2>&1) && [ -z "$verified" ] || fail "dpkg --verify photopick: $verified"
ok "dpkg --verify photopick finds every installed file as the package's own md5sums say"

# photopick as installed at $1: version, no Swift, doctor, serve and ls, the browser.
check() {
  local binary=$1 how=$2
  local version
  version=$(inside "$binary" --version) || fail "$how: --version failed"
  ok "$how: photopick --version: $version"
  if inside ldd "$binary" | grep -E 'libswift|libFoundation|lib_Foundation|libdispatch|not found'; then fail "$how: ldd lists Swift's libraries or a missing one (above)"; fi
  local swift
  swift=$(find "$root" -xdev \( -name 'libswift*' -o -name 'libFoundation*' -o -name 'swift*' -type f -perm -u+x \) -print -quit)
  [ -z "$swift" ] || fail "$how: the root has Swift in it: $swift"
  ok "$how: ldd lists no Swift library and nothing missing, and no Swift is in the root"
  local doctor
  doctor=$(inside "$binary" doctor 2>&1) || fail "$how: doctor exited $?: $doctor"
  grep -q "missing: nothing found missing" <<<"$doctor" || fail "$how: doctor found something missing: $(tail -3 <<<"$doctor")"
  ok "$how: photopick doctor finds nothing missing"
  # On a port the system chooses, read from the line serve prints; a library of its own each time.
  local data=/tmp/served-$checks url="" pid
  : >"$root/tmp/serve.log"
  inside sh -c "$binary serve --photos 200 --port 0 --key pp_test_debian12 --data $data >/tmp/serve.log 2>&1 & echo \$! >/tmp/serve.pid"
  pid=$(cat "$root/tmp/serve.pid")
  for _ in $(seq 300); do
    url=$(sed -nE 's#^PhotoPick server at (http://[^ ]+).*#\1#p' "$root/tmp/serve.log" | head -n 1)
    [ -n "$url" ] && break
    kill -0 "$pid" 2>/dev/null || fail "$how: serve exited before it was ready: $(cat "$root/tmp/serve.log")"
    sleep 0.1
  done
  [ -n "$url" ] || fail "$how: serve did not say where it listens in 30 s: $(cat "$root/tmp/serve.log")"
  local listed heic fetched
  listed=$(inside env PHOTOPICK_API_KEY=pp_test_debian12 "$binary" ls --json --api-url "$url" 2>"$root/tmp/ls.err") \
    || fail "$how: ls --json against $url: $listed $(cat "$root/tmp/ls.err")"
  # A HEIC original: made by the server with libheif's x265 plugin as a phone's grid of tiles, then
  # fetched and verified by get, which decodes it whole with the libde265 plugin.
  heic=$(python3 -c 'import json, sys; print(next(p["id"] for p in json.load(sys.stdin) if p.get("mimeType") == "image/heic" and p["filename"].endswith(".HEIC")))' <<<"$listed") \
    || fail "$how: serve --photos 200 lists no HEIC"
  fetched=$(inside env PHOTOPICK_API_KEY=pp_test_debian12 "$binary" get --ids "$heic" --to "/tmp/heic-$checks" --api-url "$url" 2>&1) \
    || fail "$how: get of HEIC photo $heic: $fetched"
  ls "$root/tmp/heic-$checks/"*.HEIC >/dev/null 2>&1 || fail "$how: get of HEIC photo $heic wrote no .HEIC: $fetched"
  kill "$pid" 2>/dev/null || fail "$how: serve was gone before ls ended: $(cat "$root/tmp/serve.log")"
  for _ in $(seq 100); do kill -0 "$pid" 2>/dev/null || break; sleep 0.05; done
  ! kill -0 "$pid" 2>/dev/null || fail "$how: serve did not stop on SIGTERM within 5 s"
  local count
  count=$(grep -o '"id":' <<<"$listed" | wc -l)
  [ "$count" -eq 200 ] || fail "$how: ls --json against serve --photos 200 listed $count photos"
  ok "$how: photopick serve --photos 200, and ls --json against it lists 200 photos; get fetches and verifies a HEIC original ($(basename "$root/tmp/heic-$checks/"*.HEIC))"
  inside rm -rf /root/.local/share/photopick /root/.local/state/photopick
  # The pane's line settings before and after, and tmux's own view of the modes photopick sets.
  inside tmux -f /dev/null new-session -d -s t -x 120 -y 40 \
    "stty -a >/tmp/stty-before; $binary; echo \"exit \$?\" >/tmp/browser-exit; stty -a >/tmp/stty-after; sleep 60"
  local screen="" begun=$(date +%s%N)
  for _ in $(seq 300); do
    screen=$(inside tmux capture-pane -t t -p) && grep -q "2,000 photos" <<<"$screen" && break
    sleep 0.05
  done
  grep -q "Demo library" <<<"$screen" && grep -q "R0006867.DNG" <<<"$screen" || fail "$how: the browser's first frame did not show the demo library: $(head -3 <<<"$screen")"
  local first=$((($(date +%s%N) - begun) / 1000000))
  inside tmux send-keys -t t q
  for _ in $(seq 100); do [ -s "$root/tmp/browser-exit" ] && break; sleep 0.05; done
  for _ in $(seq 100); do [ -s "$root/tmp/stty-after" ] && break; sleep 0.05; done
  screen=$(inside tmux capture-pane -t t -p)
  local modes
  modes=$(inside tmux display-message -p -t t '#{alternate_on} #{cursor_flag} #{mouse_any_flag} #{keypad_flag} #{keypad_cursor_flag}')
  inside tmux kill-server
  [ "$(cat "$root/tmp/browser-exit" 2>/dev/null)" = "exit 0" ] || fail "$how: q did not end the browser with status 0"
  ! grep -q "Demo library\|R0006867" <<<"$screen" || fail "$how: after q the browser's screen is still in the pane"
  cmp -s "$root/tmp/stty-before" "$root/tmp/stty-after" || fail "$how: stty -a differs after q: $(diff "$root/tmp/stty-before" "$root/tmp/stty-after")"
  # Main screen, cursor shown, no mouse reporting, keypad and cursor keys in their normal modes.
  [ "$modes" = "0 1 0 0 0" ] || fail "$how: after q tmux's pane modes (alternate screen, cursor, mouse, keypad, cursor keys) are $modes, not 0 1 0 0 0"
  rm -f "$root/tmp/browser-exit" "$root/tmp/stty-before" "$root/tmp/stty-after"
  ok "$how: the browser in tmux shows the demo library (first frame ${first} ms after the start, the library made on the way) and q leaves the terminal as it was: stty, screen, cursor, mouse, keypad"
}

check /usr/bin/photopick ".deb"
man=$(inside sh -c 'MANPAGER=cat MANWIDTH=80 man photopick 2>&1 | head -5') || true
grep -q "PHOTOPICK(1)" <<<"$man" && ok ".deb: man photopick shows its page" || fail ".deb: man photopick said: $man"
# Tab after `photopick se`, as bash-completion runs it: the completion is found by name and offers serve.
completed=$(inside bash -c 'source /usr/share/bash-completion/bash_completion
  COMP_WORDS=(photopick se); COMP_CWORD=1; COMP_LINE="photopick se"; COMP_POINT=${#COMP_LINE}
  _completion_loader photopick; $(complete -p photopick | sed "s/.*-F \([^ ]*\).*/\1/") photopick se photopick; echo "${COMPREPLY[*]}"')
[ "$completed" = serve ] && ok ".deb: bash completes photopick se to serve" || fail ".deb: bash completion of photopick se gave: $completed"
said=$(inside env DEBIAN_FRONTEND=noninteractive "${apt[@]}" remove -y photopick 2>&1) || fail "apt-get remove photopick: $said"
[ ! -e "$root/usr/bin/photopick" ] || fail "apt-get remove left /usr/bin/photopick"
ok "apt-get remove photopick takes the binary away"

# The tarball under a PREFIX on a machine without the .deb's libraries: the ones it pulled in go, and
# install.sh must name what is missing; then the libraries README.md's Install section lists, and no
# more, must be enough.
said=$(inside env DEBIAN_FRONTEND=noninteractive "${apt[@]}" autoremove --purge -y 2>&1) || fail "apt-get autoremove: $said"
name=$(basename "$tarball" .tar.gz)
inside tar -C /tmp -xzf "/tmp/$name.tar.gz"
said=$(inside env PREFIX=/opt/photopick "/tmp/$name/install.sh" 2>&1) && fail "install.sh succeeded with the libraries gone: $said"
grep -q "libraries photopick needs are missing: .*libheif" <<<"$said" && grep -q "^on Debian 12, .*: sudo apt-get install -t bookworm-backports .*libheif1" <<<"$said" \
  || fail "install.sh without the libraries did not name them and the packages: $said"
ok "install.sh with the libraries missing names them and the packages to install: $(grep -o 'missing:.*' <<<"$said" | cut -c1-60)…"
listed=$(awk '/^## Install/ { on = 1 } /^## Quick start/ { on = 0 } on' README.md | tr '\n' ' ' | grep -o 'apt-get install -t bookworm-backports lib[^`]*' | head -1)
[ -n "$listed" ] || fail "README.md's Install section has no apt-get install line for the tarball's libraries"
packages=${listed#apt-get install -t bookworm-backports }
said=$(inside env DEBIAN_FRONTEND=noninteractive "${apt[@]}" install -y --no-install-recommends -t bookworm-backports $packages 2>&1) \
  || fail "README.md's $listed: $(tail -3 <<<"$said")"
said=$(inside env PREFIX=/opt/photopick "/tmp/$name/install.sh" 2>&1) || fail "install.sh after README.md's libraries: $said"
ok "the tarball installed with PREFIX=/opt/photopick after only README.md's $(wc -w <<<"$packages") packages"
check /opt/photopick/bin/photopick "tarball"
echo "# all $checks package checks passed in $(($(date +%s) - started)) s"
