"""Clean runs: nothing here is worth fixing, and analyze must not say otherwise."""
from pyspark.sql import functions as F

from scenario import Scenario, other_job, register


def _tuned_aggregate(spark, fixed):
    rows = spark.range(0, 3_000_000).select((F.col("id") % 10_000).alias("k"), F.col("id").alias("v"))
    other_job(spark, "a well-shaped aggregation")
    rows.groupBy("k").agg(F.sum("v"), F.count("*")).collect()


register(Scenario(
    name="control_aggregate",
    family="controls",
    planted="nothing: an aggregation with adaptive execution on and partitions sized by it",
    workload=_tuned_aggregate,
    control=True,
))
