#!/usr/bin/env bash
# Installs the Debian packages the ClipShare test suite needs (PostgreSQL,
# OpenStack Swift for the S3 API, Chromium for browser tests, WebDAV and load
# tools, ffmpeg for video thumbnails and heif-convert for HEIC photos, both optional at run
# time).
# Idempotent: when everything is already installed it only asks dpkg.
set -euo pipefail

# Packages installed without their "recommends" (Swift pulls in a lot otherwise).
LEAN_PACKAGES=(swift swift-proxy swift-account swift-container swift-object ffmpeg)
# Packages installed normally.
PACKAGES=(postgresql chromium fonts-noto-cjk litmus rclone cadaver wrk unzip zip nginx curl libheif-examples)

is_installed() {
  [ "$(dpkg-query -W -f='${db:Status-Status}' "$1" 2>/dev/null || true)" = "installed" ]
}

missing_lean=()
missing=()
for p in "${LEAN_PACKAGES[@]}"; do is_installed "$p" || missing_lean+=("$p"); done
for p in "${PACKAGES[@]}"; do is_installed "$p" || missing+=("$p"); done

if [ ${#missing_lean[@]} -eq 0 ] && [ ${#missing[@]} -eq 0 ]; then
  echo "system packages: all present"
  exit 0
fi

SUDO=()
if [ "$(id -u)" -ne 0 ]; then
  if command -v sudo >/dev/null 2>&1; then SUDO=(sudo); else
    echo "install-system-deps: packages missing and not root (no sudo): ${missing_lean[*]} ${missing[*]}" >&2
    exit 1
  fi
fi

export DEBIAN_FRONTEND=noninteractive
echo "system packages: installing ${missing_lean[*]}${missing_lean[*]:+ }${missing[*]}"
"${SUDO[@]}" apt-get update -qq
# Never let package installation start system services on this machine.
policy_added=0
if [ ! -e /usr/sbin/policy-rc.d ]; then
  printf '#!/bin/sh\nexit 101\n' | "${SUDO[@]}" tee /usr/sbin/policy-rc.d >/dev/null
  "${SUDO[@]}" chmod +x /usr/sbin/policy-rc.d
  policy_added=1
fi
cleanup_policy() { if [ "$policy_added" = 1 ]; then "${SUDO[@]}" rm -f /usr/sbin/policy-rc.d; fi; }
trap cleanup_policy EXIT

if [ ${#missing_lean[@]} -gt 0 ]; then
  "${SUDO[@]}" apt-get install -y -qq --no-install-recommends "${missing_lean[@]}" >/dev/null
fi
if [ ${#missing[@]} -gt 0 ]; then
  "${SUDO[@]}" apt-get install -y -qq "${missing[@]}" >/dev/null
fi
echo "system packages: done"
