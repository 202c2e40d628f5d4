"""SQL plan shapes that cost time (docs/detectors/sql_plans.md, python_udf.md): a Python UDF where
a builtin exists, a join kept from broadcasting by its threshold, thousands of small input files,
the same aggregate computed twice, and Spark's own runtime bloom filter (a control)."""

from pyspark.sql import functions as F
from pyspark.sql import types as T

from scenario import Expectation, Scenario, other_job, problem_job, register, scratch_dir


def _names(spark, rows):
    # Deterministic short strings: "name-<id mod 5000>".
    return spark.range(0, rows, numPartitions=4).select(
        F.concat(F.lit("name-"), (F.col("id") % 5000).cast("string")).alias("name"))


def _python_udf(spark, fixed):
    # Defined here, not at module level: cloudpickle sends a nested function by value, and the
    # Python workers cannot import this module.
    def to_upper(name):
        return name.upper()

    names = _names(spark, 300_000)
    if fixed:
        upper = F.upper(F.col("name"))
    else:
        upper = F.udf(to_upper, T.StringType())(F.col("name"))
    problem_job(spark, "upper-casing names")
    names.select(upper.alias("u")).groupBy("u").count().collect()


register(Scenario(
    name="python_udf",
    family="python_udf",
    planted="a row-at-a-time Python UDF upper-cases a column, though the builtin upper() does the same in the JVM",
    workload=_python_udf,
    fix_code="F.upper(col) instead of the Python UDF",
    expect=Expectation(finding="pythonUdf", rule="builtinExists",
                       recommendation_mentions=("pyspark.sql.functions.upper",)),
))


def _broadcast_prevented(spark, fixed):
    facts = spark.range(0, 6_000_000, numPartitions=4).select(
        (F.col("id") % 50_000).alias("k"), F.col("id").alias("v"))
    dims = spark.range(0, 50_000, numPartitions=2).select(
        F.col("id").alias("k"), F.concat(F.lit("dim-"), F.col("id").cast("string")).alias("label"))
    problem_job(spark, "facts joined to a small dimension")
    facts.join(dims, "k").groupBy("label").agg(F.sum("v")).collect()


register(Scenario(
    name="broadcast_prevented",
    family="sql_plans",
    planted="a 50k-row dimension is sort-merge joined to 6M rows because the broadcast threshold is 64 KiB",
    workload=_broadcast_prevented,
    settings={"spark.sql.autoBroadcastJoinThreshold": "64k"},
    fix_settings={"spark.sql.autoBroadcastJoinThreshold": "3m", "spark.sql.adaptive.autoBroadcastJoinThreshold": "3m"},
    expect=Expectation(finding="underBroadcast",
                       settings={"spark.sql.autoBroadcastJoinThreshold": "3m",
                                 "spark.sql.adaptive.autoBroadcastJoinThreshold": "3m"}),
))


def _small_files(spark, fixed):
    rows = spark.range(0, 240_000).select(F.col("id"), (F.col("id") % 97).alias("k"), (F.col("id") * 7).alias("v"))
    with scratch_dir("small-files") as path:
        other_job(spark, "writing the input")
        # Two writing tasks either way; the problem cuts their rows into files of 200.
        writer = rows.coalesce(2).write
        if not fixed:
            writer = writer.option("maxRecordsPerFile", 200)
        writer.parquet(path)
        problem_job(spark, "aggregating the input")
        spark.read.parquet(path).groupBy("k").agg(F.sum("v")).collect()


register(Scenario(
    name="small_files",
    family="sql_plans",
    planted="the input is 1,200 parquet files of a few KiB each",
    workload=_small_files,
    fix_code="the same rows written as 2 files (coalesce before writing)",
    expect=Expectation(finding="smallFiles", recommendation_mentions=("compact",)),
    # Writing 1,200 files is slower than writing 2, and smallFiles claims only their reading.
    measure="problem_jobs",
))


def _expensive_aggregate(spark):
    rows = spark.range(0, 1_000_000, numPartitions=4).select(
        (F.col("id") % 1000).alias("k"), F.sha2(F.col("id").cast("string"), 256).alias("h"))
    return rows.groupBy("k").agg(F.countDistinct("h").alias("n"))


def _duplicate_subtree(spark, fixed):
    totals = _expensive_aggregate(spark)
    problem_job(spark, "the aggregate joined with itself")
    left = totals.select(F.col("k"), F.col("n"))
    right = totals.select(F.col("k"), F.col("n").alias("n2"))
    left.join(right, "k").agg(F.sum(F.col("n") * F.col("n2"))).collect()


register(Scenario(
    name="duplicate_subtree",
    family="sql_plans",
    planted="a self-join of an expensive aggregate computes it twice because spark.sql.exchange.reuse is off",
    workload=_duplicate_subtree,
    settings={"spark.sql.exchange.reuse": "false"},
    fix_settings={"spark.sql.exchange.reuse": "true"},
    expect=Expectation(finding="duplicatePlanSubtree", settings={"spark.sql.exchange.reuse": "true"}),
))


def _runtime_bloom_filter(spark, fixed):
    with scratch_dir("bloom") as path:
        other_job(spark, "writing the tables")
        spark.range(0, 1_000_000, numPartitions=2).select(
            (F.col("id") % 500_000).alias("k"), F.col("id").alias("v")).write.parquet(path + "/facts")
        spark.range(0, 500_000, numPartitions=2).select(
            F.col("id").alias("k"), F.concat(F.lit("tag-"), F.col("id").cast("string")).alias("tag")) \
            .write.parquet(path + "/dims")
        facts = spark.read.parquet(path + "/facts")
        # A costly, selective predicate on a column the join does not use (1 row in 256): the
        # dimension's filtered read (Project > Filter > Scan) is most of the query's work, and the
        # bloom filter's subquery does it a second time.
        digest = F.col("tag")
        for _ in range(12):
            digest = F.sha2(digest, 256)
        dims = spark.read.parquet(path + "/dims").where(digest.startswith("00")).select("k")
        other_job(spark, "a selective join Spark filters with a runtime bloom filter")
        facts.join(dims, "k").agg(F.sum("v")).collect()


register(Scenario(
    name="control_runtime_bloom_filter",
    family="controls",
    planted="nothing: Spark's runtime bloom filter reads the filtered dimension in a subquery and again in the join",
    workload=_runtime_bloom_filter,
    # Spark injects the filter only into a shuffle join (the filtered dimension would be broadcast
    # otherwise) whose fact side scans more than applicationSideScanSizeThreshold (10 GB by
    # default) and whose filtering side is estimated under creationSideThreshold (10 MB; without
    # statistics the estimate is the files' size). Reading the dimension twice, were it called
    # duplication, would be worth far more than a tenth of the run.
    settings={"spark.sql.optimizer.runtime.bloomFilter.enabled": "true",
              "spark.sql.optimizer.runtime.bloomFilter.applicationSideScanSizeThreshold": "1m",
              "spark.sql.optimizer.runtime.bloomFilter.creationSideThreshold": "256m",
              "spark.sql.autoBroadcastJoinThreshold": "-1"},
    control=True,
    quiet_types=("duplicatePlanSubtree",),
))
