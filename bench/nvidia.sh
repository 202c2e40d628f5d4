#!/usr/bin/env bash
# make bench-nvidia (and the end of make bench): NVIDIA's profiling tool and sparkforensics side by
# side on the same logs, in one run: wall time and peak RSS of each, and the ratios.
#
#   bench/nvidia.sh BUILD_DIR
#
# The profiler is rapids-4-spark-tools_2.12 26.08.4 (the jar bundled in PyPI's
# spark-rapids-user-tools; Maven Central does not serve it) on the Spark 3.5 jars of PyPI's pyspark,
# both pinned with hashes in bench/nvidia/requirements.lock and installed into .venv-nvidia by
# bench/nvidia/install.sh. It runs as its documentation says:
#   java -Xmx8g -cp TOOLS_JAR:PYSPARK/jars/* com.nvidia.spark.rapids.tool.profiling.ProfileMain --csv -o DIR LOG
# and sparkforensics as `analyze -q -f json LOG > /dev/null`. Each is timed by /usr/bin/time
# (%e wall, %M peak RSS). For each log the pair runs SF_BENCH_NVIDIA_REPEAT times (default 3),
# interleaved (profiler, sparkforensics, profiler, ...); the table keeps the best wall time with the
# range, and the largest peak RSS of each. The profiler's own "Profile Tool execution time" (its run
# without the JVM's start) is printed beside it. A run of the profiler counts only when its
# profiling_status.csv says SUCCESS and it wrote stage_level_aggregated_task_metrics.csv with rows;
# otherwise the table says it failed and why (e.g. OutOfMemoryError), and the bench goes on.
# Nothing is asserted: the ratios are printed for a person to read (docs/performance.md).
#
# Logs: the two largest real logs of the shared corpus (../shared/corpus, or SF_CORPUS_DIR), the
# ~200 MB generated log of bench/run.sh, and the ~1 GB one of bench/compare.sh, serve.sh and
# dashboard.sh. SF_BENCH_NVIDIA_XMX sets the profiler's heap (default 8g).
set -euo pipefail
build="${1:-build}"
repeat="${SF_BENCH_NVIDIA_REPEAT:-3}"
xmx="${SF_BENCH_NVIDIA_XMX:-8g}"
here="$(cd "$(dirname "$0")" && pwd)"
corpus="${SF_CORPUS_DIR:-$here/../../shared/corpus}"
out="$build/bench-data"
loggen="$build/bench/loggen/sf-loggen"
sf="$build/src/cli/sparkforensics"
work="$out/nvidia"
mkdir -p "$work"
# shellcheck source=bench/compare_logs.sh
source "$here/compare_logs.sh"

{ read -r tools_jar; read -r spark_jars; } < <("$here/nvidia/install.sh")
[[ -n "${spark_jars:-}" ]] || { echo "bench/nvidia.sh: bench/nvidia/install.sh gave no jars" >&2; exit 1; }

echo "== machine: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), $(nproc) cores," \
     "load average $(cut -d' ' -f1-3 /proc/loadavg)"
echo "== NVIDIA's profiler: $(basename "$tools_jar") on Spark $(basename "$(ls "$spark_jars"/spark-core_2.12-*.jar)" .jar |
  sed 's/spark-core_2.12-//') (pyspark's jars), $(java -version 2>&1 | head -1), -Xmx$xmx; $repeat runs of each, interleaved"

# The logs, as "title<TAB>path" lines.
logs=()
real="$corpus/NVIDIA__spark-rapids-tools/core/src/test/resources/spark-events-profiling"
if [[ -d "$real" ]]; then
  mkdir -p "$out/corpus"
  for name in tasks_executors_fail_compressed_eventlog gpu_oom_eventlog; do
    [[ -f "$out/corpus/$name" ]] || zstd -q -dc "$real/$name.zstd" > "$out/corpus/$name"
    logs+=("corpus $name"$'\t'"$out/corpus/$name")
  done
else
  echo "== corpus logs skipped: $corpus not found (set SF_CORPUS_DIR)"
fi
# The ~200 MB log exactly as bench/run.sh writes it (plain and zstd, so that run.sh reuses it).
dir="$out/benchmark"
if [[ ! -f "$dir/.complete" ]]; then
  rm -rf "$dir"
  for codec in none zstd; do
    [[ $codec == none ]] && sub=plain || sub=zstd
    "$loggen" --preset benchmark --scale 11 --codec $codec --layout file --out "$dir/$sub" >/dev/null 2>&1 ||
      { echo "bench/nvidia.sh: $loggen failed" >&2; exit 1; }
  done
  touch "$dir/.complete"
fi
logs+=("generated benchmark --scale 11"$'\t'"$(ls "$dir"/plain/*)")
compare_dir=$(generate_compare_logs "$build" "${SF_BENCH_SERVE_SCALE:-56}") &&
  [[ -f "$compare_dir/.complete" ]] || { echo "bench/nvidia.sh: $loggen failed" >&2; exit 1; }
logs+=("generated benchmark --scale 56"$'\t'"$(ls "$compare_dir"/base/*)")

# run_profiler LOG RESULT: one timed run; writes "wall rss own_ms" or "FAILED reason" to RESULT.
run_profiler() {
  local log="$1" result="$2" dir="$work/profile" rc=0
  rm -rf "$dir"
  /usr/bin/time -f "%e %M %U %S" -o "$work/time" \
    java "-Xmx$xmx" -cp "$tools_jar:$spark_jars/*" com.nvidia.spark.rapids.tool.profiling.ProfileMain \
    --csv -o "$dir" "$log" >"$work/profiler.log" 2>&1 || rc=$?
  local status="$dir/rapids_4_spark_profile/profiling_status.csv" stages
  stages=$(find "$dir" -name stage_level_aggregated_task_metrics.csv 2>/dev/null | head -1)
  if [[ $rc -eq 0 && -f "$status" ]] && grep -q '"SUCCESS"' "$status" &&
     [[ -n "$stages" && $(wc -l <"$stages") -gt 1 ]]; then
    local own
    own=$(grep -a -o 'Profile Tool execution time: [0-9]*ms' "$work/profiler.log" | tail -1 | tr -dc '0-9')
    read -r wall rss user sys <"$work/time"
    echo "$wall $rss ${own:-0} $(awk -v u="$user" -v s="$sys" 'BEGIN { print u + s }')" >"$result"
  else
    local why
    why=$(grep -o -m1 -E 'OutOfMemoryError[^"]*|Exception[^"]{0,80}' "$work/profiler.log" || true)
    [[ -n "$why" ]] || why="status $rc, $(tail -1 "$status" 2>/dev/null || echo 'no profiling_status.csv')"
    echo "FAILED $why (log: $work/profiler.log)" >"$result"
  fi
}

rows=()
for entry in "${logs[@]}"; do
  title="${entry%%$'\t'*}"
  log="${entry#*$'\t'}"
  prof_runs=()
  sf_runs=()
  failed=""
  for ((i = 0; i < repeat; i++)); do
    if [[ -z "$failed" ]]; then
      run_profiler "$log" "$work/result"
      result=$(cat "$work/result")
      if [[ "$result" == FAILED* ]]; then failed="${result#FAILED }"; else prof_runs+=("$result"); fi
    fi
    /usr/bin/time -f "%e %M %U %S" -o "$work/time" "$sf" analyze -q -f json "$log" >/dev/null
    read -r wall rss user sys <"$work/time"
    sf_runs+=("$wall $rss 0 $(awk -v u="$user" -v s="$sys" 'BEGIN { print u + s }')")
  done
  size=$(stat -c %s "$log")
  if [[ -n "$failed" ]]; then
    echo "== $title: the profiler failed: $failed"
    prof_field="FAILED"
  else
    prof_field=$(printf '%s\n' "${prof_runs[@]}" | awk '
      NR == 1 || $1 < lo { lo = $1 } $1 > hi { hi = $1 } $2 > rss { rss = $2 } NR == 1 || $3 < own { own = $3 }
      NR == 1 || $4 < cpu { cpu = $4 } END { printf "%s %s %s %s %s", lo, hi, rss, own, cpu }')
  fi
  sf_field=$(printf '%s\n' "${sf_runs[@]}" | awk '
    NR == 1 || $1 < lo { lo = $1 } $1 > hi { hi = $1 } $2 > rss { rss = $2 }
    NR == 1 || $4 < cpu { cpu = $4 } END { printf "%s %s %s %s", lo, hi, rss, cpu }')
  rows+=("$title|$size|$prof_field|$sf_field")
done

echo
header="%-47s %7s | %-21s %6s %6s %7s | %-18s %5s %7s | %6s %6s %6s %6s\n"
# shellcheck disable=SC2059
printf "$header" "log" "MB" "profiler wall s" "own s" "CPU s" "RSS MiB" "sparkforensics s" "CPU s" "RSS MiB" \
  "wall x" "own x" "CPU x" "RSS x"
for row in "${rows[@]}"; do
  IFS='|' read -r title size prof sf <<<"$row"
  [[ "$prof" == FAILED ]] && prof="- - - - -"
  awk -v t="$title" -v size="$size" -v prof="$prof" -v sf="$sf" 'BEGIN {
    split(prof, p, " "); split(sf, s, " ")
    sw = sprintf("%.2f (%.2f-%.2f)", s[1], s[1], s[2]); slo = (s[1] > 0 ? s[1] : 0.01)
    if (p[1] == "-") {
      printf "%-47s %7.1f | %-21s %6s %6s %7s | %-18s %5.2f %7.0f | %6s %6s %6s %6s\n", t, size / 1e6,
        "FAILED", "-", "-", "-", sw, s[4], s[3] / 1024, "-", "-", "-", "-"
      exit
    }
    printf "%-47s %7.1f | %-21s %6.2f %6.1f %7.0f | %-18s %5.2f %7.0f | %5.1fx %5.1fx %5.1fx %5.1fx\n", t, size / 1e6,
      sprintf("%.2f (%.2f-%.2f)", p[1], p[1], p[2]), p[4] / 1000, p[5], p[3] / 1024,
      sw, s[4], s[3] / 1024, p[1] / slo, p[4] / 1000 / slo, p[5] / (s[4] > 0 ? s[4] : 0.01), p[3] / s[3] }'
done
echo "(best of the runs, with the range of wall times; wall x: the profiler's best wall time over"
echo " sparkforensics' best; own x: the profiler's own \"Profile Tool execution time\" (without the JVM's"
echo " start) over the same; CPU x: user+sys CPU time over user+sys, which a loaded machine disturbs"
echo " less; RSS x: the largest peak RSS over the largest. Targets of issue 22: wall x >= 30, RSS x >= 10.)"
