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
# packages (the Quick start's apt line); run it on the Debian release the packages are for (library
# packages change their names between releases: libtiff5 in 11, libtiff6 in 12). The maintainer named
# is DEBFULLNAME and DEBEMAIL when set, else the author of the checkout's last commit. The packages
# are made aside and moved into dist/ at the end, replacing the ones made before.
#
#   Resources/package.sh
set -euo pipefail
umask 022  # the files written below get 644 and 755 whatever the caller's umask
cd "$(dirname "$0")/.."
command -v dpkg-shlibdeps >/dev/null || { echo "package: dpkg-shlibdeps is missing; apt-get install dpkg-dev" >&2; exit 2; }

# The manual's tool first: a build without --static-swift-stdlib after the binary's would link it again.
swift build -c release --product generate-manual
# No $ORIGIN in its RUNPATH: installed in /usr/bin, it must not look for libraries beside itself.
swift build -c release --static-swift-stdlib --disable-local-rpath --product photopick
bin=$(swift build -c release --show-bin-path)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
install -m 755 "$bin/photopick" "$work/photopick"
# As dh_strip does: symbols, and the compilers' .comment and .note sections.
strip --strip-unneeded --remove-section=.comment --remove-section=.note "$work/photopick"
if readelf -d "$work/photopick" | grep -E 'RPATH|RUNPATH'; then
  echo "package: the binary has a library search path (above); it must use the system's" >&2
  exit 1
fi
if ldd "$work/photopick" | grep -E 'libswift|libFoundation|lib_Foundation|libdispatch|libBlocksRuntime'; then
  echo "package: the binary still links the Swift runtime (above); --static-swift-stdlib did not take" >&2
  exit 1
fi

# "0.1.0 (commit 1a2b3c4d5e6f)": the version, and the commit for the package's description.
read -r version _ commit <<<"$("$work/photopick" --version | tr -d '()')"
case $version in [0-9]*) ;; *) echo "package: photopick --version printed no version: $version" >&2; exit 1 ;; esac
# Who the package names as its maintainer: DEBFULLNAME and DEBEMAIL as Debian's tools take them, else
# the author of the last commit, which every clone has (a CI machine's git may know no one).
maintainer="${DEBFULLNAME:-$(git log -1 --format=%an)} <${DEBEMAIL:-$(git log -1 --format=%ae)}>"
[[ $maintainer =~ ^[^\<\>]+\ \<[^@\<\>\ ]+@[^@\<\>\ ]+\.[^@\<\>\ ]+\>$ ]] ||
  { echo "package: the maintainer must read 'Name <address@domain.tld>', not '$maintainer'; set DEBFULLNAME and DEBEMAIL" >&2; exit 2; }
machine=$(uname -m)
architecture=$(dpkg --print-architecture)

"$bin/generate-manual" "$work/photopick" --output-directory "$work" >/dev/null
for shell in bash zsh fish; do "$work/photopick" --generate-completion-script "$shell" >"$work/completion.$shell"; done
out=$work/out
mkdir -p "$out"

# What the binary needs, from the binary: dpkg-shlibdeps reads a source package's control file, so a
# minimal one in a folder of its own.
mkdir -p "$work/source/debian"
printf 'Source: photopick\n\nPackage: photopick\nArchitecture: any\n' >"$work/source/debian/control"
shlibdeps=$(cd "$work/source" && dpkg-shlibdeps -O "$work/photopick" 2>"$work/shlibdeps.err") ||
  { cat "$work/shlibdeps.err" >&2; echo "package: dpkg-shlibdeps failed (above)" >&2; exit 1; }
depends=$(sed -n 's/^shlibs:Depends=//p' <<<"$shlibdeps")
[ -n "$depends" ] || { cat "$work/shlibdeps.err" >&2; echo "package: dpkg-shlibdeps found no dependencies" >&2; exit 1; }
# libheif's codecs are plugins it loads, which no linker sees: its libde265 decoder is libheif1's own
# dependency, and the demo library's HEIC and AVIF originals are made with its x265 and aom encoders.
depends="$depends, libheif-plugin-x265, libheif-plugin-aomenc"
# The same as package names alone, for the tarball's install.sh to name when a library is missing.
needed=$(sed 's/ ([^)]*)//g; s/,//g' <<<"$depends")

# The licences and notices of what is compiled into the binary: the Swift runtime and Foundation, and
# every package the build resolved (their NOTICE files name what they carry: BoringSSL in swift-nio-ssl
# and swift-crypto, zlib in swift-nio-extras).
notices=$work/THIRD-PARTY-NOTICES
swift_licence=$(dirname "$(dirname "$(command -v swift)")")/share/swift/LICENSE.txt
[ -f "$swift_licence" ] || { echo "package: the toolchain has no $swift_licence" >&2; exit 1; }
{
  echo "photopick's binary contains the Swift runtime and Foundation, and these Swift packages."
  echo "Their licences and notices follow, each under its name."
  printf '\n==== Swift (runtime and Foundation) ====\n\n'
  cat "$swift_licence"
  for checkout in .build/checkouts/*/; do
    printf '\n==== %s ====\n' "$(basename "$checkout")"
    for file in "$checkout"NOTICE* "$checkout"LICENSE* "$checkout"COPYING*; do
      if [ -f "$file" ]; then printf '\n-- %s --\n\n' "$(basename "$file")"; cat "$file"; fi
    done
  done
} >"$notices"
grep -q '==== swift-nio ====' "$notices" || { echo "package: no licences found in .build/checkouts" >&2; exit 1; }

# The tarball: one folder, its files where install.sh expects them.
name=photopick-$version-linux-$machine
tree=$work/$name
install -D -m 755 "$work/photopick" "$tree/bin/photopick"
install -D -m 644 "$work/photopick.1" "$tree/share/man/man1/photopick.1"
install -D -m 644 "$work/completion.bash" "$tree/share/bash-completion/completions/photopick"
install -D -m 644 "$work/completion.zsh" "$tree/share/zsh/site-functions/_photopick"
install -D -m 644 "$work/completion.fish" "$tree/share/fish/vendor_completions.d/photopick.fish"
install -m 644 README.md "$tree/README.md"
install -m 644 "$notices" "$tree/THIRD-PARTY-NOTICES"
sed "s/@NEEDED@/$needed/" >"$tree/install.sh" <<'INSTALL'
#!/bin/sh
# Installs photopick from this folder under PREFIX (default ~/.local): the binary in bin/, the man page
# and the completions under share/. Run it again to update; `sudo PREFIX=/usr/local ./install.sh`
# installs for everyone. To remove: delete the files it lists.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
PREFIX=${PREFIX:-$HOME/.local}
case $PREFIX in /*) ;; *) echo "install: PREFIX must be an absolute path, not $PREFIX" >&2; exit 2 ;; esac
for file in bin/photopick share/man/man1/photopick.1 share/bash-completion/completions/photopick \
  share/zsh/site-functions/_photopick share/fish/vendor_completions.d/photopick.fish; do
  mode=644; [ "$file" = bin/photopick ] && mode=755
  install -d "$PREFIX/$(dirname "$file")"
  # Into place by rename, so a photopick running from PREFIX keeps its old file.
  install -m "$mode" "$here/$file" "$PREFIX/$file.new"
  mv -f "$PREFIX/$file.new" "$PREFIX/$file"
  echo "  $PREFIX/$file"
done
missing=$(ldd "$PREFIX/bin/photopick" 2>/dev/null | awk '/not found/ { printf " %s", $1 }')
if [ -n "$missing" ]; then
  echo "installed in $PREFIX, but these libraries photopick needs are missing:$missing" >&2
  echo "on Debian 12, with bookworm-backports in apt's sources (libheif 1.19): sudo apt-get install -t bookworm-backports @NEEDED@" >&2
  exit 1
fi
# libheif's codecs are plugins, loaded at run time: photopick names any it cannot find.
plugins=$("$PREFIX/bin/photopick" doctor </dev/null 2>/dev/null | sed -n 's/^missing: \(libheif .*\)/\1/p')
if [ -n "$plugins" ]; then
  echo "installed in $PREFIX, but $plugins" >&2
  echo "on Debian 12, with bookworm-backports in apt's sources (libheif 1.19): sudo apt-get install -t bookworm-backports @NEEDED@" >&2
  exit 1
fi
echo "installed $("$PREFIX/bin/photopick" --version) in $PREFIX"
case ":$PATH:" in
  *":$PREFIX/bin:"*) ;;
  *) echo "$PREFIX/bin is not on PATH: add   export PATH=\"$PREFIX/bin:\$PATH\"   to your shell's profile" ;;
esac
INSTALL
chmod 755 "$tree/install.sh"
tar -C "$work" --owner=0 --group=0 --sort=name -czf "$out/$name.tar.gz" "$name"

# The .deb, laid out as Debian's policy says: the man page gzipped, completions where bash-completion,
# zsh and fish look, the copyright, changelog and notices under /usr/share/doc.
root=$work/deb
install -D -m 755 "$work/photopick" "$root/usr/bin/photopick"
install -d "$root/usr/share/man/man1"
gzip -9n <"$work/photopick.1" >"$root/usr/share/man/man1/photopick.1.gz"
# bash-completion sources the script: Debian's completions carry no #! line.
install -d "$root/usr/share/bash-completion/completions"
sed '1{/^#!/d}' "$work/completion.bash" >"$root/usr/share/bash-completion/completions/photopick"
install -D -m 644 "$work/completion.zsh" "$root/usr/share/zsh/vendor-completions/_photopick"
install -D -m 644 "$work/completion.fish" "$root/usr/share/fish/vendor_completions.d/photopick.fish"
doc=$root/usr/share/doc/photopick
install -d "$doc"
gzip -9n <"$notices" >"$doc/THIRD-PARTY-NOTICES.gz"
released=$(git log -1 --format=%ct 2>/dev/null || date +%s)
cat >"$doc/copyright" <<COPYRIGHT
Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/
Upstream-Name: photopick
Comment: Built from commit $commit. The binary contains the Swift runtime and Foundation (Apache-2.0
 with Runtime Library Exception) and the Swift packages swift-argument-parser, swift-nio (with
 BoringSSL and zlib), async-http-client, GRDB, Hummingbird, swift-log, swift-collections, TOMLKit
 and those they use (Apache-2.0 or MIT); their licences and notices are in THIRD-PARTY-NOTICES.gz
 beside this file.

Files: *
Copyright: $(date +%Y -d "@$released") the photopick developers
License: photopick-unlicensed
 The photopick developers have not chosen a licence for photopick yet; until they
 do, this package grants no rights beyond installing and running it.
COPYRIGHT
printf 'photopick (%s) unstable; urgency=medium\n\n  * Built from commit %s.\n\n -- %s  %s\n' \
  "$version" "$commit" "$maintainer" "$(date -R -d "@$released")" | gzip -9n >"$doc/changelog.gz"
# zlib is compiled in by swift-nio-extras (CNIOExtrasZlib, for async-http-client's decompression):
# SwiftPM has no switch to link the system's instead.
install -d "$root/usr/share/lintian/overrides"
printf '# zlib is compiled in by swift-nio-extras (CNIOExtrasZlib), which SwiftPM builds from source.\nphotopick: embedded-library zlib [usr/bin/photopick]\n' \
  >"$root/usr/share/lintian/overrides/photopick"
install -d "$root/DEBIAN"
cat >"$root/DEBIAN/control" <<CONTROL
Package: photopick
Version: $version
Architecture: $architecture
Maintainer: $maintainer
Installed-Size: $(du -sk --apparent-size "$root/usr" | cut -f1)
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
# md5sums, as dh_md5sums writes it: what `dpkg --verify photopick` checks the installed files against.
(cd "$root" && find usr -type f | LC_ALL=C sort | xargs md5sum) >"$root/DEBIAN/md5sums"
deb=photopick_${version}_$architecture.deb
dpkg-deb --root-owner-group -Zxz --build "$root" "$out/$deb" >/dev/null
# A checksum file beside the packages, as release pages give one, for checking a copy on the far side.
sums=photopick-$version-SHA256SUMS
(cd "$out" && sha256sum "$name.tar.gz" "$deb" >"$sums")

# Into dist/ whole, in place of the packages made before (of this version or another).
mkdir -p dist
rm -f dist/photopick-*.tar.gz dist/photopick_*.deb dist/photopick-*-SHA256SUMS
mv "$out/$name.tar.gz" "$out/$deb" "$out/$sums" dist/
echo "packages of photopick $version (commit $commit) in dist/:"
ls -l "dist/$name.tar.gz" "dist/$deb" "dist/$sums" | awk '{ print "  " $9 "  " $5 " bytes" }'
echo "  Depends: $depends"
