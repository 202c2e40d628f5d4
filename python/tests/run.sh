#!/usr/bin/env bash
# ctest's python_package: the package's pytest suite against the module this build made.
# Usage: python/tests/run.sh PYTHON PACKAGE_PARENT SPARKFORENSICS SF_LOGGEN WORK
#   PACKAGE_PARENT  build/python, where the build lays out sparkforensics/ with its _core module
#   WORK            where the tests generate their logs and stores (emptied first)
# Exit 77 (skipped, with the reason) when the project's Python environment has no pytest.
set -uo pipefail
python="$1" package_parent="$2" sf="$3" loggen="$4" work="$5"
here="$(cd "$(dirname "$0")" && pwd)"
if ! "$python" -c 'import pytest' 2>/dev/null; then
  echo "skipped: $python has no pytest (make python-deps makes the project's .venv)"
  exit 77
fi
rm -rf "$work" && mkdir -p "$work"
cd "$here" && PYTHONPATH="$package_parent" SF_BIN="$sf" SF_LOGGEN="$loggen" SF_TEST_WORK="$work" \
  exec "$python" -m pytest -q -rs -p no:cacheprovider "$here"
