#!/usr/bin/env bash
# make fuzz: runs each libFuzzer target of a build configured with -DSF_FUZZ=ON (make test-asan
# and make fuzz configure build-asan/ that way, with clang, AddressSanitizer and UBSan) for
# FUZZ_SECONDS (default 60). Seeds come from generated logs and small cuts of ../shared/corpus
# (copied at run time, never committed). Prints, per target, the executions reached; any
# crash, leak, timeout or out-of-memory fails the run with the reproducer's path (a file under
# BUILD_DIR/fuzz-crashes/ to turn into a regression test). FUZZ_JOBS targets run at once
# (default: the number of cores).
#   scripts/fuzz.sh BUILD_DIR [TARGET...]
set -euo pipefail
fuzz_build="${1:?usage: scripts/fuzz.sh BUILD_DIR [TARGET...]}"
shift
here="$(cd "$(dirname "$0")/.." && pwd)"
seconds="${FUZZ_SECONDS:-60}"
corpus="${SF_CORPUS_DIR:-$here/../shared/corpus}"
loggen="$fuzz_build/bench/loggen/sf-loggen"
[[ -x "$fuzz_build/fuzz/fuzz_decode_line" && -x "$loggen" ]] ||
  { echo "fuzz: $fuzz_build has no fuzz targets: build it with make fuzz" >&2; exit 2; }

targets=("$@")
if [[ ${#targets[@]} -eq 0 ]]; then
  targets=(fuzz_decode_line fuzz_load_file fuzz_zip fuzz_rolling_dir fuzz_thresholds_config fuzz_result_documents fuzz_mcp_messages
           fuzz_rest_requests
           fuzz_decompress_zstd fuzz_decompress_lz4 fuzz_decompress_snappy fuzz_decompress_lzf fuzz_decompress_gzip)
fi

seeds="$fuzz_build/fuzz-seeds"
# Seeds: the generated small log in every codec, lines of it, and the first 16 KiB of real logs.
if [[ ! -f "$seeds/.complete" ]]; then
  rm -rf "$seeds"
  mkdir -p "$seeds"/{logs,lines,zip,config,rolling}
  for codec in none zstd lz4 snappy lzf gzip; do
    "$loggen" --preset small --codec "$codec" --layout file --out "$seeds/gen-$codec" >/dev/null 2>&1
    mkdir -p "$seeds/$codec"
    for f in "$seeds/gen-$codec"/*; do head -c 65536 "$f" > "$seeds/$codec/generated"; done
  done
  split -l 40 "$seeds/none/generated" "$seeds/lines/generated-"
  if [[ -d "$corpus" ]]; then
    n=0
    while IFS= read -r -d '' f; do
      n=$((n + 1))
      case "$f" in
        *.zstd|*.zst) head -c 16384 "$f" > "$seeds/zstd/corpus-$n" ;;
        *.lz4) head -c 16384 "$f" > "$seeds/lz4/corpus-$n" ;;
        *.snappy) head -c 16384 "$f" > "$seeds/snappy/corpus-$n" ;;
        *.lzf) head -c 16384 "$f" > "$seeds/lzf/corpus-$n" ;;
        *.gz) head -c 16384 "$f" > "$seeds/gzip/corpus-$n" ;;
        *.zip) head -c 65536 "$f" > "$seeds/zip/corpus-$n" ;;
        *.json|*.csv|*.txt|*.md) ;;
        *) head -c 16384 "$f" > "$seeds/lines/corpus-$n" ;;
      esac
    done < <(find "$corpus" -type f -size -50M -print0 | sort -z)
  else
    echo "fuzz: $corpus not found: seeding from generated logs only" >&2
  fi
  python3 - "$seeds/gen-none" "$seeds/zip/generated.zip" <<'PY'
import os, sys, zipfile
src, out = sys.argv[1], sys.argv[2]
with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as z:
    for name in sorted(os.listdir(src)):
        z.write(os.path.join(src, name), name)
PY
  echo '{"thresholds": {"skew.maxToMedianRatio": 4, "stage.minDurationMs": 1000}}' > "$seeds/config/overrides.json"
  # A result document of the generated log, and the store's identity policy, as the store writes them.
  sf="$fuzz_build/src/cli/sparkforensics"
  mkdir -p "$seeds/results"
  "$sf" store ingest --store "$seeds/store.db" --quiet "$seeds/gen-none"/*
  id=$("$sf" store list --store "$seeds/store.db" --format json | python3 -c 'import json, sys; print(json.load(sys.stdin)[0]["id"])')
  # store show prints the document as stored, which store ingest --result reads back as it is.
  "$sf" store show --store "$seeds/store.db" "$id" > "$seeds/results/generated.json"
  "$sf" store policy --store "$seeds/store.db" > "$seeds/results/policy.json"
  # An MCP session that calls every tool on the log the target puts in its --log-dir ("app-1").
  mkdir -p "$seeds/mcp"
  init='{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"fuzz","version":"1"}}}'
  call() { printf '{"jsonrpc":"2.0","id":%s,"method":"tools/call","params":{"name":"%s","arguments":%s}}\n' "$1" "$2" "$3"; }
  {
    echo "$init"
    echo '{"jsonrpc":"2.0","method":"notifications/initialized"}'
    echo '{"jsonrpc":"2.0","id":2,"method":"tools/list"}'
    echo '{"jsonrpc":"2.0","id":3,"method":"ping"}'
    call 4 list_applications '{}'
    call 5 analyze_event_log '{"path":"app-1"}'
    call 6 get_findings '{"path":"app-1","limit":2}'
    call 7 get_slowest '{"path":"app-1","kind":"stages"}'
    call 8 get_stage '{"path":"app-1","stageId":0}'
    call 9 compare_runs '{"baseline":{"path":"app-1"},"candidate":{"path":"app-1"}}'
    echo '{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":9}}'
    echo '{"jsonrpc":"2.0","id":10,"method":"logging/setLevel","params":{"level":"debug"}}'
  } > "$seeds/mcp/session"
  echo "$init" > "$seeds/mcp/initialize"
  # REST request targets: every request of Spark's HistoryServerSuite, asked of the target's log.
  mkdir -p "$seeds/rest"
  printf 'applications/app-1/stages/0/0/taskList?sortBy=-runtime&length=1' > "$seeds/rest/tasks"
  printf 'applications?status=completed&minDate=2015-02-10' > "$seeds/rest/list"
  map="$corpus/history-server-expectations/expectation-map.tsv"
  if [[ -f "$map" ]]; then
    n=0
    tail -n +2 "$map" | cut -f3 | sed -E 's#^applications/[^/?]+#applications/app-1#' | while IFS= read -r path; do
      n=$((n + 1)); printf '%s' "$path" > "$seeds/rest/suite-$n"
    done
  fi
  printf '\x00\x02\x01{"Event":"SparkListenerLogStart","Spark Version":"3.5.0"}\n' > "$seeds/rolling/one-part"
  touch "$seeds/.complete"
fi

seed_dirs_of() {
  case "$1" in
    fuzz_decode_line) echo "$seeds/lines" ;;
    fuzz_load_file) echo "$seeds/none $seeds/zstd $seeds/lz4 $seeds/snappy $seeds/lzf $seeds/gzip" ;;
    fuzz_zip) echo "$seeds/zip" ;;
    fuzz_rolling_dir) echo "$seeds/rolling" ;;
    fuzz_thresholds_config) echo "$seeds/config" ;;
    fuzz_result_documents) echo "$seeds/results" ;;
    fuzz_mcp_messages) echo "$seeds/mcp" ;;
    fuzz_rest_requests) echo "$seeds/rest" ;;
    fuzz_decompress_*) echo "$seeds/${1#fuzz_decompress_}" ;;
  esac
}

# One libFuzzer process per target, FUZZ_JOBS of them at a time (default: one per core; each is
# single-threaded, so every target gets the same FUZZ_SECONDS of a core as when run alone).
# Results are printed in the targets' order once all have run.
run_target() {
  local target="$1"
  local work="$fuzz_build/fuzz-work/$target"
  local log="$fuzz_build/fuzz-work/$target.log"
  mkdir -p "$work"
  # shellcheck disable=SC2046
  if ! "$fuzz_build/fuzz/$target" "$work" $(seed_dirs_of "$target") -max_total_time="$seconds" \
      -timeout=10 -rss_limit_mb=2048 -max_len=1048576 -artifact_prefix="$fuzz_build/fuzz-crashes/$target-" \
      -print_final_stats=1 >"$log" 2>&1; then
    return 1
  fi
}

mkdir -p "$fuzz_build/fuzz-crashes" "$fuzz_build/fuzz-work"
parallel="${FUZZ_JOBS:-$(nproc)}"
declare -A pid_of
for target in "${targets[@]}"; do
  while [[ $(jobs -rp | wc -l) -ge $parallel ]]; do wait -n || true; done
  run_target "$target" &
  pid_of[$target]=$!
done

failed=0
for target in "${targets[@]}"; do
  log="$fuzz_build/fuzz-work/$target.log"
  if ! wait "${pid_of[$target]}"; then
    echo "fuzz: $target FAILED; the log is $log:"
    grep -E "ERROR|SUMMARY|Test unit written|No such file" "$log" | head -20 || true
    failed=1
    continue
  fi
  runs=$(grep -oE 'stat::number_of_executed_units: *[0-9]+' "$log" | grep -oE '[0-9]+$' || echo "?")
  cov=$(grep -oE 'cov: [0-9]+' "$log" | tail -1 | grep -oE '[0-9]+' || echo "?")
  printf 'fuzz: %-26s %10s executions in %ss, %s coverage points, no crash\n' "$target" "$runs" "$seconds" "$cov"
done
exit "$failed"
