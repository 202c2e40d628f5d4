"""Runs a Spark Connect client against a local Connect server (pyspark's remote("local[2]"))
and writes the server's event log, for test_connect.py.

    .venv/bin/python tests/spark/connect_client.py --out DIR

The client sends what a notebook or a service would: a tagged DataFrame query of two jobs, a SQL
query, and a SQL query that fails in analysis. DIR/connect.json names the log and what the client
knows of each operation (its kind and tags), which the test holds the analysis to.
"""
from __future__ import annotations

import argparse
import glob
import json
import os
import sys

from scenario import BASE_SETTINGS

TAG = "nightly-report"
FAILING_SQL = "select * from no_such_table"


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", required=True)
    args = parser.parse_args()
    log_dir = os.path.abspath(os.path.join(args.out, "log"))
    os.makedirs(log_dir, exist_ok=True)
    os.environ.setdefault("SPARK_LOCAL_IP", "127.0.0.1")
    os.environ["PYSPARK_PYTHON"] = sys.executable  # the workers on the driver's .venv, as run_scenarios.py
    from pyspark.sql import SparkSession

    builder = SparkSession.builder.remote("local[2]").appName("connect_session")
    for key, value in {**BASE_SETTINGS, "spark.eventLog.dir": "file://" + log_dir}.items():
        builder = builder.config(key, value)
    spark = builder.getOrCreate()
    try:
        spark.addTag(TAG)
        rows = spark.range(0, 2_000_000).selectExpr("id % 100 as k", "id as v").groupBy("k").count().orderBy("k")
        top = rows.limit(3).collect()
        spark.removeTag(TAG)
        total = spark.sql("select sum(id) as s from range(1000000)").collect()
        failed = False
        try:
            spark.sql(FAILING_SQL).collect()
        except Exception:  # noqa: BLE001 - the failure is the point
            failed = True
    finally:
        spark.stop()
    logs = sorted(glob.glob(os.path.join(log_dir, "*")))
    if len(logs) != 1 or len(top) != 3 or total[0]["s"] != 499999500000 or not failed:
        print(f"connect_client: unexpected run: logs {logs}, rows {top}, total {total}, failed {failed}",
              file=sys.stderr)
        return 1
    with open(os.path.join(args.out, "connect.json"), "w") as f:
        json.dump({"log": logs[0], "tag": TAG, "failingSql": FAILING_SQL}, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    sys.exit(main())
