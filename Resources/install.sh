#!/usr/bin/env bash
# Builds photopick in release mode and installs it under PREFIX (default ~/.local): the binary in
# bin/, its man page in share/man/man1/ (made from the argument parser by its generate-manual tool,
# so it always matches --help), and the completions where bash, zsh and fish look under PREFIX.
# Run it again to update; PREFIX=/usr/local (with sudo) installs for everyone.
#
#   Resources/install.sh
#   PREFIX=/opt/photopick Resources/install.sh
set -euo pipefail
cd "$(dirname "$0")/.."
PREFIX=${PREFIX:-$HOME/.local}
case $PREFIX in /*) ;; *) echo "install: PREFIX must be an absolute path, not $PREFIX" >&2; exit 2 ;; esac

swift build -c release --product photopick
swift build -c release --product generate-manual
bin=$(swift build -c release --show-bin-path)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$bin/generate-manual" "$bin/photopick" --output-directory "$work" >/dev/null
for shell in bash zsh fish; do "$bin/photopick" --generate-completion-script "$shell" >"$work/completion.$shell"; done

install -d "$PREFIX/bin" "$PREFIX/share/man/man1" "$PREFIX/share/bash-completion/completions" \
  "$PREFIX/share/zsh/site-functions" "$PREFIX/share/fish/vendor_completions.d"
# Into place by rename, so a photopick running from PREFIX keeps its old file.
install -m 755 "$bin/photopick" "$PREFIX/bin/.photopick.new" && mv -f "$PREFIX/bin/.photopick.new" "$PREFIX/bin/photopick"
install -m 644 "$work/photopick.1" "$PREFIX/share/man/man1/photopick.1"
install -m 644 "$work/completion.bash" "$PREFIX/share/bash-completion/completions/photopick"
install -m 644 "$work/completion.zsh" "$PREFIX/share/zsh/site-functions/_photopick"
install -m 644 "$work/completion.fish" "$PREFIX/share/fish/vendor_completions.d/photopick.fish"

echo "installed $("$PREFIX/bin/photopick" --version) in $PREFIX:"
echo "  $PREFIX/bin/photopick"
echo "  $PREFIX/share/man/man1/photopick.1 (man photopick)"
echo "  completions for bash, zsh and fish under $PREFIX/share"
case ":$PATH:" in
  *":$PREFIX/bin:"*) ;;
  *) echo "$PREFIX/bin is not on PATH: add   export PATH=\"$PREFIX/bin:\$PATH\"   to your shell's profile" ;;
esac
