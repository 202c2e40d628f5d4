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

# make_venv PYTHON VENV LOCK: VENV with exactly LOCK's packages, made again only when LOCK changed.
make_venv() {
  local python="$1" venv="$2" lock="$3"
  local stamp="$venv/.requirements.lock.sha256" wanted
  wanted=$(sha256sum "$lock" | cut -d' ' -f1)
  if [[ -x "$venv/bin/python" && -f "$stamp" && "$(cat "$stamp")" == "$wanted" ]]; then
    return 0
  fi
  echo "install-python: creating $venv from $lock" >&2
  rm -rf "$venv"
  "$python" -m venv "$venv"
  "$venv/bin/python" -m pip install --quiet --disable-pip-version-check --no-input --require-hashes \
    -r "$lock" >/tmp/sf-pip.log 2>&1 || { cat /tmp/sf-pip.log >&2; exit 1; }
  echo "$wanted" >"$stamp"
}

make_venv python3 "$venv" "$lock"

# The MCP server for the History Server needs Python 3.12 or later (python/requirements-mcp.in):
# .venv-mcp is made with the newest such python found (on PATH, or a pyenv version); without
# one there is none, and the test that runs it says so and skips.
newer_python=""
for candidate in python3.14 python3.13 python3.12; do
  if "$candidate" -c 'import sys; assert sys.version_info >= (3, 12)' 2>/dev/null; then
    newer_python="$(command -v "$candidate")"
    break
  fi
done
if [[ -z "$newer_python" ]] && command -v pyenv >/dev/null; then
  for version in $(pyenv versions --bare 2>/dev/null | grep -E '^3\.(1[2-9])(\.[0-9]+)?$' | sort -Vr); do
    candidate="$(pyenv root)/versions/$version/bin/python3"
    if "$candidate" -c 'import sys; assert sys.version_info >= (3, 12)' 2>/dev/null; then
      newer_python="$candidate"
      break
    fi
  done
fi
if [[ -n "$newer_python" ]]; then
  make_venv "$newer_python" .venv-mcp python/requirements-mcp.lock
fi
