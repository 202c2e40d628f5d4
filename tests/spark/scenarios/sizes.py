"""One job at three cluster sizes: the what-if simulation (docs/economics.md) of the smallest run
predicts the wall-clock of the larger ones (test_sizes.py asserts what holds whatever the timing;
validate.py measures the predictions).

The tasks mostly wait (1 ms sleeps on chosen rows, `waits`) rather than compute: the machines this
runs on have two cores, so eight task slots only behave as eight cores when the tasks do not need
the CPU. The simulation does not model tasks slowing down when more of them share a host (it
replays the measured durations), so a CPU-bound job on more slots than cores would measure the
host, not the scheduler."""
import time

from pyspark.sql import functions as F

from scenario import Scenario, other_job, register, waits


def _uneven_waves(spark, fixed):
    # 48 map tasks of 1,000 rows; task p waits on 100 + 40 x (p mod 8) of them: 0.1 to 0.4 s, so
    # how the tasks pack into waves depends on the number of slots.
    rows = spark.range(0, 48_000, 1, numPartitions=48)
    partition = F.floor(F.col("id") / 1000)
    other_job(spark, "uneven map tasks, then a small reduce")
    rows.select((F.col("id") % 16).alias("k"),
                waits(F.col("id") % 1000 < 100 + 40 * (partition % 8)).alias("w")) \
        .groupBy("k").agg(F.sum("w")).collect()
    # The driver works alone for a moment: time no executor count changes.
    time.sleep(0.5)
    # 16 even tasks of about 0.2 s: a second job after the first.
    other_job(spark, "even tasks")
    spark.range(0, 16_000, 1, numPartitions=16).select(waits(F.col("id") % 1000 < 200).alias("w")) \
        .agg(F.sum("w")).collect()


register(Scenario(
    name="sizes_uneven_waves",
    family="economics",
    planted="nothing: one job run with 2, 4 and 8 task slots",
    workload=_uneven_waves,
    sizes=("local[2]", "local[4]", "local[8]"),
    settings={"spark.sql.shuffle.partitions": "4", "spark.sql.adaptive.enabled": "false"},
))
