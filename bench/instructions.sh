#!/usr/bin/env bash
# The ingestion ratios counted in instructions instead of seconds: each pass of sf-bench-ingest
# (floor, every token walked, decode only, analyze on one thread) run once under callgrind on
# the ~54 MB log of bench/quick.sh. Instruction counts do not move with the load of a shared
# machine, so a change to the decoder or the model shows here even when wall-clock ratios are
# lost in the noise. They do not weigh a cache miss or a SIMD instruction like a scalar one:
# read them beside the timed ratios, never instead of them.
#   bench/instructions.sh BUILD_DIR
set -euo pipefail
build="${1:-build}"
log="$(ls "$("$(dirname "$0")/quick-log.sh" "$build")"/plain/*)"
declare -A counted
for pass in floor walk decode analyze; do
  out=$(valgrind --tool=callgrind --callgrind-out-file=/dev/null \
          "$build/bench/sf-bench-ingest" "$log" --only "$pass" --threads 1 2>&1)
  counted[$pass]=$(grep -oE 'Collected : [0-9]+' <<<"$out" | grep -oE '[0-9]+$')
  [[ -n "${counted[$pass]}" ]] || { echo "instructions.sh: callgrind gave no count for $pass" >&2; exit 1; }
done
floor=${counted[floor]}
for pass in floor walk decode analyze; do
  awk -v name="$pass" -v n="${counted[$pass]}" -v f="$floor" \
    'BEGIN { printf "%-34s %14d instructions %8.2fx the floor\n", "instructions: " name, n, n / f }'
done
