"""Caching: a DataFrame recomputed by every action that uses it, a cache used once, and a cache
used as it should be (docs/detectors/caching.md)."""
from pyspark import StorageLevel
from pyspark.sql import functions as F

from scenario import Expectation, Scenario, other_job, problem_job, register


def _digests(spark, rows):
    # A CPU-heavy derivation: a chain of digests per row, the work a cache keeps.
    digest = F.col("id").cast("string")
    for _ in range(6):
        digest = F.sha2(digest, 256)
    return spark.range(0, rows, numPartitions=4).select((F.col("id") % 500).alias("k"), digest.alias("h"))


def _expensive_totals(spark):
    # 900,000 rows: with 300,000 each recomputation cost ~0.25 s on a fast host, and what a cache
    # saves fell under significance.minMs (0.5 s) in two rounds of three.
    return _digests(spark, 900_000).groupBy("k").agg(F.sum(F.crc32("h")).alias("n"))


def _recomputed_lineage(spark, fixed):
    totals = _expensive_totals(spark)
    if fixed:
        totals = totals.cache()
    other_job(spark, "the first use of the totals")
    totals.agg(F.sum("n")).collect()
    # The later actions compute the totals again from the range unless they are cached. Each
    # reads the same columns, so each plan holds the same subtree.
    problem_job(spark, "later uses of the totals")
    totals.where(F.col("n") % 3 == 0).count()
    totals.orderBy(F.col("n").desc()).limit(5).collect()


register(Scenario(
    name="recomputed_lineage",
    family="caching",
    planted="an expensive aggregate is used by three actions and computed from its input by each of them",
    workload=_recomputed_lineage,
    # Eight partitions after the aggregation's shuffle: a cached plan keeps its partitioning (AQE
    # does not coalesce it), and 200 tiny tasks per read would be a problem of its own.
    settings={"spark.sql.shuffle.partitions": "8"},
    fix_code="totals.cache() before the first action",
    expect=Expectation(finding="cachingOpportunity", rule="recomputed", recommendation_mentions=("cache()",)),
))


def _single_use_cache(spark, fixed):
    rows = _digests(spark, 150_000)
    if not fixed:
        rows = rows.persist(StorageLevel.MEMORY_AND_DISK)
    problem_job(spark, "the only use of a persisted DataFrame")
    rows.groupBy("k").agg(F.sum(F.crc32("h"))).collect()


register(Scenario(
    name="single_use_cache",
    family="caching",
    planted="a DataFrame persisted MEMORY_AND_DISK is used by one action only",
    workload=_single_use_cache,
    fix_code="the persist() removed",
    expect=Expectation(finding="cacheUtilization", rule="singleUse", tier="count",
                       recommendation_mentions=("unpersist", "persist")),
))


def _cache_reused(spark, fixed):
    rows = _digests(spark, 300_000).cache()
    other_job(spark, "two aggregations of one cached DataFrame")
    rows.groupBy("k").agg(F.sum(F.crc32("h"))).collect()
    rows.agg(F.max("h"), F.min("h")).collect()
    rows.unpersist()


register(Scenario(
    name="control_cache_reused",
    family="controls",
    planted="nothing: an expensively derived DataFrame is cached and read back by two aggregations",
    workload=_cache_reused,
    control=True,
))
