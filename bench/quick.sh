#!/usr/bin/env bash
# The ingestion ratios in a few seconds: a ~54 MB generated log, plain and zstd, one run each.
# A regression check to run by hand or from the test suite; it prints the
# ratios and never fails on them, only when something does not run (ctest -C Bench -L bench -V).
#   bench/quick.sh BUILD_DIR [REPEAT]
set -euo pipefail
build="${1:-build}"
repeat="${2:-1}"
out="$build/bench-data/quick"
loggen="$build/bench/loggen/sf-loggen"
if [[ ! -f "$out/.complete" ]]; then
  rm -rf "$out"
  "$loggen" --preset benchmark --scale 3 --codec none --layout file --out "$out/plain" >/dev/null 2>&1
  "$loggen" --preset benchmark --scale 3 --codec zstd --layout file --out "$out/zstd" >/dev/null 2>&1
  touch "$out/.complete"
fi
"$build/bench/sf-bench-ingest" "$(ls "$out"/plain/*)" --zstd "$(ls "$out"/zstd/*)" --repeat "$repeat"
