#!/usr/bin/env bash
# Prints the stamp of what writes the scenario logs: the scenarios, their runner, the Spark Connect
# client and the Spark
# version (not the assertions). tests/spark/run.sh keeps it in the logs' directory as .stamp once
# they are all written; a directory whose .stamp equals this is complete and current.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
cat "$here/scenario.py" "$here/run_scenarios.py" "$here/standalone.py" "$here/connect_client.py" "$here"/scenarios/*.py \
  "$root/python/requirements.lock" | sha256sum | cut -d' ' -f1
