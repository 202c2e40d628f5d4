"""Skew, too few partitions and tiny tasks (docs/detectors/task_distribution.md, shuffle.md)."""
from pyspark.sql import functions as F

from scenario import Expectation, Scenario, problem_job, register


def _tiny_tasks(spark, fixed):
    rows = spark.range(0, 200_000).select((F.col("id") % 5000).alias("k"), F.col("id").alias("v"))
    problem_job(spark, "an aggregation into thousands of partitions")
    for _ in range(2):
        rows.groupBy("k").agg(F.sum("v")).collect()


register(Scenario(
    name="tiny_tasks",
    family="task_distribution",
    planted="1500 shuffle partitions for 200k rows, with adaptive coalescing off: thousands of ~10 ms tasks",
    workload=_tiny_tasks,
    settings={"spark.sql.shuffle.partitions": "1500", "spark.sql.adaptive.coalescePartitions.enabled": "false"},
    fix_settings={"spark.sql.adaptive.coalescePartitions.enabled": "true"},
    expect=Expectation(finding="tinyTask", settings={"spark.sql.adaptive.coalescePartitions.enabled": "true"}),
))
