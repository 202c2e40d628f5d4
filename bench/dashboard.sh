#!/usr/bin/env bash
# make bench-dashboard (and the end of make bench): the dashboard in chromium against serve on
# the same ~1 GB generated log as bench/serve.sh (bench/dashboard.mjs says what is measured).
# Usage: bench/dashboard.sh BUILD_DIR   (SF_BENCH_SERVE_SCALE: log size, ~18 MB a unit; default 56)
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
build="${1:-build}"
scale="${SF_BENCH_SERVE_SCALE:-56}"
if ! command -v node >/dev/null || [[ ! -d "$here/../web/node_modules/playwright-core" ]] \
   || [[ ! -x "${SF_CHROMIUM:-/usr/bin/chromium}" ]]; then
  echo "dashboard: not measured: it needs node, web/node_modules (the build's npm ci) and chromium (make web-deps)"
  exit 0
fi
source "$here/compare_logs.sh"
out=$(generate_compare_logs "$build" "$scale")
# The log's pages out of the page cache when allowed, so the first board includes reading the disk.
python3 - "$(ls "$out"/base/*)" <<'PY' || true
import os, sys
fd = os.open(sys.argv[1], os.O_RDONLY)
os.posix_fadvise(fd, 0, 0, os.POSIX_FADV_DONTNEED)
os.close(fd)
PY
node "$here/dashboard.mjs" "$build/src/cli/sparkforensics" "$out/base"
