#!/usr/bin/env bash
# make bench-compare (and the end of make bench): times the level-one execution alignment of
# `sparkforensics compare` for 1,000 x 1,000 executions (full table) and 10,000 x 10,000
# (banded) and prints the growth; then compares two generated ~1 GB logs end to end (two runs
# of the same application with different seeds), printing the time and the throughput.
# Usage: bench/compare.sh BUILD_DIR [REPEAT]   (SF_BENCH_COMPARE_SCALE: log size, ~18 MB a unit)
set -euo pipefail
build="${1:-build}"
repeat="${2:-3}"
scale="${SF_BENCH_COMPARE_SCALE:-56}"
"$build/bench/sf-bench-compare" --repeat "$repeat"

source "$(dirname "$0")/compare_logs.sh"
out=$(generate_compare_logs "$build" "$scale")
base=$(ls "$out"/base/*)
cand=$(ls "$out"/cand/*)
python3 - "$build/src/cli/sparkforensics" "$base" "$cand" <<'PY'
import os, subprocess, sys, time
sf, base, cand = sys.argv[1:4]
start = time.perf_counter()
child = subprocess.Popen([sf, "compare", base, cand, "--format", "json", "--quiet"], stdout=subprocess.DEVNULL)
_, status, usage = os.wait4(child.pid, 0)
seconds = time.perf_counter() - start
if os.waitstatus_to_exitcode(status) not in (0, 1):
    sys.exit(f"compare failed with status {status}")
mb = (os.path.getsize(base) + os.path.getsize(cand)) / 1e6
print(f"compare, two generated logs end to end   {seconds:8.2f} s for {mb:,.0f} MB "
      f"({mb / seconds:,.0f} MB/s), peak RSS {usage.ru_maxrss / 1024:.0f} MiB")
PY
