"""A plan-heavy event log written by real Spark, for measuring how SQL plans are read.

    .venv/bin/python bench/spark_plan_log.py --out DIR [--queries 120] [--columns 80]

Runs `--queries` SQL queries on local[2] with adaptive execution on, each joining four wide
views (`--columns` columns each) with aggregations and CASE expressions over every column, so
that most of the log's bytes are plans: each execution's physical plan description and plan
tree at its start, and again in every adaptive update. The data is tiny; the queries finish in
well under a second each. Prints the log's path. A benchmark input, not a test.
"""

from __future__ import annotations

import argparse
import glob
import os
import sys


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", required=True, help="directory for the event log")
    parser.add_argument("--queries", type=int, default=120)
    parser.add_argument("--columns", type=int, default=80)
    args = parser.parse_args()
    os.makedirs(args.out, exist_ok=True)

    from pyspark.sql import SparkSession

    spark = (SparkSession.builder.master("local[2]").appName("sf-plan-heavy")
             .config("spark.eventLog.enabled", "true")
             .config("spark.eventLog.dir", os.path.abspath(args.out))
             .config("spark.ui.enabled", "false")
             .config("spark.ui.showConsoleProgress", "false")
             .config("spark.sql.adaptive.enabled", "true")
             .config("spark.sql.autoBroadcastJoinThreshold", "-1")  # sort-merge joins: larger plans
             .config("spark.sql.shuffle.partitions", "4")
             .config("spark.log.level", "ERROR")
             .getOrCreate())
    columns = [f"c{i}" for i in range(args.columns)]
    for v in range(4):
        spark.range(2000).selectExpr("id as k", *[f"(id * {i + v + 1}) % 97 as {c}" for i, c in enumerate(columns)]) \
            .createOrReplaceTempView(f"v{v}")
    aggregates = ", ".join(
        f"sum(case when a.{c} > b.{c} then c.{c} else d.{c} end) as s_{c}" for c in columns)
    for q in range(args.queries):
        spark.sql(f"""
            select a.k % {q + 2} as g, {aggregates}
            from v0 a join v1 b on a.k = b.k join v2 c on b.k = c.k join v3 d on c.k = d.k
            where a.c0 >= {q % 50}
            group by a.k % {q + 2}
        """).collect()
    app_id = spark.sparkContext.applicationId
    spark.stop()
    logs = glob.glob(os.path.join(args.out, "*" + app_id + "*"))  # Spark 4 writes eventlog_v2_<id>/
    if not logs:
        print(f"spark_plan_log: no event log of {app_id} in {args.out}", file=sys.stderr)
        return 1
    print(logs[0])
    return 0


if __name__ == "__main__":
    sys.exit(main())
