#!/usr/bin/env bash
# The ~54 MB generated log of the quick benchmarks, plain and zstd, written once under
# BUILD_DIR/bench-data/quick/{plain,zstd}/ and reused. Prints that directory.
#   bench/quick-log.sh BUILD_DIR
set -euo pipefail
build="${1:-build}"
out="$build/bench-data/quick"
loggen="$build/bench/loggen/sf-loggen"
if [[ ! -f "$out/.complete" ]]; then
  rm -rf "$out"
  "$loggen" --preset benchmark --scale 3 --codec none --layout file --out "$out/plain" >/dev/null 2>&1
  "$loggen" --preset benchmark --scale 3 --codec zstd --layout file --out "$out/zstd" >/dev/null 2>&1
  touch "$out/.complete"
fi
echo "$out"
