#!/usr/bin/env bash
# Installs the Debian packages the project needs beyond Python: Chromium (for the browser tests
# and the dashboard screenshots). Idempotent; does nothing when they are already there.
set -euo pipefail
need=()
command -v chromium >/dev/null 2>&1 || need+=(chromium)
[ ${#need[@]} -eq 0 ] && exit 0
SUDO=""
if [ "$(id -u)" -ne 0 ]; then
  if command -v sudo >/dev/null 2>&1; then SUDO="sudo"; else
    echo "install-system-packages: need root (or sudo) to apt-get install ${need[*]}" >&2; exit 1
  fi
fi
echo "install-system-packages: apt-get install ${need[*]}" >&2
$SUDO apt-get update -qq
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
