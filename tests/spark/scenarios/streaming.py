"""Structured Streaming: batches that overrun their trigger, state that only grows, and a
stateful query split into far more partitions than its batches have rows
(docs/detectors/streaming.md). Each runs a query on Spark's rate source until it has run the
batches its finding needs, then stops it; the checkpoint is a scratch directory, new each run."""
import time

from pyspark.sql import functions as F

from scenario import Expectation, Scenario, register, scratch_dir

# The most a query may take to run its batches: a stalled query fails its scenario, not the suite.
_DEADLINE_S = 120


def _run_query(spark, name, frame, batches, trigger, output_mode="append", foreach_batch=None, parquet_path=None):
    """Starts `frame` as a query, waits for it to finish `batches` batches, and stops it. Its sink:
    `foreach_batch`, Parquet files at `parquet_path`, else Spark's noop sink."""
    with scratch_dir(f"checkpoint-{name}") as checkpoint:
        writer = (frame.writeStream.queryName(name).outputMode(output_mode).option("checkpointLocation", checkpoint)
                  .trigger(processingTime=trigger))
        if foreach_batch:
            writer = writer.foreachBatch(foreach_batch)
        elif parquet_path:
            writer = writer.format("parquet").option("path", parquet_path)
        else:
            writer = writer.format("noop")
        query = writer.start()
        try:
            deadline = time.monotonic() + _DEADLINE_S
            while len(query.recentProgress) < batches:
                if time.monotonic() > deadline:
                    raise RuntimeError(f"{name}: {len(query.recentProgress)} of {batches} batches in {_DEADLINE_S} s")
                if query.exception() is not None:
                    raise RuntimeError(f"{name}: the query failed: {query.exception()}")
                time.sleep(0.2)
        finally:
            query.stop()


def _rate(spark, rows_per_second):
    return spark.readStream.format("rate").option("rowsPerSecond", rows_per_second).option("numPartitions", 2).load()


def _overrunning_batches(spark, fixed):
    # Every other batch spends 1.3 s in its sink (a call to a slow service in foreachBatch)
    # against a one-second trigger; the batches between do nothing and finish in time, so their
    # starts show the trigger even on a loaded machine.
    def slow_sink(batch, batch_id):
        if batch_id % 2 == 1:
            time.sleep(1.3)

    _run_query(spark, "overrunning", _rate(spark, 50), batches=12, trigger="2 seconds" if fixed else "1 second",
               foreach_batch=slow_sink)


register(Scenario(
    name="streaming_batch_over_trigger",
    family="streaming",
    planted="half the batches of a streaming query take 1.3 s against a one-second trigger",
    workload=_overrunning_batches,
    settings={"spark.sql.shuffle.partitions": "2"},
    fix_code="trigger(processingTime='2 seconds'), the interval the finding suggests",
    expect=Expectation(finding="streamingFallingBehind", rule="batchOverTrigger", tier="count",
                       recommendation_mentions=('processingTime="2 seconds"',)),
))


def _deduplicated(spark, fixed):
    rows = _rate(spark, 200)
    if fixed:
        # A watermark bounds the state: a key is forgotten once the watermark passes it.
        deduplicated = rows.withWatermark("timestamp", "1 second").dropDuplicatesWithinWatermark(["value"])
    else:
        deduplicated = rows.dropDuplicates(["value"])
    _run_query(spark, "deduplicated", deduplicated, batches=14, trigger="1 second")


register(Scenario(
    name="streaming_unbounded_state",
    family="streaming",
    planted="a streaming dropDuplicates without a watermark keeps every key it has seen",
    workload=_deduplicated,
    settings={"spark.sql.shuffle.partitions": "2"},
    fix_code="withWatermark('timestamp', '1 second').dropDuplicatesWithinWatermark(['value'])",
    expect=Expectation(finding="streamingStateGrowth", rule="unbounded", tier="count",
                       recommendation_mentions=("dropDuplicatesWithinWatermark",)),
))


def _windowed_counts(spark, fixed):
    counts = _rate(spark, 100).withWatermark("timestamp", "1 second").groupBy(F.window("timestamp", "1 second")).count()
    _run_query(spark, "windowed", counts, batches=7, trigger="3 seconds")


register(Scenario(
    name="streaming_state_partitions",
    family="streaming",
    planted="a windowed count of 100 rows a second keeps its state in 200 partitions on 2 cores",
    workload=_windowed_counts,
    settings={"spark.sql.shuffle.partitions": "200"},
    fix_settings={"spark.sql.shuffle.partitions": "2"},
    expect=Expectation(finding="streamingShufflePartitions", rule="tooManyForBatch", tier="count",
                       settings={"spark.sql.shuffle.partitions": "2"}),
))


def _file_sink(spark, fixed):
    rows = _rate(spark, 50)
    # The rate source's partitions reach the sink as they are: a file for each, every batch.
    # The twin coalesces the batch to one partition, the change the finding asks for.
    with scratch_dir("file-sink-output") as output:
        _run_query(spark, "files", rows.coalesce(1) if fixed else rows.repartition(4), batches=7, trigger="1 second",
                   parquet_path=output)


register(Scenario(
    name="streaming_small_files",
    family="streaming",
    planted="a file sink writes four files of a few KiB every second",
    workload=_file_sink,
    settings={"spark.sql.shuffle.partitions": "2"},
    fix_code="rows.coalesce(1) before writeStream",
    expect=Expectation(finding="streamingSmallFiles", rule="filesPerBatch", tier="count",
                       recommendation_mentions=("coalesce",)),
))
