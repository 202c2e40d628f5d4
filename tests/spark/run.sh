#!/usr/bin/env bash
# ctest's spark_scenarios: writes the scenarios' event logs with real Spark (once per change of
# the scenarios or of the Spark version: the logs are kept in OUT with a stamp of what made
# them), then runs the assertions on them with pytest.
# Usage: tests/spark/run.sh SPARKFORENSICS OUT
# SF_SPARK_SCENARIO_LOGS, when set, is where the logs are kept instead of OUT: CI's sanitized
# suite reads the logs the first suite wrote (the stamp says whether they are still current).
# Exit 77 (skipped, with the reason) when the project's Python environment is missing: make test
# and CI make it (scripts/install-python.sh).
set -uo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
sf="$1"
out="${SF_SPARK_SCENARIO_LOGS:-$2}"
python="$root/.venv/bin/python"
if [[ ! -x "$python" ]] || ! "$python" -c 'import pyspark, pytest' 2>/dev/null; then
  echo "skipped: no Spark: $root/.venv has no pyspark (scripts/install-python.sh makes it)"
  exit 77
fi
if ! command -v java >/dev/null; then
  echo "skipped: no Spark: java is not installed (scripts/install-python.sh installs it)"
  exit 77
fi

stamp=$("$here/logs_stamp.sh")
if [[ ! -f "$out/manifest.json" || "$(cat "$out/.stamp" 2>/dev/null)" != "$stamp" ]]; then
  rm -rf "$out"
  mkdir -p "$out"
  echo "spark_scenarios: running the scenarios on Spark $("$python" -c 'import pyspark; print(pyspark.__version__)')"
  if ! "$python" "$here/run_scenarios.py" --out "$out" 2>"$out/spark-stderr.txt"; then
    grep -E '^run_scenarios:|Error|Exception' "$out/spark-stderr.txt" | head -40
    exit 1
  fi
  grep '^run_scenarios:' "$out/spark-stderr.txt"
  # A Spark Connect client, in a process of its own: its server is a local SparkContext.
  if ! "$python" "$here/connect_client.py" --out "$out/connect" 2>"$out/connect-stderr.txt"; then
    grep -E '^connect_client:|Error|Exception' "$out/connect-stderr.txt" | head -20
    exit 1
  fi
  echo "$stamp" >"$out/.stamp"
fi
cd "$here" && SF_BIN="$sf" SF_SCENARIO_LOGS="$out" "$python" -m pytest -q -p no:cacheprovider "$here"
