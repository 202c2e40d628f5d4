#!/usr/bin/env bash
# ctest entry for the browser tests (e2e.mjs): skips (exit 77, with the reason) when node, the
# dashboard's npm packages, Debian's chromium or a dashboard in the binary are missing; `make test`
# and .ci/run install them (scripts/install-deps.sh nodejs npm chromium; CMake runs npm ci).
# Usage: run.sh SPARKFORENSICS SCREENSHOT_DIR
set -uo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
if ! command -v node >/dev/null; then echo "SKIP: node is not installed"; exit 77; fi
if [[ ! -d "$here/../node_modules/playwright-core" ]]; then
  echo "SKIP: web/node_modules is missing (the build runs npm ci when the dashboard is built)"; exit 77
fi
if [[ ! -x "${SF_CHROMIUM:-/usr/bin/chromium}" ]]; then
  echo "SKIP: /usr/bin/chromium is missing: scripts/install-deps.sh chromium (make test does)"; exit 77
fi
if ! "$1" analyze --help >/dev/null 2>&1; then echo "SKIP: $1 does not run"; exit 77; fi
exec node "$here/e2e.mjs" "$1" "$2" "${SF_CORPUS_DIR:-$here/../../../shared/corpus}"
