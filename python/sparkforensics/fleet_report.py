"""The fleet report: what the fleet job's tables say across every application.

    python -m sparkforensics.fleet_report --parquet OUT [--top 10] [--format text|markdown]

Reads the current rows (sparkforensics.fleet.current) of the tables the fleet job wrote under OUT
and prints: the applications with the most recoverable wall-clock (their leading "Fix these
first" group, as analyze reports it), the finding types found in the most applications, and the
logs that could not be analyzed. Figures are the analysis documents' own; this only sorts and
counts them.
"""

from __future__ import annotations

import argparse
import sys
from typing import Any, Optional

from . import fleet


def _duration(ms: Optional[float]) -> str:
    if ms is None:
        return "-"
    seconds = int(round(ms / 1000))
    hours, rest = divmod(seconds, 3600)
    minutes, seconds = divmod(rest, 60)
    return f"{hours}h {minutes:02d}m" if hours else f"{minutes}m {seconds:02d}s"


def report_tables(spark: Any, parquet: str, top: int = 10) -> dict[str, list[dict[str, Any]]]:
    """The report's three tables as lists of rows."""
    from pyspark.sql import functions as F

    apps = fleet.current(spark, parquet, "applications")
    findings = fleet.current(spark, parquet, "findings")
    logs = spark.read.parquet(f"{parquet.rstrip('/')}/logs")
    top_apps = (apps.where("topRecoverableHighMs IS NOT NULL").orderBy(F.desc("topRecoverableHighMs"), "appId")
                .select("appId", "name", "durationMs", "topFindingType", "topRecoverableLowMs",
                        "topRecoverableHighMs", "sourcePath").limit(top))
    types = (findings.groupBy("type")
             .agg(F.countDistinct("sourcePath").alias("applications"), F.count("*").alias("findings"),
                  F.sum("wallClockHighMs").alias("wallClockHighMs"))
             .orderBy(F.desc("applications"), F.desc("findings"), "type").limit(top))
    failed = logs.where("outcome = 'failed'").select("path", "error").orderBy("path")
    return {name: [r.asDict() for r in df.collect()] for name, df in
            (("applications", top_apps), ("findingTypes", types), ("failed", failed))}


def render(tables: dict[str, list[dict[str, Any]]], markdown: bool) -> str:
    out = []

    def table(title: str, header: list[str], rows: list[list[str]]) -> None:
        out.append(f"## {title}" if markdown else title)
        if not rows:
            out.append("(none)")
        elif markdown:
            out.append("| " + " | ".join(header) + " |")
            out.append("|" + "---|" * len(header))
            out.extend("| " + " | ".join(cell.replace("|", "\\|") for cell in row) + " |" for row in rows)
        else:
            widths = [max(len(h), *(len(r[i]) for r in rows)) for i, h in enumerate(header)]
            out.append("  ".join(h.ljust(w) for h, w in zip(header, widths)).rstrip())
            out.extend("  ".join(c.ljust(w) for c, w in zip(row, widths)).rstrip() for row in rows)
        out.append("")

    table("Applications with the most recoverable wall-clock",
          ["application", "name", "duration", "fix first", "recoverable"],
          [[a["appId"] or "-", a["name"] or "-", _duration(a["durationMs"]), a["topFindingType"] or "-",
            f"{_duration(a['topRecoverableLowMs'])} to {_duration(a['topRecoverableHighMs'])}"]
           for a in tables["applications"]])
    table("Finding types in the most applications", ["type", "applications", "findings", "wall-clock (high, summed)"],
          [[t["type"], str(t["applications"]), str(t["findings"]), _duration(t["wallClockHighMs"])]
           for t in tables["findingTypes"]])
    table("Logs that could not be analyzed", ["log", "error"], [[f["path"], f["error"] or ""] for f in tables["failed"]])
    return "\n".join(out)


def main(argv: Optional[list[str]] = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m sparkforensics.fleet_report",
                                     description="Top applications and finding types of the fleet job's tables.")
    parser.add_argument("--parquet", required=True, help="the fleet job's --parquet directory")
    parser.add_argument("--top", type=int, default=10, help="rows per table")
    parser.add_argument("--format", choices=["text", "markdown"], default="text")
    parser.add_argument("--master", help="Spark master when not run by spark-submit (e.g. local[2])")
    args = parser.parse_args(argv)
    from pyspark.sql import SparkSession
    builder = SparkSession.builder.appName("sparkforensics-fleet-report")
    if args.master:
        builder = builder.master(args.master)
    spark = builder.getOrCreate()
    try:
        print(render(report_tables(spark, args.parquet, args.top), args.format == "markdown"))
    finally:
        spark.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main())
