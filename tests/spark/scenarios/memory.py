"""Spill and garbage collection (docs/detectors/memory.md)."""
from pyspark.sql import functions as F

from scenario import Expectation, Scenario, problem_job, register


def _spilling_sort(spark, fixed):
    rows = spark.range(0, 6_000_000).select(
        (F.col("id") * 2654435761 % 1000003).alias("k"), F.sha2(F.col("id").cast("string"), 256).alias("payload"))
    problem_job(spark, "a sort of big partitions")
    # A sort whose output is written (to Spark's no-op sink) is kept; one feeding an aggregate is not.
    rows.sort("k").write.format("noop").mode("overwrite").save()


register(Scenario(
    name="spill_big_partitions",
    family="memory",
    planted="a sort over two shuffle partitions of ~300 MB each with a small execution memory share spills",
    workload=_spilling_sort,
    settings={"spark.sql.shuffle.partitions": "2", "spark.sql.adaptive.enabled": "false",
              "spark.memory.fraction": "0.2"},
    # analyze: split 10 ways (64 MiB held, 240 MiB spilled per task, as much again for pages).
    fix_settings={"spark.sql.shuffle.partitions": "20"},
    expect=Expectation(finding="spill", settings={"spark.sql.shuffle.partitions": "20"}),
))
