#!/usr/bin/env bash
# make bench / make bench-large: ingestion speed and memory, measured in one run on the same bytes.
#
#   bench/run.sh BUILD_DIR            the ~200 MB benchmark log, then the two largest real logs of
#                                     the shared corpus (when ../shared/corpus is there)
#   bench/run.sh BUILD_DIR --large    the ~2.2 GB large log (stages of 110,000 tasks) first
#
# For each log, plain and zstd: the simdjson floor, analyze on 1 and 2 threads, decompression
# alone, analyze on the zstd file (sf-bench-ingest); `zstd -dc` alone; a python3 json.loads loop
# against the CLI; the CLI's peak resident memory. SF_BENCH_REPEAT runs of each (default 3),
# best kept. Nothing is asserted: the ratios are printed for a person to read.
set -euo pipefail
build="${1:-build}"
large=0
[[ "${2:-}" == "--large" ]] && large=1
repeat="${SF_BENCH_REPEAT:-3}"
out="$build/bench-data"
mkdir -p "$out"
loggen="$build/bench/loggen/sf-loggen"
bench="$build/bench/sf-bench-ingest"
sf="$build/src/cli/sparkforensics"
here="$(cd "$(dirname "$0")" && pwd)"
corpus="${SF_CORPUS_DIR:-$here/../../shared/corpus}"

echo "== machine: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), $(nproc) cores," \
     "load average $(cut -d' ' -f1-3 /proc/loadavg)"

# Writes the log of `preset args` plainly and with zstd into $out/NAME/{plain,zstd}; prints nothing.
generate() {
  local name="$1"
  shift
  local dir="$out/$name"
  if [[ ! -f "$dir/.complete" ]]; then
    rm -rf "$dir"
    "$loggen" "$@" --codec none --layout file --out "$dir/plain" >/dev/null 2>&1
    "$loggen" "$@" --codec zstd --layout file --out "$dir/zstd" >/dev/null 2>&1
    touch "$dir/.complete"
  fi
}

# The python loop and the CLI, on the plain log; peak RSS of the CLI on both; the whole command
# with its JSON document against the passes sf-bench-ingest printed to INGEST. Uses wait4() for
# each child's own peak RSS.
compare_cli() {
  local plain="$1" zstd="$2" ingest="$3"
  python3 - "$sf" "$plain" "$zstd" "$repeat" "$ingest" "$bench" <<'PY'
import os, re, subprocess, sys, time
sf, plain, zstd, repeat, ingest, bench = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4]), sys.argv[5], sys.argv[6]

def run(argv, stdin=None):
    start = time.perf_counter()
    child = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stdin=stdin)
    _, status, usage = os.wait4(child.pid, 0)
    seconds = time.perf_counter() - start
    if status != 0:
        sys.exit(f"{argv} failed with status {status}")
    return seconds, usage.ru_maxrss / 1024.0  # MiB

def best(argv):
    runs = [run(argv) for _ in range(repeat)]
    return min(r[0] for r in runs), max(r[1] for r in runs)

loop = r'''
import json, sys
total = 0
with open(sys.argv[1], "rb") as f:
    for line in f:
        e = json.loads(line)
        if e.get("Event") == "SparkListenerTaskEnd":
            total += (e.get("Task Metrics") or {}).get("Executor Run Time", 0)
print(total)
'''
python_s, python_rss = run([sys.executable, "-c", loop, plain])
zstd_s = min(run(["zstd", "-q", "-dc", zstd])[0] for _ in range(repeat))
cli1_s, cli1_rss = best([sf, "analyze", "-q", "--threads", "1", plain])
cli2_s, cli2_rss = best([sf, "analyze", "-q", "--threads", "2", plain])
z1_s, z1_rss = best([sf, "analyze", "-q", "--threads", "1", zstd])
z2_s, z2_rss = best([sf, "analyze", "-q", "--threads", "2", zstd])
# The whole command against the decode-only pass, interleaved run by run so that both see the
# same machine (on a shared host its speed drifts by 10-20% over a minute): best of each.
def decode_pass():
    text = subprocess.run([bench, plain, "--only", "decode"], check=True, capture_output=True, text=True).stdout
    return float(re.search(r"([0-9.]+) s wall", text).group(1))
interleaved = [(decode_pass(), run([sf, "analyze", "-q", "-f", "json", "--threads", "1", plain])[0],
                run([sf, "analyze", "-q", "-f", "json", "--threads", "2", plain])[0]) for _ in range(repeat)]
decode_interleaved_s, json1_s, json2_s = (min(r[k] for r in interleaved) for k in range(3))
def ingest_seconds(label):
    with open(ingest) as f:
        found = re.search(re.escape(label) + r"\s+([0-9.]+) s wall", f.read())
    return float(found.group(1))
floor_s = ingest_seconds("floor (simdjson, Event only)")
size_mb = os.path.getsize(plain) / 1e6
print(f"{'zstd -dc (the CLI tool) alone':34s} {zstd_s:8.3f} s wall {size_mb / zstd_s:24.1f} MB/s")
print(f"{'python3 json.loads loop':34s} {python_s:8.3f} s wall {size_mb / python_s:24.1f} MB/s  (peak RSS {python_rss:.0f} MiB)")
print(f"{'sparkforensics analyze, 1 thread':34s} {cli1_s:8.3f} s wall   peak RSS {cli1_rss:6.0f} MiB  (zstd: {z1_s:.3f} s, {z1_rss:.0f} MiB)")
print(f"{'sparkforensics analyze, 2 threads':34s} {cli2_s:8.3f} s wall   peak RSS {cli2_rss:6.0f} MiB  (zstd: {z2_s:.3f} s, {z2_rss:.0f} MiB)")
print(f"{'analyze -f json (the document), 1 / 2 threads':34s} {json1_s:8.3f} / {json2_s:.3f} s wall (to /dev/null; "
      f"decode only {decode_interleaved_s:.3f} s, interleaved with them)")
# Issue 22's index floor: a reader that extracts the fields analyze uses and keeps nothing (the
# decode-only pass), against the whole command: start-up, model, analysis and document.
print(f"{'ratio analyze -f json 1 thread / decode only':34s} {json1_s / decode_interleaved_s:8.2f}x   (target <= 1.2)")
print(f"{'ratio analyze -f json 2 threads / decode only':34s} {json2_s / decode_interleaved_s:8.2f}x   (target <= 1.0)")
print(f"{'ratio analyze -f json 1 / 2 threads / floor':34s} {json1_s / floor_s:8.2f}x / {json2_s / floor_s:.2f}x")
print(f"{'ratio python / analyze, 1 thread':34s} {python_s / cli1_s:8.2f}x   (target >= 8)")
print(f"{'ratio python / analyze, 2 threads':34s} {python_s / cli2_s:8.2f}x   (target >= 8)")
PY
}

measure() {
  local title="$1" plain="$2" zstd="$3"
  echo
  echo "== $title: $(basename "$plain"), $(du -h "$plain" | cut -f1) plain, $(du -h "$zstd" | cut -f1) zstd"
  "$bench" "$plain" --zstd "$zstd" --repeat "$repeat" | tee "$out/ingest.txt"
  compare_cli "$plain" "$zstd" "$out/ingest.txt"
}

if [[ $large -eq 1 ]]; then
  generate large --preset large
  measure "generated large log (stages of 110,000 tasks)" "$(ls "$out"/large/plain/*)" "$(ls "$out"/large/zstd/*)"
fi

generate benchmark --preset benchmark --scale 11
measure "generated benchmark log" "$(ls "$out"/benchmark/plain/*)" "$(ls "$out"/benchmark/zstd/*)"

# The two largest real logs of the corpus, by uncompressed size (36.6 and 35.5 MB; the corpus's
# biggest file, codecs/application_1603128018386_7846.lz4, is the first of them in lz4).
real="$corpus/NVIDIA__spark-rapids-tools/core/src/test/resources/spark-events-profiling"
if [[ -d "$real" ]]; then
  for name in tasks_executors_fail_compressed_eventlog gpu_oom_eventlog; do
    mkdir -p "$out/corpus"
    [[ -f "$out/corpus/$name" ]] || zstd -q -dc "$real/$name.zstd" > "$out/corpus/$name"
    measure "corpus log" "$out/corpus/$name" "$real/$name.zstd"
  done
else
  echo
  echo "== corpus logs skipped: $corpus not found (set SF_CORPUS_DIR)"
fi

echo
echo "== compare: execution alignment and two ~1 GB logs end to end"
"$here/compare.sh" "$build" "$repeat"

echo
echo "== serve beside Spark's History Server on the first of those ~1 GB logs"
"$here/serve.sh" "$build"

echo
echo "== the dashboard in chromium on the same log"
"$here/dashboard.sh" "$build"
