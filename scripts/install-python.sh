#!/usr/bin/env bash
# The project's Python environment: .venv at the top of the tree, with exactly the packages of
# python/requirements.lock (every hash checked), and Java for Spark. Quiet and quick when all is
# there already: the venv is rebuilt only when the lock changed since it was made.
# Usage: scripts/install-python.sh      prints nothing on success; the venv is .venv/
set -euo pipefail
cd "$(dirname "$0")/.."
lock=python/requirements.lock
venv=.venv

# Spark 4 runs on Java 17 or 21.
if ! command -v java >/dev/null || ! java -version 2>&1 | grep -qE 'version "(17|21)'; then
  scripts/install-deps.sh openjdk-17-jre-headless
fi
command -v python3 >/dev/null || scripts/install-deps.sh python3
python3 -c 'import venv, ensurepip' 2>/dev/null || scripts/install-deps.sh python3-venv

stamp="$venv/.requirements.lock.sha256"
wanted=$(sha256sum "$lock" | cut -d' ' -f1)
if [[ -x "$venv/bin/python" && -f "$stamp" && "$(cat "$stamp")" == "$wanted" ]]; then
  exit 0
fi
echo "install-python: creating $venv from $lock" >&2
rm -rf "$venv"
python3 -m venv "$venv"
"$venv/bin/python" -m pip install --quiet --disable-pip-version-check --no-input --require-hashes \
  -r "$lock" >/tmp/sf-pip.log 2>&1 || { cat /tmp/sf-pip.log >&2; exit 1; }
echo "$wanted" >"$stamp"
