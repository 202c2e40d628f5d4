#!/usr/bin/env bash
# ctest's document_schemas: every document the program writes, validated against schemas/ by
# pytest and the jsonschema package of the project's .venv (python/requirements.lock).
# Usage: tests/schemas/run.sh SPARKFORENSICS SF_LOGGEN WORK
#   WORK  where the test generates its logs and stores (emptied first)
# Exit 77 (skipped, with the reason) when .venv lacks pytest or jsonschema: make python-deps makes it.
set -uo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
sf="$1" loggen="$2" work="$3"
python="$root/.venv/bin/python"
if [[ ! -x "$python" ]] || ! "$python" -c 'import pytest, jsonschema' 2>/dev/null; then
  echo "skipped: $root/.venv has no pytest and jsonschema (make python-deps makes it)"
  exit 77
fi
rm -rf "$work" && mkdir -p "$work"
cd "$here" && SF_BIN="$sf" SF_LOGGEN="$loggen" SF_TEST_WORK="$work" \
  exec "$python" -m pytest -q -s -rs -p no:cacheprovider "$here"
