#!/usr/bin/env bash
# make bench-fleet: the fleet job (python -m sparkforensics.fleet's run) on local-cluster Spark,
# with 1 and then 2 executors, over many small logs and a few large ones made by sf-loggen.
# Prints logs/s, MB/s (as stored, and uncompressed), the speed-up from 1 to 2 executors, and
# each executor's peak RSS (its JVM, its Python workers) next to the largest log's size: an
# executor's memory should follow the largest log, not the directory. A benchmark, not a test:
# nothing is asserted about time.
#
# Usage: bench/fleet.sh BUILD_DIR
#   SF_FLEET_SMALL_LOGS  small logs (default 10000): --preset small, zstd, ~2.2 MB uncompressed each
#   SF_FLEET_LARGE_LOGS  large logs (default 10): --preset benchmark --scale SF_FLEET_LARGE_SCALE, zstd
#   SF_FLEET_LARGE_SCALE (default 2: ~36 MB uncompressed, ~2.5 MB stored each)
# Time: each small log costs an executor ~0.05 s and the driver ~0.025 s (its ingest into the
# store, one log at a time), so 10,000 small logs take tens of minutes on 2 shared cores;
# SF_FLEET_SMALL_LOGS=1000 makes the whole bench ~8 minutes there (docs/fleet.md).
# The logs are kept in BUILD_DIR/bench-fleet/logs-* and made again only when their count changes.
set -euo pipefail
build=${1:?usage: bench/fleet.sh BUILD_DIR}
root=$(cd "$(dirname "$0")/.." && pwd)
build=$(cd "$build" && pwd)
python=${SF_PYTHON:-$root/.venv/bin/python}
loggen=$build/bench/loggen/sf-loggen
small_logs=${SF_FLEET_SMALL_LOGS:-10000}
large_logs=${SF_FLEET_LARGE_LOGS:-10}
large_scale=${SF_FLEET_LARGE_SCALE:-2}
work=$build/bench-fleet
[[ -x $loggen ]] || { echo "bench-fleet: $loggen is not built" >&2; exit 1; }
[[ -f $build/python/sparkforensics/__init__.py ]] || { echo "bench-fleet: the Python package is not built in $build/python (make python-deps, then build)" >&2; exit 1; }
"$python" -c 'import pyspark' 2>/dev/null || { echo "bench-fleet: $python has no pyspark (make python-deps)" >&2; exit 1; }
command -v java >/dev/null || { echo "bench-fleet: java is not installed (scripts/install-python.sh)" >&2; exit 1; }
mkdir -p "$work"

# generate NAME COUNT FIRST_SEED LOGGEN_FLAGS...: COUNT logs (seeds FIRST_SEED...), two at a time,
# and NAME.tsv: path, uncompressed bytes, stored bytes, from sf-loggen's own report.
generate() {
  local name=$1 count=$2 first=$3
  shift 3
  local dir=$work/logs-$name
  if [[ -f $work/$name.tsv && $(wc -l < "$work/$name.tsv") -eq $count && $(ls "$dir" | wc -l) -eq $count ]]; then
    echo "== $count $name logs already in $dir"
    return
  fi
  rm -rf "$dir" "$work/$name.tsv"
  mkdir -p "$dir"
  local started=$SECONDS
  seq "$first" $((first + count - 1)) | xargs -P 2 -I{} "$loggen" "$@" --seed {} --out "$dir" 2>&1 >/dev/null \
    | sed -n 's/^sf-loggen: wrote \(.*\) ([0-9]* parts\{0,1\}, [0-9]* lines, \([0-9]*\) bytes, \([0-9]*\) stored).*/\1\t\2\t\3/p' \
    > "$work/$name.tsv"
  local made
  made=$(ls "$dir" | wc -l)
  if [[ $made -ne $count || $(wc -l < "$work/$name.tsv") -ne $count ]]; then
    echo "bench-fleet: sf-loggen made $made $name logs ($(wc -l < "$work/$name.tsv") reported), expected $count" >&2
    exit 1
  fi
  echo "== $count $name logs in $dir ($(du -sh "$dir" | cut -f1) stored), made in $((SECONDS - started)) s"
}

generate small "$small_logs" 1 --preset small --codec zstd
generate large "$large_logs" 1 --preset benchmark --scale "$large_scale" --codec zstd

export PYTHONPATH=$build/python PYSPARK_PYTHON=$python
for name in small large; do
  declare -A seconds=()
  for executors in 1 2; do
    out=$("$python" "$root/bench/fleet_bench.py" --logs "$work/logs-$name" --sizes "$work/$name.tsv" \
          --executors "$executors" --work "$work/run-$name-$executors" --label "$name logs" 2> "$work/run-$name-$executors.log") \
      || { tail -20 "$work/run-$name-$executors.log" >&2; exit 1; }
    echo "$out" | head -n -1
    seconds[$executors]=$(echo "$out" | tail -n 1 | "$python" -c 'import json,sys; print(json.load(sys.stdin)["seconds"])')
  done
  "$python" -c "print(f'$name logs: speed-up from 1 to 2 executors {${seconds[1]} / ${seconds[2]}:.2f}x')"
  unset seconds
done
