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


def _newest_event_per_user(spark, fixed):
    # 3 million events of 40 users; the newest event of each user. The problem collects every
    # event of a group into a list and sorts it to pick the last one: ObjectHashAggregate keeps
    # each value as a JVM object until its group is done, and with 40 groups (under its 128-key
    # fallback to sorting) every list lives until the task ends, so young collections copy them
    # again and again. On real Spark a 512 MiB and a 1 GiB heap gave the same share of GC: no
    # full collection ran. The twin asks for the same thing with an aggregate that keeps no list.
    events = spark.range(0, 3_000_000, 1, 2).select(
        (F.col("id") % 40).alias("user"), (F.col("id") * 7919 % 1000003).alias("ts"),
        F.concat(F.lit("event-"), (F.col("id") % 977).cast("string")).alias("event"))
    problem_job(spark, "the newest event of each user, from a sorted list of all of them")
    if fixed:
        newest = events.groupBy("user").agg(F.max_by("event", "ts").alias("newest"))
    else:
        newest = events.groupBy("user").agg(
            F.element_at(F.array_sort(F.collect_list(F.struct("ts", "event"))), -1).getField("event").alias("newest"))
    newest.write.format("noop").mode("overwrite").save()


register(Scenario(
    name="gc_collected_lists",
    family="memory",
    planted="the newest event of each of 40 users picked from a sorted collect_list of all their events: "
            "millions of JVM objects held until each task ends, copied by every young collection",
    workload=_newest_event_per_user,
    settings={"spark.sql.shuffle.partitions": "2", "spark.driver.memory": "1g"},
    fix_code="max_by(event, ts) instead of sorting a collect_list",
    # analyze: no full collection ran, so no bigger heap; the aggregate that holds the objects is
    # named, with the aggregates that keep no list.
    expect=Expectation(finding="gc", recommendation_mentions=("collect_list", "max_by")),
))
