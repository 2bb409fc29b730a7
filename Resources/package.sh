#!/usr/bin/env bash
# Makes photopick's packages for machines without Swift, in dist/:
#   photopick-VERSION-linux-ARCH.tar.gz   bin/photopick, the man page, bash/zsh/fish completions,
#                                         README.md and an install.sh that places them under a PREFIX
#   photopick_VERSION_ARCH.deb            the same where Debian puts them, with Depends computed from
#                                         the binary by dpkg-shlibdeps
# The binary is built in release mode with the Swift runtime and Foundation linked in
# (--static-swift-stdlib) and stripped: it needs the C libraries it links (ncursesw, libjpeg, libpng,
# libchafa, glib, SQLite, LibRaw, libheif, …) and nothing of Swift. VERSION and the commit are the
# ones `photopick --version` prints. Needs Swift, dpkg-dev (dpkg-shlibdeps) and the build's -dev
# packages (the Quick start's apt line); run it on the Debian release (or older) the packages are for.
#
#   Resources/package.sh
set -euo pipefail
cd "$(dirname "$0")/.."
command -v dpkg-shlibdeps >/dev/null || { echo "package: dpkg-shlibdeps is missing; apt-get install dpkg-dev" >&2; exit 2; }

# The manual's tool first: a build without --static-swift-stdlib after the binary's would link it again.
swift build -c release --product generate-manual
swift build -c release --static-swift-stdlib --product photopick
bin=$(swift build -c release --show-bin-path)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
install -m 755 "$bin/photopick" "$work/photopick"
strip --strip-unneeded "$work/photopick"
if ldd "$work/photopick" | grep -E 'libswift|libFoundation|lib_Foundation|libdispatch|libBlocksRuntime'; then
  echo "package: the binary still links the Swift runtime (above); --static-swift-stdlib did not take" >&2
  exit 1
fi

# "0.1.0 (commit 1a2b3c4d5e6f)": the version, and the commit for the package's description.
read -r version _ commit <<<"$("$work/photopick" --version | tr -d '()')"
case $version in [0-9]*) ;; *) echo "package: photopick --version printed no version: $version" >&2; exit 1 ;; esac
# Who the package names as its maintainer: DEBFULLNAME/DEBEMAIL as Debian's tools take them, else
# this checkout's git identity.
maintainer="${DEBFULLNAME:-$(git config user.name || echo "photopick developers")} <${DEBEMAIL:-$(git config user.email || echo "photopick@$(hostname -f)")}>"
machine=$(uname -m)
architecture=$(dpkg --print-architecture)

"$bin/generate-manual" "$work/photopick" --output-directory "$work" >/dev/null
for shell in bash zsh fish; do "$work/photopick" --generate-completion-script "$shell" >"$work/completion.$shell"; done
mkdir -p dist

# The tarball: one folder, its files where install.sh expects them.
name=photopick-$version-linux-$machine
tree=$work/$name
install -D -m 755 "$work/photopick" "$tree/bin/photopick"
install -D -m 644 "$work/photopick.1" "$tree/share/man/man1/photopick.1"
install -D -m 644 "$work/completion.bash" "$tree/share/bash-completion/completions/photopick"
install -D -m 644 "$work/completion.zsh" "$tree/share/zsh/site-functions/_photopick"
install -D -m 644 "$work/completion.fish" "$tree/share/fish/vendor_completions.d/photopick.fish"
install -m 644 README.md "$tree/README.md"
cat >"$tree/install.sh" <<'INSTALL'
#!/bin/sh
# Installs photopick from this folder under PREFIX (default ~/.local): the binary in bin/, the man page
# and the completions under share/. Run it again to update; PREFIX=/usr/local (as root) installs for
# everyone. To remove: delete the files it lists.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
PREFIX=${PREFIX:-$HOME/.local}
case $PREFIX in /*) ;; *) echo "install: PREFIX must be an absolute path, not $PREFIX" >&2; exit 2 ;; esac
for file in bin/photopick share/man/man1/photopick.1 share/bash-completion/completions/photopick \
  share/zsh/site-functions/_photopick share/fish/vendor_completions.d/photopick.fish; do
  mode=644; [ "$file" = bin/photopick ] && mode=755
  install -d "$PREFIX/$(dirname "$file")"
  # Into place by rename, so a photopick running from PREFIX keeps its old file.
  install -m "$mode" "$here/$file" "$PREFIX/$file.new" && mv -f "$PREFIX/$file.new" "$PREFIX/$file"
  echo "  $PREFIX/$file"
done
echo "installed $("$PREFIX/bin/photopick" --version) in $PREFIX"
case ":$PATH:" in
  *":$PREFIX/bin:"*) ;;
  *) echo "$PREFIX/bin is not on PATH: add   export PATH=\"$PREFIX/bin:\$PATH\"   to your shell's profile" ;;
esac
INSTALL
chmod 755 "$tree/install.sh"
tar -C "$work" --owner=0 --group=0 --sort=name -czf "dist/$name.tar.gz" "$name"

# The .deb, laid out as Debian's policy says: the man page gzipped, completions where bash-completion,
# zsh and fish look, the copyright and changelog under /usr/share/doc.
root=$work/deb
install -D -m 755 "$work/photopick" "$root/usr/bin/photopick"
install -d "$root/usr/share/man/man1"
gzip -9n <"$work/photopick.1" >"$root/usr/share/man/man1/photopick.1.gz"
# bash-completion sources the script: Debian's completions carry no #! line.
install -d "$root/usr/share/bash-completion/completions"
sed '1{/^#!/d}' "$work/completion.bash" >"$root/usr/share/bash-completion/completions/photopick"
chmod 644 "$root/usr/share/bash-completion/completions/photopick"
install -D -m 644 "$work/completion.zsh" "$root/usr/share/zsh/vendor-completions/_photopick"
install -D -m 644 "$work/completion.fish" "$root/usr/share/fish/vendor_completions.d/photopick.fish"
doc=$root/usr/share/doc/photopick
install -d "$doc"
cat >"$doc/copyright" <<COPYRIGHT
Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/
Upstream-Name: photopick
Comment: Built from commit $commit. The binary links the Swift runtime and Foundation (Apache-2.0
 with Runtime Library Exception) and swift-argument-parser, swift-nio, async-http-client, GRDB,
 Hummingbird, swift-log, swift-collections and TOMLKit (Apache-2.0 or MIT).

Files: *
Copyright: $(date +%Y -d "@$(git log -1 --format=%ct 2>/dev/null || date +%s)") the photopick developers
License: photopick-unlicensed
 The photopick developers have not chosen a licence for photopick yet; until they
 do, this package grants no rights beyond installing and running it.
COPYRIGHT
printf 'photopick (%s) unstable; urgency=medium\n\n  * Built from commit %s.\n\n -- %s  %s\n' \
  "$version" "$commit" "$maintainer" "$(date -R -d "@$(git log -1 --format=%ct 2>/dev/null || date +%s)")" | gzip -9n >"$doc/changelog.gz"
# zlib is compiled in by swift-nio-extras (CNIOExtrasZlib, for async-http-client's decompression):
# SwiftPM has no switch to link the system's instead.
install -d "$root/usr/share/lintian/overrides"
printf '# zlib 1.3 is compiled in by swift-nio-extras (CNIOExtrasZlib), which SwiftPM builds from source.\nphotopick: embedded-library zlib [usr/bin/photopick]\n' \
  >"$root/usr/share/lintian/overrides/photopick"
# dpkg-shlibdeps reads a source package's control file; a minimal one in a folder of its own.
mkdir -p "$work/source/debian"
printf 'Source: photopick\n\nPackage: photopick\nArchitecture: any\n' >"$work/source/debian/control"
depends=$(cd "$work/source" && dpkg-shlibdeps -O "$root/usr/bin/photopick" 2>/dev/null | sed -n 's/^shlibs:Depends=//p')
[ -n "$depends" ] || { echo "package: dpkg-shlibdeps found no dependencies" >&2; exit 1; }
install -d "$root/DEBIAN"
cat >"$root/DEBIAN/control" <<CONTROL
Package: photopick
Version: $version
Architecture: $architecture
Maintainer: $maintainer
Installed-Size: $(du -sk "$root/usr" | cut -f1)
Depends: $depends
Suggests: tmux, kitty | xterm
Section: graphics
Priority: optional
Description: keyboard-driven terminal photo browser for PhotoPick libraries
 Browse, cull, tag and download the photos of a PhotoPick library from a
 terminal, over SSH too: real pixels in kitty, sixel and iTerm2 terminals,
 symbols elsewhere. With no API key it opens a demo library of its own.
 Built from commit $commit.
CONTROL
dpkg-deb --root-owner-group -Zxz --build "$root" "dist/photopick_${version}_$architecture.deb" >/dev/null

echo "packages of photopick $version (commit $commit) in dist/:"
ls -l "dist/$name.tar.gz" "dist/photopick_${version}_$architecture.deb" | awk '{ print "  " $9 "  " $5 " bytes" }'
echo "  Depends: $depends"
