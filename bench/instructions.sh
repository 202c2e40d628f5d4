#!/usr/bin/env bash
# The ingestion ratios counted in instructions instead of seconds: each pass of sf-bench-ingest
# (floor, every token walked, decode only, analyze on one thread) run once under callgrind on
# the ~54 MB log of bench/quick.sh. Instruction counts do not move with the load of a shared
# machine, so a change to the decoder or the model shows here even when wall-clock ratios are
# lost in the noise. They do not weigh a cache miss or a SIMD instruction like a scalar one:
# read them beside the timed ratios, never instead of them.
# Then the whole CLI, `analyze -f json` on one thread (pretty, the default, and --compact), with
# the share of its instructions spent writing the document (report::stream_analysis_json, inclusive).
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

# cli_share FLAGS...: the CLI's instructions and the writer's share of them.
cli_share() {
  local profile
  profile=$(mktemp)
  valgrind --tool=callgrind --callgrind-out-file="$profile" \
    "$build/src/cli/sparkforensics" analyze "$log" --threads 1 -q -f json "$@" > /dev/null 2>&1
  callgrind_annotate --inclusive=yes "$profile" 2>/dev/null | awk -v flags="$*" -v f="$floor" '
    function count(s) { gsub(",", "", s); return s + 0 }
    /PROGRAM TOTALS/ { total = count($1) }
    /:sf::report::(stream_)?analysis_json[[(]/ && !writer { writer = count($1) }
    END {
      if (total == 0 || writer == 0) { print "instructions.sh: no count for the CLI" > "/dev/stderr"; exit 1 }
      printf "%-44s %14d instructions %8.2fx the floor; writing the document %d (%.1f%%)\n",
             "instructions: analyze -f json " flags, total, total / f, writer, 100 * writer / total
    }'
  rm -f "$profile"
}
cli_share
cli_share --compact
