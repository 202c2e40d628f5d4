#!/usr/bin/env bash
# NVIDIA's profiling tool for bench/nvidia.sh: .venv-nvidia at the top of the tree with exactly the
# two packages of bench/nvidia/requirements.lock (pip --no-deps --require-hashes: every hash checked,
# none of their dependencies), made again only when the lock changed. Java 17 for Spark 3.5.
# Usage: bench/nvidia/install.sh     prints nothing when all is there; then the two paths the
#                                    profiler needs, one a line: the tools jar, pyspark's jars dir
set -euo pipefail
cd "$(dirname "$0")/../.."
lock=bench/nvidia/requirements.lock
venv=.venv-nvidia

if ! command -v java >/dev/null || ! java -version 2>&1 | grep -qE 'version "(17|21)'; then
  scripts/install-deps.sh openjdk-17-jre-headless >&2
fi
command -v python3 >/dev/null || scripts/install-deps.sh python3 >&2
python3 -c 'import venv, ensurepip' 2>/dev/null || scripts/install-deps.sh python3-venv >&2

stamp="$venv/.requirements.lock.sha256"
wanted=$(sha256sum "$lock" | cut -d' ' -f1)
if [[ ! -x "$venv/bin/python" || ! -f "$stamp" || "$(cat "$stamp")" != "$wanted" ]]; then
  echo "nvidia/install.sh: creating $venv from $lock (~320 MB of pyspark 3.5)" >&2
  rm -rf "$venv"
  python3 -m venv "$venv"
  log=$(mktemp)
  "$venv/bin/python" -m pip install --quiet --disable-pip-version-check --no-input --no-deps \
    --require-hashes -r "$lock" >"$log" 2>&1 || { cat "$log" >&2; rm -f "$log"; exit 1; }
  rm -f "$log"
  echo "$wanted" >"$stamp"
fi

site=$("$venv/bin/python" -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])')
jar=$(ls "$site"/spark_rapids_pytools/resources/generated_files/core/jars/rapids-4-spark-tools_2.12-*.jar)
jars="$site/pyspark/jars"
[[ -f "$jar" && -f "$(ls "$jars"/spark-core_2.12-*.jar)" ]] || { echo "nvidia/install.sh: no jar in $venv" >&2; exit 1; }
echo "$jar"
echo "$jars"
