#!/usr/bin/env bash
# Installs the Debian packages the tests need, only those missing:
# Chromium's headless shell for the browser walks (Chromium itself for the first-load
# benchmark), CJK fonts so Chinese renders in it,
# libvips/libtiff/openslide tools for slide tests, poppler for PDF checks.
set -euo pipefail
want=(chromium chromium-headless-shell fonts-noto-cjk libvips-tools libtiff-tools openslide-tools poppler-utils)
missing=()
for p in "${want[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0
echo "installing: ${missing[*]}"
SUDO=""
[ "$(id -u)" -eq 0 ] || SUDO="sudo"
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
