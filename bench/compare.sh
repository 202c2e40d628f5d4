#!/usr/bin/env bash
# make bench-compare: times the level-one execution alignment of `sparkforensics compare` for
# 1,000 x 1,000 executions (full table) and 10,000 x 10,000 (banded), and prints the growth.
# Usage: bench/compare.sh BUILD_DIR [REPEAT]
set -euo pipefail
build="${1:-build}"
repeat="${2:-3}"
"$build/bench/sf-bench-compare" --repeat "$repeat"
