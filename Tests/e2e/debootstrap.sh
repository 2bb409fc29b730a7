# Shared by debian12.sh and debian13.sh, sourced after `set -euo pipefail`: a minimal Debian root made
# once with debootstrap and kept for later runs.

# debootstrap_root NAME ROOT SUITE [PACKAGES]: makes ROOT (debootstrap --variant=minbase SUITE, with
# PACKAGES, comma-separated, included) unless it is there with the same PACKAGES stamped in it; a
# changed list makes it again. Made beside ROOT and moved into place whole; debootstrap's output goes
# to ROOT.log. NAME is the calling script's, for its lines. Needs debootstrap and Debian's mirror
# ($DEBIAN_MIRROR, default deb.debian.org).
debootstrap_root() {
  local name=$1 root=$2 suite=$3 packages=${4:-} started
  [ -x "$root/usr/bin/apt-get" ] && [ "$(cat "$root/.photopick-packages" 2>/dev/null)" = "$packages" ] && return 0
  command -v debootstrap >/dev/null || { echo "$name: debootstrap is missing; apt-get install debootstrap" >&2; exit 2; }
  started=$(date +%s)
  echo "$name: making a minimal Debian $suite root in $root (about a minute)"
  mkdir -p "$(dirname "$root")"
  rm -rf --one-file-system "$root.new"
  debootstrap --variant=minbase ${packages:+--include="$packages"} "$suite" "$root.new" "${DEBIAN_MIRROR:-http://deb.debian.org/debian}" >"$root.log" 2>&1 \
    || { tail -20 "$root.log" >&2; echo "$name: debootstrap failed; its log is $root.log" >&2; exit 1; }
  echo "$packages" >"$root.new/.photopick-packages"
  rm -rf --one-file-system "$root"
  mv "$root.new" "$root"
  echo "$name: root made in $(($(date +%s) - started)) s"
}
