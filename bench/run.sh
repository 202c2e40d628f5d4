#!/usr/bin/env bash
# make bench: generates a benchmark log and prints speed ratios measured in one run.
# Usage: bench/run.sh BUILD_DIR [SCALE]   (SCALE: ~15 MB of log per unit; default 14 = ~200 MB)
set -euo pipefail
build="${1:-build}"
scale="${2:-${SF_BENCH_SCALE:-14}}"
out="$build/bench-data"
mkdir -p "$out"
loggen="$build/bench/loggen/sf-loggen"
bench="$build/bench/sf-bench-ingest"

log=$("$loggen" --preset benchmark --scale "$scale" --codec none --layout file --out "$out" 2>/dev/null)
echo "== benchmark log: $log ($(du -h "$log" | cut -f1))"
"$bench" "$log" --repeat 3

# What people write by hand: json.loads on every line, summing task run time.
python_start=$(date +%s.%N)
python3 - "$log" <<'PY'
import json, sys
total = 0
with open(sys.argv[1], "rb") as f:
    for line in f:
        e = json.loads(line)
        if e.get("Event") == "SparkListenerTaskEnd":
            total += (e.get("Task Metrics") or {}).get("Executor Run Time", 0)
PY
python_end=$(date +%s.%N)
sf_start=$(date +%s.%N)
"$build/src/cli/sparkforensics" analyze -q "$log" >/dev/null
sf_end=$(date +%s.%N)
python3 - "$python_start" "$python_end" "$sf_start" "$sf_end" <<'PY'
import sys
p0, p1, s0, s1 = map(float, sys.argv[1:])
print(f"python json.loads loop       {p1 - p0:8.3f} s")
print(f"sparkforensics analyze (CLI) {s1 - s0:8.3f} s")
print(f"ratio python/analyze         {(p1 - p0) / (s1 - s0):8.2f}x")
PY
