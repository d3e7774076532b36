#!/usr/bin/env bash
# Installs Debian's Chromium, which renders pages for screenshots and wait_type 2, when it is missing.
# Kumo never downloads a browser of its own. Needs root (or sudo) and Debian's package sources.
set -euo pipefail
chromium_path="${KUMO_CHROMIUM_PATH:-/usr/bin/chromium}"
if [ -x "$chromium_path" ]; then
  echo "chromium: present at $chromium_path"
  exit 0
fi
if ! command -v apt-get >/dev/null 2>&1; then
  echo "chromium: missing at $chromium_path and apt-get is not available; install Chromium and set KUMO_CHROMIUM_PATH" >&2
  exit 1
fi
as_root=()
if [ "$(id -u)" -ne 0 ]; then as_root=(sudo); fi
echo "chromium: installing Debian's chromium package"
"${as_root[@]}" apt-get update -qq
DEBIAN_FRONTEND=noninteractive "${as_root[@]}" apt-get install -y -qq chromium fonts-noto-cjk >/dev/null
echo "chromium: installed ($(/usr/bin/chromium --version 2>/dev/null))"
if [ "$chromium_path" != /usr/bin/chromium ]; then
  echo "chromium: KUMO_CHROMIUM_PATH is $chromium_path; set it to /usr/bin/chromium to use this one"
fi
