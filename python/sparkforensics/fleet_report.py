"""The fleet report: what the fleet job's tables say across every application.

    python -m sparkforensics.fleet_report --parquet OUT [--store STORE] [--top 10] [--format text|markdown|html]
                                          [--quantity appWallClockMs --quantity cost] [--method-config FILE]

Reads the current rows (sparkforensics.fleet.current) of the tables the fleet job wrote under OUT
and prints: the applications with the most recoverable wall-clock (their leading "Fix these
first" group, as analyze reports it), the applications that cost the most (economics.cost of
their analysis documents, in the rate card's currency), the finding types found in the most
applications, and the logs that could not be analyzed. Figures are the analysis documents' own;
this counts them, and the library orders them by the rule the dashboard's fleet page follows
(_core.fleet_rankings).

With ``--store`` (the fleet job's result store) it adds the per-job trend: the comparator's
verdict on each application's (subject's) latest result, for the series of the named quantities
that hold at least two results. The verdicts are the library's (``verdict history --target
latest``, through sparkforensics.verdict_history); this only chooses which evaluations to show.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import TYPE_CHECKING, Any, Mapping, Optional, Sequence

from . import _core, fleet

if TYPE_CHECKING:
    from .documents import Evaluation

# The trend's default quantities: the job's wall-clock and its cost (docs/result-schema.md).
TREND_QUANTITIES = ("appWallClockMs", "cost")


def _duration(ms: Optional[float]) -> str:
    """As the text and Markdown reports write a duration."""
    return "-" if ms is None else _core.format_duration_ms(int(round(ms)))


def _series_results(evaluation: Evaluation) -> int:
    """How many results of the evaluated series the comparator saw up to the target: the target,
    its reference points and the points it excluded (listed or only counted). The reference holds
    at most the method's `window` points, so this is a floor, exact up to that size."""
    return (int(evaluation.get("target") is not None) + len(evaluation["reference"]) + len(evaluation["exclusions"])
            + int(evaluation["exclusionsNotListed"]))


def trend_rows(store: str, quantities: Sequence[str] = TREND_QUANTITIES,
               method_config: Optional[Mapping[str, Any]] = None) -> list[dict[str, Any]]:
    """The comparator's latest verdict per subject and quantity, for series with at least two
    results: the evaluations of ``verdict_history(store, "latest")``, in the document's order."""
    import sparkforensics as sf

    document = sf.verdict_history(store, "latest", quantities=list(quantities), method_config=method_config)
    rows = []
    for e in document["evaluations"]:
        results = _series_results(e)
        if results < 2:
            continue  # a series' first result has nothing to be compared with
        outcome = e["outcome"]
        rows.append({"subject": e["series"]["identity"].get("subject"), "series": e["series"]["label"],
                     "quantity": e["series"]["quantity"], "unit": e["series"]["unit"], "verdict": e["verdict"],
                     "reason": e["reason"], "targetResultId": (e["target"] or {}).get("resultId"),
                     "targetValue": (e["target"] or {}).get("value"),
                     "referenceEstimate": outcome["referenceEstimate"], "effect": outcome["effect"]["value"],
                     "effectMeasure": outcome["effect"]["measure"], "referencePoints": len(e["reference"]),
                     "seriesResults": results})
    return rows


# What each ranked table shows of an application (the rows are the `applications` table's).
_RECOVERABLE_COLUMNS = ("appId", "name", "durationMs", "topFindingType", "topRecoverableLowMs",
                        "topRecoverableHighMs", "sourcePath")
_COST_COLUMNS = ("appId", "name", "durationMs", "costTotal", "costCurrency", "costRateCard", "sourcePath")


def report_tables(spark: Any, parquet: str, top: int = 10, store: Optional[str] = None,
                  trend_quantities: Sequence[str] = TREND_QUANTITIES,
                  method_config: Optional[Mapping[str, Any]] = None) -> dict[str, Any]:
    """The report's tables as lists of rows; "trend" is None without a store.

    Spark reads the current rows and counts the findings per type; the order and the cut are the
    library's (_core.fleet_rankings: results/fleet_rankings.h, the dashboard's fleet page's rule),
    given one small row per application, as the driver already holds one row per log (the `logs`
    table). An application's subject is its name: the fleet job's (result_from_app_model's)."""
    from pyspark.sql import functions as F

    apps = fleet.current(spark, parquet, "applications").select(*sorted(set(_RECOVERABLE_COLUMNS + _COST_COLUMNS)))
    # In path order: rows equal in every key the rankings read keep the order they are given in.
    app_rows = sorted((r.asDict() for r in apps.collect()), key=lambda a: a["sourcePath"])
    type_rows = [r.asDict() for r in fleet.current(spark, parquet, "findings").groupBy("type")
                 .agg(F.countDistinct("sourcePath").alias("applications"), F.count("*").alias("findings"),
                      F.sum("wallClockHighMs").alias("wallClockHighMs")).collect()]
    recoverable, costs, type_order = _core.fleet_rankings(
        [(a["name"] or "", a["appId"] or "", a["topRecoverableHighMs"], a["costTotal"], a["costCurrency"] or "")
         for a in app_rows],
        [(t["type"], t["applications"], float(t["findings"])) for t in type_rows], max(top, 0))

    def shown(i: int, columns: Sequence[str]) -> dict[str, Any]:
        return {c: app_rows[i][c] for c in columns}

    logs = spark.read.parquet(f"{parquet.rstrip('/')}/logs")
    failed = logs.where("outcome = 'failed'").select("path", "error").orderBy("path")
    tables: dict[str, Any] = {
        "applications": [shown(i, _RECOVERABLE_COLUMNS) for i in recoverable],
        # Costs in two currencies are not comparable: the top rows of each currency, never one ranking.
        "costs": [shown(i, _COST_COLUMNS) for _, _, ranked in costs for i in ranked],
        "findingTypes": [type_rows[i] for i in type_order],
        "failed": [r.asDict() for r in failed.collect()],
    }
    tables["trend"] = None if store is None else trend_rows(store, trend_quantities, method_config)
    return tables


def _value(value: Optional[float], row: Mapping[str, Any]) -> str:
    if value is None:
        return "-"
    if row["unit"] == "ms":
        return _duration(value)
    # cost's unit is its currency (USD): money, written as the reports write it
    return _core.format_money(value, row["unit"]) if row["quantity"] == "cost" else f"{value:g} {row['unit']}"


def _effect(row: Mapping[str, Any]) -> str:
    if row["effect"] is None:
        return "-"
    if row["effectMeasure"] == "relative":
        return f"{row['effect'] * 100:+.1f}%"
    return f"{row['effect']:+g} {row['unit']}"


Section = tuple[str, list[str], list[list[str]]]  # title, header, rows of cells


def sections(tables: dict[str, Any]) -> list[Section]:
    """The report's content, cell by cell: what every format writes."""
    out: list[Section] = [
        ("Applications with the most recoverable wall-clock",
         ["application", "name", "duration", "fix first", "recoverable"],
         [[a["appId"] or "-", a["name"] or "-", _duration(a["durationMs"]), a["topFindingType"] or "-",
           f"{_duration(a['topRecoverableLowMs'])} to {_duration(a['topRecoverableHighMs'])}"]
          for a in tables["applications"]]),
        ("Applications that cost the most", ["application", "name", "duration", "cost", "rate card"],
         [[a["appId"] or "-", a["name"] or "-", _duration(a["durationMs"]),
           _core.format_money(a["costTotal"], a["costCurrency"]), a["costRateCard"] or "-"] for a in tables["costs"]]),
        ("Finding types in the most applications", ["type", "applications", "findings", "wall-clock (high, summed)"],
         [[t["type"], str(t["applications"]), str(t["findings"]), _duration(t["wallClockHighMs"])]
          for t in tables["findingTypes"]]),
        ("Logs that could not be analyzed", ["log", "error"], [[f["path"], f["error"] or ""] for f in tables["failed"]]),
    ]
    if tables.get("trend") is not None:
        out.append(("Per-job trend: the comparator's verdict on each job's latest run",
                    ["job", "quantity", "verdict", "latest", "reference", "effect", "results", "why"],
                    [[t["subject"] or "-", t["quantity"], t["verdict"], _value(t["targetValue"], t),
                      _value(t["referenceEstimate"], t), _effect(t), str(t["seriesResults"]), t["reason"] or "-"]
                     for t in tables["trend"]]))
    return out


def _text(sections_: list[Section], markdown: bool) -> str:
    out = []
    for title, header, rows in sections_:
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
    return "\n".join(out)


# One self-contained page: no script, no file or font fetched, readable printed or mailed.
_HTML_STYLE = ("body{font:14px/1.4 system-ui,sans-serif;margin:2em;color:#1a1a1a}"
               "table{border-collapse:collapse;margin-bottom:2em}th,td{border:1px solid #ccc;padding:4px 8px;"
               "text-align:left;vertical-align:top}th{background:#f3f3f3}td{font-variant-numeric:tabular-nums}")


def _html(sections_: list[Section]) -> str:
    from html import escape

    out = ["<!DOCTYPE html>", '<html lang="en"><head><meta charset="utf-8">',
           "<title>SparkForensics fleet report</title>", f"<style>{_HTML_STYLE}</style></head><body>",
           "<h1>SparkForensics fleet report</h1>"]
    for title, header, rows in sections_:
        out.append(f"<h2>{escape(title, quote=False)}</h2>")
        if not rows:
            out.append("<p>(none)</p>")
            continue
        out.append("<table><thead><tr>" + "".join(f"<th>{escape(h, quote=False)}</th>" for h in header) + "</tr></thead><tbody>")
        out.extend("<tr>" + "".join(f"<td>{escape(cell, quote=False)}</td>" for cell in row) + "</tr>" for row in rows)
        out.append("</tbody></table>")
    out.append("</body></html>")
    return "\n".join(out)


def render(tables: dict[str, Any], fmt: str = "text") -> str:
    """The report in `fmt`: text, markdown or html."""
    if fmt == "html":
        return _html(sections(tables))
    return _text(sections(tables), markdown=fmt == "markdown")


def main(argv: Optional[list[str]] = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m sparkforensics.fleet_report",
                                     description="Top applications and finding types of the fleet job's tables.")
    parser.add_argument("--parquet", required=True, help="the fleet job's --parquet directory")
    parser.add_argument("--top", type=int, default=10, help="rows per table")
    parser.add_argument("--format", choices=["text", "markdown", "html"], default="text")
    parser.add_argument("--store", help="the fleet job's result store: adds the per-job trend (the comparator's verdicts)")
    parser.add_argument("--quantity", action="append", metavar="NAME",
                        help=f"a quantity of the trend; repeatable (default: {', '.join(TREND_QUANTITIES)})")
    parser.add_argument("--method-config", metavar="FILE",
                        help="the comparator's method configuration, as verdict --method-config (docs/comparator.md)")
    parser.add_argument("--master", help="Spark master when not run by spark-submit (e.g. local[2])")
    args = parser.parse_args(argv)
    if (args.quantity or args.method_config) and not args.store:
        parser.error("--quantity and --method-config shape the trend, which needs --store")
    method_config = None
    if args.method_config:
        try:
            with open(args.method_config) as f:
                method_config = json.load(f)
        except (OSError, ValueError) as error:
            parser.error(f"--method-config {args.method_config}: {error}")
    from pyspark.sql import SparkSession
    builder = SparkSession.builder.appName("sparkforensics-fleet-report")
    if args.master:
        builder = builder.master(args.master)
    spark = builder.getOrCreate()
    try:
        tables = report_tables(spark, args.parquet, args.top, store=args.store,
                               trend_quantities=args.quantity or TREND_QUANTITIES, method_config=method_config)
        print(render(tables, args.format))
    finally:
        spark.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main())
