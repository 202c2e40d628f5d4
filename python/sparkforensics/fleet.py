"""The fleet job: every event log of a directory, analyzed on Spark's own executors.

    python -m sparkforensics.fleet --logs DIR|hdfs://...|s3a://... --store postgresql://...|PATH
                                   [--parquet OUT] [--state DIR] [--since WHEN] [--master URL]

(or ``spark-submit .../sparkforensics/fleet.py ...``). The driver lists the log directory with
Hadoop's FileSystem through the JVM gateway, so every file system Spark reads works. The logs'
bytes are read on the executors (``SparkContext.binaryFiles``: Hadoop again) and each log is
analyzed there, in-process, by the package (the C++ library). Per log the job keeps:

- its result document, the one ``sparkforensics store ingest LOG`` makes, ingested by the driver
  into the result store (an SQLite path or a PostgreSQL URL);
- with ``--parquet OUT``: its rows of the tables ``applications``, ``stages`` and ``findings``
  (columns: sparkforensics.frames), appended under ``OUT/<table>/run=<RUN>``;
- its line in the ``logs`` table (``OUT/logs``, or ``--state DIR/logs``): path, size, modification
  time, what happened (analyzed, failed with its error, skipped: not an event log), the result id
  and the run whose rows are current. :func:`current` reads a table's current rows.

Incremental: a log listed with the same path, size and modification time as in the ``logs``
table is not read again; an in-progress log that grew is analyzed again (its new rows become
current). A log that fails is recorded with its error and never stops the job. Without a
``logs`` table (no --parquet, no --state) every log is analyzed, and the store keeps each
result once (ingest is idempotent). docs/fleet.md says how to run it on YARN, Kubernetes and
Databricks.
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import os
import sys
import time
from dataclasses import dataclass, field
from collections.abc import Mapping
from typing import Any, Iterable, Optional

from . import frames

LOG_COLUMNS = [
    ("path", "string"), ("sizeBytes", "bigint"), ("modificationTimeMs", "bigint"), ("outcome", "string"),
    ("error", "string"), ("appId", "string"), ("resultId", "string"), ("resultStatus", "string"),
    ("run", "string"),
]
# A directory whose name starts so is one log (rolling), as is one holding Databricks parts.
ROLLING_PREFIX = "eventlog_v2_"
MAX_DEPTH = 8  # as `sparkforensics analyze DIR`: subdirectories searched this deep
INGEST_BATCH = 256  # results stored through one open store (a few MB of documents at most)


@dataclass
class ListedLog:
    """One log found by the listing: a file, or a directory log and its parts."""
    uri: str            # fully qualified (file:/..., hdfs://nn/..., s3a://bucket/...)
    shown_as: str       # what documents name: a local path for file:, else the URI
    size_bytes: int
    modification_time_ms: int
    parts: list[str] = field(default_factory=list)  # URIs of a directory log's files; [] for a file


def _shown_as(jvm_path: Any) -> str:
    uri = jvm_path.toUri()
    # `sparkforensics analyze /x/app` names /x/app: a local log is named the same way here, so
    # its documents (and result ids) equal the CLI's.
    return uri.getPath() if uri.getScheme() in (None, "file") else jvm_path.toString()


def _is_databricks_log(names: Iterable[str]) -> bool:
    return any(n == "eventlog" or n.startswith("eventlog-") for n in names)


def list_logs(spark: Any, root: str) -> list[ListedLog]:
    """The event logs under `root` (a directory or one log), listed with Hadoop's FileSystem."""
    jvm = spark.sparkContext._jvm
    conf = spark.sparkContext._jsc.hadoopConfiguration()
    root_path = jvm.org.apache.hadoop.fs.Path(root)
    fs = root_path.getFileSystem(conf)
    logs: list[ListedLog] = []

    def directory_log(status: Any) -> ListedLog:
        children = [c for c in fs.listStatus(status.getPath()) if c.isFile()]
        qualified = fs.makeQualified(status.getPath())
        return ListedLog(qualified.toString(), _shown_as(qualified), sum(c.getLen() for c in children),
                         max([c.getModificationTime() for c in children] or [status.getModificationTime()]),
                         sorted(fs.makeQualified(c.getPath()).toString() for c in children))

    def visit(status: Any, depth: int) -> None:
        name = status.getPath().getName()
        if name.startswith(".") or name.startswith("_"):
            return  # hidden files and Spark's/Hadoop's own (_SUCCESS, _temporary)
        if status.isFile():
            qualified = fs.makeQualified(status.getPath())
            logs.append(ListedLog(qualified.toString(), _shown_as(qualified), status.getLen(),
                                  status.getModificationTime()))
            return
        children = list(fs.listStatus(status.getPath()))
        if name.startswith(ROLLING_PREFIX) or _is_databricks_log(c.getPath().getName() for c in children):
            logs.append(directory_log(status))
        elif depth < MAX_DEPTH:
            for child in sorted(children, key=lambda c: c.getPath().getName()):
                visit(child, depth + 1)

    top = fs.getFileStatus(root_path)
    if top.isFile() or top.getPath().getName().startswith(ROLLING_PREFIX):
        visit(top, 0)
    else:
        children = list(fs.listStatus(root_path))
        if _is_databricks_log(c.getPath().getName() for c in children):
            logs.append(directory_log(top))
        else:
            for child in sorted(children, key=lambda c: c.getPath().getName()):
                visit(child, 1)
    return sorted(logs, key=lambda log: log.uri)


def _escape_for_hadoop(uri: str) -> str:
    """A path as one entry of binaryFiles' comma-separated glob list: commas and glob characters
    escaped, so a file named a,b or a{1} is read as itself."""
    return "".join("\\" + ch if ch in ",{}[]*?\\" else ch for ch in uri)


def _analyze_record(log: dict[str, Any], data: Any, config: Optional[dict[str, Any]],
                    context: dict[str, Any]) -> dict[str, Any]:
    """On an executor: one log's bytes (bytes, or {part name: bytes}) -> its record."""
    import sparkforensics as sf  # on the executor, from the package its Python has

    record = {"path": log["shown_as"], "sizeBytes": log["size_bytes"],
              "modificationTimeMs": log["modification_time_ms"], "outcome": "analyzed", "error": None,
              "appId": None, "resultJson": None, "resultStatus": None, "application": None, "stages": [],
              "findings": []}
    try:
        # A private copy keeps the log's own name: its extension says the codec.
        analysis_json, result_json, _ = sf.analysis_and_result(data, config, name=log["shown_as"], threads=1,
                                                               **context)
    except sf.Error as error:
        # "unsupported input": a file in the directory that is no event log, left out as `analyze DIR`
        # leaves it out; anything else is a log that could not be read.
        record["outcome"] = "skipped" if error.code == "unsupported input" else "failed"
        record["error"] = str(error)
        return record
    except Exception as error:  # never stop the job for one log
        record["outcome"] = "failed"
        record["error"] = f"{type(error).__name__}: {error}"
        return record
    doc = json.loads(analysis_json)
    record.update(appId=doc["app"]["id"], resultJson=result_json, resultStatus=json.loads(result_json)["status"],
                  application=frames.application_row(doc), stages=frames.stage_rows(doc),
                  findings=frames.finding_rows(doc))
    return record


def _binary_files(sc: Any, uris: list[str], partitions: int) -> Any:
    """The files' bytes in `partitions` partitions (fewer only for fewer files), the files dealt
    out in turn, so that largest first spreads the bytes evenly. binaryFiles alone packs files
    into splits of up to max(4 MB, the total / the default parallelism) whatever minPartitions
    says: a directory of small logs became one or two partitions, analyzed by one or two cores of
    the whole cluster. A union of one binaryFiles per group gives every group its own."""
    groups = [uris[i::partitions] for i in range(min(partitions, len(uris)))]
    rdds = [sc.binaryFiles(",".join(_escape_for_hadoop(u) for u in group), minPartitions=1) for group in groups]
    return rdds[0] if len(rdds) == 1 else sc.union(rdds)


def analyze_logs(spark: Any, logs: list[ListedLog], config: Optional[dict[str, Any]] = None,
                 context: Optional[dict[str, Any]] = None, partitions: int = 0) -> Any:
    """An RDD of one record per log, each analyzed on an executor from bytes read there."""
    sc = spark.sparkContext
    context = dict(context or {})
    partitions = partitions or max(1, min(len(logs), sc.defaultParallelism * 2))
    file_logs = {log.uri: log.__dict__ for log in logs if not log.parts}
    dir_logs = {log.uri: log.__dict__ for log in logs if log.parts}
    log_of_part = {part: log.uri for log in logs for part in log.parts}
    rdds = []
    if file_logs:
        by_size = sorted(file_logs, key=lambda uri: -file_logs[uri]["size_bytes"])
        files = _binary_files(sc, by_size, partitions)
        rdds.append(files.map(lambda item: _analyze_record(file_logs[item[0]], item[1], config, context)))
    if dir_logs:
        # A directory log's parts arrive one by one: gathered per log, then analyzed together.
        parts = _binary_files(sc, list(log_of_part), partitions)
        by_log = parts.map(lambda item: (log_of_part[item[0]], (item[0].rsplit("/", 1)[-1], item[1])))
        grouped = by_log.groupByKey(numPartitions=max(1, min(partitions, len(dir_logs))))
        rdds.append(grouped.map(lambda kv: _analyze_record(dir_logs[kv[0]], dict(kv[1]), config, context)))
    return rdds[0] if len(rdds) == 1 else sc.union(rdds)


def _read_state(spark: Any, state_dir: Optional[str]) -> dict[str, dict[str, Any]]:
    """The previous `logs` table by path, or {} (first run, or no state kept)."""
    if not state_dir:
        return {}
    jvm = spark.sparkContext._jvm
    path = jvm.org.apache.hadoop.fs.Path(state_dir.rstrip("/") + "/logs")
    fs = path.getFileSystem(spark.sparkContext._jsc.hadoopConfiguration())
    if not fs.exists(path):
        return {}
    return {row["path"]: row.asDict() for row in spark.read.parquet(path.toString()).collect()}


def parse_since(text: Optional[str]) -> Optional[int]:
    """--since as epoch milliseconds: an ISO date or time (2024-06-01, 2024-06-01T12:00:00+00:00;
    UTC when no zone is given) or an age such as 36h, 7d, 90m."""
    if not text:
        return None
    units = {"m": 60, "h": 3600, "d": 86400}
    if text[-1] in units and text[:-1].isdigit():
        return int((time.time() - int(text[:-1]) * units[text[-1]]) * 1000)
    when = dt.datetime.fromisoformat(text)
    if when.tzinfo is None:
        when = when.replace(tzinfo=dt.timezone.utc)
    return int(when.timestamp() * 1000)


@dataclass
class FleetSummary:
    listed: int = 0
    unchanged: int = 0
    older: int = 0
    analyzed: int = 0
    failed: int = 0
    skipped: int = 0
    ingested: int = 0
    already_present: int = 0
    run: str = ""
    failures: list[str] = field(default_factory=list)

    def line(self) -> str:
        return (f"fleet run {self.run}: {self.listed} logs listed, {self.unchanged} unchanged since the last run, "
                f"{self.older} older than --since, {self.analyzed} analyzed ({self.ingested} results stored, "
                f"{self.already_present} already there), {self.failed} failed, {self.skipped} not event logs")


def run(spark: Any, logs_root: str, store: str, parquet: Optional[str] = None, state: Optional[str] = None,
        since_ms: Optional[int] = None, config: Any = None,
        context: Optional[dict[str, Any]] = None, partitions: int = 0) -> FleetSummary:
    """The job, on an existing SparkSession; returns what it did. ``config``: a --config file's
    path or the same document as a mapping, checked here, before any log is read: a typo in it
    is one error (sparkforensics.Error), not a failure of every log."""
    import sparkforensics as sf

    sf._check_config(config)
    if config is not None and not isinstance(config, Mapping):
        with open(config) as f:
            config = json.load(f)  # the executors get the document, not a path they may not see
    summary = FleetSummary(run=dt.datetime.now(dt.timezone.utc).strftime("%Y%m%dT%H%M%S%fZ"))
    state_dir = state or parquet
    previous = _read_state(spark, state_dir)
    listed = list_logs(spark, logs_root)
    summary.listed = len(listed)
    todo = []
    for log in listed:
        before = previous.get(log.shown_as)
        if before and before["sizeBytes"] == log.size_bytes and before["modificationTimeMs"] == log.modification_time_ms:
            summary.unchanged += 1
        elif since_ms is not None and log.modification_time_ms < since_ms:
            summary.older += 1
        else:
            todo.append(log)

    state_rows = dict(previous)
    if todo:
        from pyspark import StorageLevel

        records = analyze_logs(spark, todo, config, context, partitions)
        # Every partition analyzed at once, on every executor, and kept (spilled to disk rather
        # than analyzed again if it does not fit): toLocalIterator below runs one job per
        # partition, one after the other, so without this the logs were analyzed one partition
        # at a time whatever the cluster's size.
        records.persist(StorageLevel.MEMORY_AND_DISK)
        records.count()
        # Results into the store from the driver: it alone is sure to reach an SQLite path, and
        # the documents are small (quantities, not the analysis). Streamed, not collected, and
        # stored in batches through one open store (opening one costs more than an ingest).
        pending: list[tuple[dict[str, Any], dict[str, Any]]] = []

        def store_pending() -> None:
            if not pending:
                return
            outcomes = sf.ingest_results(store, [(record["resultJson"], record["path"]) for _, record in pending])
            for (row, _), outcome in zip(pending, outcomes):
                row["resultId"] = outcome["id"]
                summary.already_present += int(outcome["alreadyPresent"])
                summary.ingested += int(not outcome["alreadyPresent"])
            pending.clear()

        for record in records.map(lambda r: {k: r[k] for k in ("path", "sizeBytes", "modificationTimeMs", "outcome",
                                                                 "error", "appId", "resultJson", "resultStatus")}
                                  ).toLocalIterator():
            row = {name: record.get(name) for name, _ in LOG_COLUMNS}
            row["run"] = summary.run
            if record["outcome"] == "analyzed":
                summary.analyzed += 1
                pending.append((row, record))
                if len(pending) == INGEST_BATCH:
                    store_pending()
            else:
                summary.failed += record["outcome"] == "failed"
                summary.skipped += record["outcome"] == "skipped"
                if record["outcome"] == "failed":
                    summary.failures.append(f"{record['path']}: {record['error']}")
            state_rows[row["path"]] = row
        store_pending()
        if parquet:
            from pyspark.sql import functions as F

            def table(rows: Any, columns: list[tuple[str, str]], name: str) -> None:
                df = spark.createDataFrame(rows, schema=frames.ddl(columns))
                df.withColumn("run", F.lit(summary.run)).write.mode("append").partitionBy("run").parquet(
                    f"{parquet.rstrip('/')}/{name}")

            analyzed = records.filter(lambda r: r["outcome"] == "analyzed")
            # Every row carries its log's path, so a table joins the `logs` table on (sourcePath, run).
            table(analyzed.map(lambda r: r["application"]), frames.APPLICATION_COLUMNS, "applications")
            table(analyzed.flatMap(lambda r: [{**s, "sourcePath": r["path"]} for s in r["stages"]]),
                  frames.STAGE_COLUMNS + [("sourcePath", "string")], "stages")
            table(analyzed.flatMap(lambda r: [{**f, "sourcePath": r["path"]} for f in r["findings"]]),
                  frames.FINDING_COLUMNS + [("sourcePath", "string")], "findings")
        records.unpersist()
    if state_dir and todo:
        rows = [state_rows[path] for path in sorted(state_rows)]
        spark.createDataFrame(rows, schema=frames.ddl(LOG_COLUMNS)).coalesce(1).write.mode("overwrite").parquet(
            f"{state_dir.rstrip('/')}/logs")
    return summary


def current(spark: Any, parquet: str, table: str) -> Any:
    """A table's current rows: those of each log's latest analysis (the run the `logs` table names)."""
    logs = spark.read.parquet(f"{parquet.rstrip('/')}/logs").where("outcome = 'analyzed'").select("path", "run")
    # Runs written before a column was added lack it: merged, their rows read it as null.
    rows = spark.read.option("mergeSchema", "true").parquet(f"{parquet.rstrip('/')}/{table}")
    return rows.join(logs.withColumnRenamed("path", "sourcePath"), on=["sourcePath", "run"], how="inner")


def main(argv: Optional[list[str]] = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m sparkforensics.fleet",
                                     description="Analyze every Spark event log of a directory on Spark itself.")
    parser.add_argument("--logs", required=True, help="the log directory (or one log): a path, hdfs://, s3a://, ...")
    parser.add_argument("--store", required=True, help="the result store: an SQLite path or a postgresql:// URL")
    parser.add_argument("--parquet", help="write applications, stages, findings and logs as Parquet under this directory")
    parser.add_argument("--state", help="where the logs table lives without --parquet (for incremental runs)")
    parser.add_argument("--since", help="only logs modified since: an ISO date/time or an age (36h, 7d)")
    parser.add_argument("--config", help="a --config JSON file: detector thresholds and read limits")
    parser.add_argument("--env", action="append", default=[], metavar="KEY=VALUE",
                        help="an environment fact stored with every result (cluster=prod); repeatable")
    parser.add_argument("--partitions", type=int, default=0, help="Spark partitions of the logs (default: 2 per core)")
    parser.add_argument("--master", help="Spark master when not run by spark-submit (e.g. local[2])")
    args = parser.parse_args(argv)

    env = {}
    for item in args.env:
        key, sep, value = item.partition("=")
        if not sep or not key:
            parser.error(f"--env {item}: expected KEY=VALUE")
        env[key] = value

    from pyspark.sql import SparkSession
    builder = SparkSession.builder.appName("sparkforensics-fleet")
    if args.master:
        builder = builder.master(args.master)
    import sparkforensics as sf
    spark = builder.getOrCreate()
    try:
        summary = run(spark, args.logs, args.store, parquet=args.parquet, state=args.state,
                      since_ms=parse_since(args.since), config=args.config, context={"env": env} if env else None,
                      partitions=args.partitions)
    except sf.Error as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    finally:
        spark.stop()
    print(summary.line())
    for failure in summary.failures:
        print(f"failed: {failure}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
