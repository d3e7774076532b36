#!/usr/bin/env bash
# Installs the documentation `npm run eval:search` judges the search against, when it is missing:
# the Python documentation (python3-doc), the Japanese GIMP manual (gimp-help-ja), the PostgreSQL 15
# manual (postgresql-doc-15) and the Apache HTTP Server manual with its Japanese translation
# (apache2-doc), read from disk.
# Needs root (or sudo) and Debian's package sources.
set -euo pipefail
packages=(python3-doc gimp-help-ja postgresql-doc-15 apache2-doc)
missing=()
for package in "${packages[@]}"; do
  if ! dpkg-query -W -f '${Status}' "$package" 2>/dev/null | grep -q 'install ok installed'; then
    missing+=("$package")
  fi
done
if [ "${#missing[@]}" -eq 0 ]; then
  echo "eval corpus: present (${packages[*]})"
  exit 0
fi
if ! command -v apt-get >/dev/null 2>&1; then
  echo "eval corpus: missing ${missing[*]} and apt-get is not available" >&2
  exit 1
fi
as_root=()
if [ "$(id -u)" -ne 0 ]; then as_root=(sudo); fi
echo "eval corpus: installing ${missing[*]}"
"${as_root[@]}" apt-get update -qq
# gimp-help-ja depends on a www-browser to open the manual with; Chromium (scripts/install-chromium.sh)
# satisfies that, else apt picks GIMP's own help browser and GIMP with it.
DEBIAN_FRONTEND=noninteractive "${as_root[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
echo "eval corpus: installed ${missing[*]}"
