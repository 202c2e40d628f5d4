#!/usr/bin/env bash
# The ingestion ratios in a few seconds: a ~54 MB generated log, plain and zstd, one run each.
# A regression check to run by hand or from the test suite; it prints the
# ratios and never fails on them, only when something does not run (ctest -C Bench -L bench -V).
#   bench/quick.sh BUILD_DIR [REPEAT]
set -euo pipefail
build="${1:-build}"
repeat="${2:-1}"
out="$("$(dirname "$0")/quick-log.sh" "$build")"
"$build/bench/sf-bench-ingest" "$(ls "$out"/plain/*)" --zstd "$(ls "$out"/zstd/*)" --repeat "$repeat"
