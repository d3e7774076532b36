#!/usr/bin/env bash
# Installs Debian's PostgreSQL server, which the tests of the PostgreSQL store start in a temporary
# folder (test/support/postgres-server.ts), when it is missing. Needs root (or sudo) and Debian's
# package sources.
set -euo pipefail
shopt -s nullglob
servers=(/usr/lib/postgresql/*/bin/postgres)
if [ "${#servers[@]}" -gt 0 ]; then
  echo "postgresql: present at ${servers[-1]}"
  exit 0
fi
if ! command -v apt-get >/dev/null 2>&1; then
  echo "postgresql: missing under /usr/lib/postgresql and apt-get is not available; install the PostgreSQL server" >&2
  exit 1
fi
as_root=()
if [ "$(id -u)" -ne 0 ]; then as_root=(sudo); fi
echo "postgresql: installing Debian's postgresql package"
"${as_root[@]}" apt-get update -qq
DEBIAN_FRONTEND=noninteractive "${as_root[@]}" apt-get install -y -qq postgresql >/dev/null
servers=(/usr/lib/postgresql/*/bin/postgres)
echo "postgresql: installed (${servers[-1]})"
