"""Two runs of one query whose union lists its two reads of one table in the other order:
compare must pair each read with the read of the same day's bytes, not with the stage Spark
happened to number the same (docs/compare.md, "Stages that share a key").

The table holds a large day and a small day; each branch aggregates one day, so each read is a
shuffle map stage of its own. The day in the filter is a date literal, which comparison rewrites
to one form: the two reads share one exact key, and only their place and bytes tell them apart.
Spark numbers the two reads in either order from run to run (in six rounds of both runs, the
stage ids crossed in three, with adaptive execution on or off), so whichever order each run
took, the pairs must follow the bytes. Both runs are controls: nothing in them is worth fixing.
"""
from pyspark.sql import functions as F

from scenario import Scenario, other_job, register, scratch_dir

_DAYS = {"2024-01-01": 1_500_000, "2024-01-02": 15_000}


def _union_of_days(order):
    def workload(spark, fixed):
        with scratch_dir("union-of-days") as path:
            other_job(spark, "writing a large and a small day")
            # v is unique per row, so the large day's file is large (a key column alone would
            # compress to a few KiB whatever the rows).
            days = [spark.range(0, rows).select(F.lit(day).cast("date").alias("day"), (F.col("id") % 1_000).alias("k"),
                                                (F.col("id") * 7919).alias("v"))
                    for day, rows in _DAYS.items()]
            days[0].unionByName(days[1]).write.partitionBy("day").parquet(path)
            other_job(spark, "counting each day's keys")
            table = spark.read.parquet(path)
            per_day = [table.where(F.col("day") == F.lit(day).cast("date")).groupBy("k").agg(F.sum("v").alias("v"))
                       for day in order]
            per_day[0].unionByName(per_day[1]).agg(F.sum("v")).collect()
    return workload


for name, order in (("control_union_large_day_first", list(_DAYS)),
                    ("control_union_small_day_first", list(reversed(_DAYS)))):
    register(Scenario(
        name=name,
        family="compare",
        planted="nothing: a union of two days' aggregations, read in the order " + " then ".join(order),
        workload=_union_of_days(order),
        settings={"spark.sql.shuffle.partitions": "2"},
        control=True,
    ))
