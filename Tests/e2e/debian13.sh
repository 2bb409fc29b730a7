#!/usr/bin/env bash
# Today's terminals for Tests/e2e/graphics.py: kitty 0.41, xterm 398 and tmux 3.5a (built with sixel)
# from a Debian 13 root, made once with debootstrap and kept in $PHOTOPICK_DEBIAN13 (by default
# /var/cache/photopick-ci/debian13, about 650 MB) for later runs. The terminals run in the root under
# chroot, on the Xvfb display graphics.py starts on this machine; photopick is this checkout's build
# (Debian 12's), seen in the root at the same path, with the Swift runtime's folder beside it and the
# C libraries whose versions Debian 13 does not carry (libraw 20, libavif 15, x265 199, …) copied
# from this machine into a folder the root's loader knows. Mounts live in a private namespace of
# this script's, and go with it. Needs root, debootstrap and deb.debian.org (or $DEBIAN_MIRROR).
#
# Usage: Tests/e2e/debian13.sh [graphics.py's cases]   (default: the cases of today's terminals)
set -euo pipefail
cd "$(dirname "$0")/../.."
checkout=$(pwd)
source Tests/e2e/debootstrap.sh
root=${PHOTOPICK_DEBIAN13:-/var/cache/photopick-ci/debian13}
binary=$checkout/.build/debug/photopick

if [ "${1:-}" != --inside ]; then
  [ "$(id -u)" -eq 0 ] || { echo "debian13.sh: needs root (debootstrap, chroot and mounts); run it as root or with sudo" >&2; exit 2; }
  [ -x "$binary" ] || { echo "debian13.sh: $binary is not built; run swift build first" >&2; exit 2; }
  # What the terminals need: GLX through libglvnd and mesa's software renderer for kitty, fonts, and
  # ncurses-term for tmux-direct (24-bit colour inside tmux). The list is stamped in the root, so a
  # changed list makes it again.
  # libheif 1.19 with its codec plugins, which the root's own libheif loads from the root's own path.
  packages=kitty,xterm,tmux,ncurses-term,fonts-dejavu-core,libgl1,libglx-mesa0,libgl1-mesa-dri,libegl1,libheif1,libheif-plugin-libde265,libheif-plugin-x265,libheif-plugin-aomenc
  debootstrap_root debian13.sh "$root" trixie "$packages"
  # The libraries photopick links that the root has no version of, copied anew each run (the build
  # may have changed); glibc's and the compiler runtime's are the root's own, newer and compatible.
  libraries=$root/opt/photopick-host-libraries
  rm -rf "$libraries"
  mkdir -p "$libraries"
  chroot "$root" ldconfig  # the cache, without the last run's copies
  known=$(chroot "$root" ldconfig -p | awk 'NR > 1 { print $1 }' | sort -u)
  ldd "$binary" | awk '$3 ~ /^\// { print $3 }' | while read -r library; do
    name=$(basename "$library")
    case $name in libc.so.*|libm.so.*|libpthread.so.*|libdl.so.*|librt.so.*|libstdc++.so.*|libgcc_s.so.*|libswift*|libFoundation*|lib_Foundation*|libdispatch*|libBlocksRuntime*) continue ;; esac
    grep -qxF "$name" <<<"$known" || cp -L "$library" "$libraries/"
  done
  echo /opt/photopick-host-libraries >"$root/etc/ld.so.conf.d/photopick-host-libraries.conf"
  chroot "$root" ldconfig
  exec unshare --mount --propagation private "$checkout/Tests/e2e/debian13.sh" --inside "$@"
fi
shift

# Inside the private namespace: the root sees this machine's /proc, /dev, /tmp (the X socket, the
# tests' folders), the checkout and the Swift runtime at their own paths.
swift_runtime=$(dirname "$(ldd "$binary" | awk '$1 == "libswiftCore.so" { print $3 }')")
mount --bind /proc "$root/proc"
mount --rbind /dev "$root/dev"
mount --bind /tmp "$root/tmp"
for folder in "$checkout" "$swift_runtime"; do
  mkdir -p "$root$folder"
  mount --bind "$folder" "$root$folder"
done
missing=$(chroot "$root" ldd "$binary" | grep "not found" || true)
[ -z "$missing" ] || { echo "debian13.sh: photopick cannot start in the root: $missing" >&2; exit 1; }
echo "debian13.sh: $(chroot "$root" kitty --version), $(chroot "$root" xterm -version), $(chroot "$root" tmux -V)"
PHOTOPICK_E2E_ROOT=$root exec "$checkout/Tests/e2e/graphics.py" "$@"
