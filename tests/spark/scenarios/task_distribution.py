"""Skew, too few partitions and tiny tasks (docs/detectors/task_distribution.md, shuffle.md)."""
from pyspark.sql import functions as F

from scenario import Expectation, Scenario, problem_job, register, waits


def _skewed_join(spark, fixed):
    # 60% of the fact rows share key 0: one reduce task of the join gets them all, and with them
    # 60% of the per-row work after the join.
    facts = spark.range(0, 2_000_000).select(
        F.when(F.col("id") % 10 < 6, F.lit(0)).otherwise(F.col("id") % 200_000).alias("key"),
        (F.col("id") * 7 % 1000).alias("amount"))
    dims = spark.range(0, 200_000).select(F.col("id").alias("key"), (F.col("id") % 50).alias("segment"))
    problem_job(spark, "a join on a skewed key")
    joined = facts.join(dims, "key")
    joined.select("segment", "amount", waits((F.col("amount") + F.col("segment")) % 400 == 0).alias("w")) \
        .groupBy("segment").agg(F.sum("amount"), F.sum("w")).collect()


register(Scenario(
    name="skew_join_key",
    family="task_distribution",
    planted="60% of a join's rows share one key and adaptive execution's skew-join split is off",
    workload=_skewed_join,
    master="local[8]",
    settings={"spark.sql.autoBroadcastJoinThreshold": "-1", "spark.sql.adaptive.skewJoin.enabled": "false",
              "spark.sql.shuffle.partitions": "16"},
    # What analyze suggests for a 4.7 MiB partition 4.3x the median: the split on, a factor under
    # 4.3, a threshold and a target size under the partition (Spark's 256 MiB and 64 MiB are for
    # big data).
    fix_settings={"spark.sql.adaptive.skewJoin.enabled": "true",
                  "spark.sql.adaptive.skewJoin.skewedPartitionFactor": "3",
                  "spark.sql.adaptive.skewJoin.skewedPartitionThresholdInBytes": "2m",
                  "spark.sql.adaptive.advisoryPartitionSizeInBytes": "1m"},
    expect=Expectation(finding="skew", settings={"spark.sql.adaptive.skewJoin.enabled": "true",
                                                 "spark.sql.adaptive.skewJoin.skewedPartitionFactor": "3",
                                                 "spark.sql.adaptive.skewJoin.skewedPartitionThresholdInBytes": "2m",
                                                 "spark.sql.adaptive.advisoryPartitionSizeInBytes": "1m"}),
))


def _one_partition(spark, fixed):
    rows = spark.range(0, 1_000_000, numPartitions=8).select(F.col("id"), (F.col("id") * 31 % 977).alias("v"))
    # The problem: an explicit repartition(1) funnels every row through one task of eight slots.
    shaped = rows.repartition(16 if fixed else 1)
    problem_job(spark, "work after repartition(n)")
    shaped.select(F.col("v"), waits(F.col("v") % 250 == 0).alias("w")).agg(F.sum("v"), F.sum("w")).collect()


register(Scenario(
    name="repartition_too_few",
    family="task_distribution",
    planted="an explicit repartition(1) before the per-row work leaves seven of eight task slots idle",
    workload=_one_partition,
    master="local[8]",
    fix_code="repartition(16) instead of repartition(1), the count analyze suggests for 8 slots",
    expect=Expectation(finding="stageShape", rule="lowParallelism", recommendation_mentions=("repartition(16)",)),
))


LAST_WAVE_PARTITIONS = 10    # on 8 slots: a wave of 8, then 2 alone
LAST_WAVE_TASK_ROWS = 6000   # about 6 s a task: one 1 ms wait a row


def _long_last_wave(spark, fixed):
    rows = spark.range(0, LAST_WAVE_PARTITIONS * LAST_WAVE_TASK_ROWS, numPartitions=8)
    # The problem: repartition(10) on 8 slots. Its even, long tasks run in one full wave and a
    # second of two, which the other six slots wait out.
    shaped = rows.repartition(4 * LAST_WAVE_PARTITIONS if fixed else LAST_WAVE_PARTITIONS)
    problem_job(spark, "long tasks, a few more than the slots")
    shaped.select(waits(F.lit(True)).alias("w")).agg(F.sum("w")).collect()


register(Scenario(
    name="long_last_wave",
    family="task_distribution",
    planted=f"repartition({LAST_WAVE_PARTITIONS}) of even 6 s tasks on 8 slots: the last 2 run alone for a wave",
    workload=_long_last_wave,
    master="local[8]",
    fix_code=f"repartition({4 * LAST_WAVE_PARTITIONS}): the smaller tasks analyze suggests (4 ways)",
    expect=Expectation(finding="stageShape", rule="longLastWave",
                       recommendation_mentions=(f"repartition({4 * LAST_WAVE_PARTITIONS})",)),
))


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
