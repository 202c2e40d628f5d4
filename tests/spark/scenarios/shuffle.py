"""Shuffles cut into too few partitions (docs/detectors/shuffle.md).

The other shuffle finding, `shuffle` (time the tasks spent waiting for blocks and writing their
own), has no scenario: on one machine a fetch crosses the loopback device and local mode reads
every block from its own disk, so real Spark measures no fetch wait here (0 ms in every run of
these scenarios) and writing 1.3 GiB took 12% of the map tasks' run time, under the 25% the
finding needs. Its unit tests (tests/unit/analysis/shuffle_test.cpp) and the corpus hold it.
"""
from pyspark.sql import functions as F

from scenario import Expectation, Scenario, problem_job, register, waits


def _enrich_by_key(spark, fixed):
    # 6 million events with two 128-character payloads, repartitioned by key before per-row work
    # that waits on every hundredth key (a lookup in an outside service): 1.25 GiB of shuffle.
    # With spark.sql.shuffle.partitions=4 the 8 task slots run 4 tasks of 320 MiB each; adaptive
    # execution merges small partitions but never splits big ones outside joins.
    events = spark.range(0, 6_000_000, 1, 8).select(
        (F.col("id") * 2654435761 % 1000003).alias("k"),
        F.sha2(F.col("id").cast("string"), 512).alias("a"), F.sha2((F.col("id") + 1).cast("string"), 512).alias("b"))
    problem_job(spark, "events repartitioned by key before per-row work")
    events.repartition("k") \
        .select(waits(F.col("k") % 100 == 0).alias("w"), (F.length("a") + F.length("b")).alias("payload")) \
        .agg(F.sum("w"), F.sum("payload")).collect()


register(Scenario(
    name="shuffle_too_few_partitions",
    family="shuffle",
    planted="spark.sql.shuffle.partitions=4 cuts a 1.25 GiB shuffle into four 320 MiB partitions on 8 task slots",
    workload=_enrich_by_key,
    master="local[8]",
    settings={"spark.sql.shuffle.partitions": "4"},
    # analyze: 11 partitions of 128 MiB, rounded up to whole waves of the 8 slots; adaptive
    # execution told the same size, so that it does not merge them back.
    fix_settings={"spark.sql.shuffle.partitions": "16", "spark.sql.adaptive.advisoryPartitionSizeInBytes": "128m"},
    expect=Expectation(finding="partitionSizing", rule="lowShuffleParallelism",
                       settings={"spark.sql.shuffle.partitions": "16",
                                 "spark.sql.adaptive.advisoryPartitionSizeInBytes": "128m"}),
))
