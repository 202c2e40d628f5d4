"""One job at four cluster sizes: the what-if simulation (docs/economics.md) of the smallest run
predicts the wall-clock of the larger ones (test_sizes.py asserts what holds whatever the timing;
validate.py measures the predictions).

The tasks wait (20 ms sleeps on a few of their 100 rows) rather than compute: the machines this
runs on have two cores, so eight task slots only behave as eight cores when the tasks hardly need
the CPU. The simulation does not model tasks slowing down when more of them share a host (it
replays the measured durations), so a CPU-bound job on more slots than cores would measure the
host, not the scheduler. (With `waits`' 1 ms sleeps on up to 400 rows of 1,000, the tasks' run
time grew by half from 2 to 8 slots on a loaded two-core machine.)"""
import time

from pyspark.sql import functions as F

from scenario import Scenario, other_job, register


def _sleeps(condition):
    """1 on rows where `condition` holds, after sleeping 20 ms there; 0 elsewhere."""
    return F.when(condition, F.expr("reflect('java.lang.Thread', 'sleep', cast(20 as bigint))").isNull().cast("int")) \
        .otherwise(F.lit(0))


def _uneven_waves(spark, fixed):
    # 48 map tasks of 100 rows; task p sleeps on 5 + 2 x (p mod 8) of them: 0.1 to 0.38 s, so how
    # the tasks pack into waves depends on the number of slots.
    rows = spark.range(0, 4_800, 1, numPartitions=48)
    partition = F.floor(F.col("id") / 100)
    other_job(spark, "uneven map tasks, then a small reduce")
    rows.select((F.col("id") % 16).alias("k"), _sleeps(F.col("id") % 100 < 5 + 2 * (partition % 8)).alias("w")) \
        .groupBy("k").agg(F.sum("w")).collect()
    # The driver works alone for a moment: time no executor count changes.
    time.sleep(0.5)
    # 16 even tasks of about 0.2 s: a second job after the first.
    other_job(spark, "even tasks")
    spark.range(0, 1_600, 1, numPartitions=16).select(_sleeps(F.col("id") % 100 < 10).alias("w")) \
        .agg(F.sum("w")).collect()


register(Scenario(
    name="sizes_uneven_waves",
    family="economics",
    planted="nothing: one job run with 2, 4, 6 and 8 task slots",
    workload=_uneven_waves,
    sizes=("local[2]", "local[4]", "local[6]", "local[8]"),
    settings={"spark.sql.shuffle.partitions": "4", "spark.sql.adaptive.enabled": "false"},
))
