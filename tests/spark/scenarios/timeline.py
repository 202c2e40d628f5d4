"""Where the application's time goes outside the stages (docs/detectors/timeline.md)."""
import hashlib

from pyspark.sql import functions as F

from scenario import Expectation, Scenario, problem_job, register


def _driver_loop(spark, fixed):
    rows = spark.range(0, 600_000).select((F.col("id") % 6).alias("k"), F.col("id").alias("v"))
    problem_job(spark, "results processed on the driver between small jobs")
    if fixed:
        # The same digest sums, computed by Spark in one job.
        rows.groupBy("k").agg(F.sum(F.conv(F.substring(F.sha2(F.col("v").cast("string"), 256), 1, 8), 16, 10)
                                    .cast("long"))).collect()
        return
    for k in range(6):
        got = rows.filter(F.col("k") == k).collect()
        # Work in the driver's Python on every collected row, before the next job starts.
        sum(int(hashlib.sha256(str(r.v).encode()).hexdigest()[:8], 16) for r in got)


register(Scenario(
    name="driver_side_loop",
    family="timeline",
    planted="six small jobs each collect rows that the driver then digests in Python, one after another",
    workload=_driver_loop,
    fix_code="the per-row work done by Spark in one aggregation instead of on collected rows",
    expect=Expectation(finding="driverTime", recommendation_mentions=("in Spark",)),
))
