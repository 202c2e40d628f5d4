#!/usr/bin/env bash
# ctest's history_server_oracle: serve against Spark's own History Server on the same logs (the
# shared corpus, plus the logs the real-Spark scenarios wrote: SF_SPARK_SCENARIO_LOGS, else
# SCENARIO_LOGS, when they are complete and current), every endpoint and query form compared by
# pytest, then the real clients (spark-history-cli, kubeflow's MCP server, and Spark's own UI
# JavaScript in chromium) against both; prints the match counts per endpoint.
# Usage: tests/history_server/run.sh SPARKFORENSICS WORK [SCENARIO_LOGS]
# Exit 77 (skipped, with the reason) without the project's Python environment, Java or the corpus:
# make test and CI make the first two (scripts/install-python.sh).
set -uo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
python="$root/.venv/bin/python"
corpus="${SF_CORPUS_DIR:-$root/../shared/corpus}"
if [[ ! -x "$python" ]] || ! "$python" -c 'import pyspark, pytest' 2>/dev/null; then
  echo "skipped: no History Server: $root/.venv has no pyspark (scripts/install-python.sh makes it)"
  exit 77
fi
if ! command -v java >/dev/null; then
  echo "skipped: no History Server: java is not installed (scripts/install-python.sh installs it)"
  exit 77
fi
if [[ ! -f "$corpus/corpus-index.json" ]]; then
  echo "skipped: no logs to compare on: $corpus/corpus-index.json not found (set SF_CORPUS_DIR)"
  exit 77
fi
# The scenario logs only when they are all written and current (their .stamp, tests/spark/run.sh):
# never while spark_scenarios may be writing them. In CI that is the sanitized suite's run: the
# first suite's oracle starts beside spark_scenarios, before the logs exist.
scenario_logs=""
wanted_scenario_logs="${SF_SPARK_SCENARIO_LOGS:-${3:-}}"
if [[ -n "$wanted_scenario_logs" ]]; then
  if [[ -f "$wanted_scenario_logs/manifest.json" \
        && "$(cat "$wanted_scenario_logs/.stamp" 2>/dev/null)" == "$("$root/tests/spark/logs_stamp.sh")" ]]; then
    scenario_logs="$wanted_scenario_logs"
  else
    echo "history_server_oracle: the corpus only: no complete, current scenario logs in $wanted_scenario_logs (spark_scenarios writes them)"
  fi
fi
pyspark_home="$("$python" -c 'import os, pyspark; print(os.path.dirname(pyspark.__file__))')"
cd "$here" && SF_BIN="$1" SF_ORACLE_WORK="$2" SF_CORPUS_DIR="$corpus" SF_PYSPARK_HOME="$pyspark_home" \
  SF_SPARK_SCENARIO_LOGS="$scenario_logs" "$python" -m pytest -q -rs --durations=5 -p no:cacheprovider "$here"
