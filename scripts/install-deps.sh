#!/usr/bin/env bash
# Installs what warpsim needs to build and test, from Debian 12 packages only.
#   scripts/install-deps.sh          to build and run
#   scripts/install-deps.sh --tests  also what the test command checks with (clang-format)
set -euo pipefail
PKGS=(build-essential cmake ninja-build pkg-config
      libfmt-dev nlohmann-json3-dev libtomlplusplus-dev libcli11-dev
      libzstd-dev liblz4-dev liblzma-dev
      libgtest-dev libgmock-dev libbenchmark-dev python3)
[ "${1:-}" = "--tests" ] && PKGS+=(clang-format-14)
missing=()
for p in "${PKGS[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  SUDO=""
  [ "$(id -u)" -ne 0 ] && SUDO="sudo"
  echo "installing: ${missing[*]}"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${missing[@]}"
fi
