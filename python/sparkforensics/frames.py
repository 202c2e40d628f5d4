"""Tables of an analysis document: one row per application, stage attempt, finding or rollup group.

The rows are cut from the document ``analyze`` returns, nothing computed anew: each column is a
field of the document (docs/analysis-schema.md) under the same name, nested objects flattened
with the parent's name in front (``impactEstimate.wallClock.highMs`` -> ``wallClockHighMs``).
The column lists with their types are the one definition of these tables: the pandas helpers
below build DataFrames from them, and the fleet job (sparkforensics.fleet) its Parquet tables.
"""

from __future__ import annotations

import json
from typing import Any, Iterable, Mapping

# (column, type) in Spark SQL's DDL spelling; pandas infers its own dtypes from the values.
APPLICATION_COLUMNS = [
    ("sourcePath", "string"), ("appId", "string"), ("attemptId", "string"), ("name", "string"),
    ("user", "string"), ("sparkVersion", "string"), ("startTimeMs", "bigint"), ("endTimeMs", "bigint"),
    ("durationMs", "bigint"), ("finished", "boolean"), ("exitCode", "bigint"), ("inProgress", "boolean"),
    ("peakConcurrentCores", "bigint"), ("stageAttempts", "bigint"), ("findings", "bigint"),
    # The rollup's leading time group: what "Fix these first" starts with, and how much it could recover.
    ("topFindingType", "string"), ("topRecoverableLowMs", "double"), ("topRecoverableHighMs", "double"),
    ("malformedLines", "bigint"), ("readError", "string"),
    # economics.cost: what the application cost at the rate card's prices, and in which currency.
    ("costTotal", "double"), ("costCurrency", "string"), ("costRateCard", "string"),
]
STAGE_COLUMNS = [
    ("appId", "string"), ("stageId", "bigint"), ("attemptId", "bigint"), ("name", "string"), ("status", "string"),
    ("numTasks", "bigint"), ("submissionTimeMs", "bigint"), ("completionTimeMs", "bigint"), ("durationMs", "bigint"),
    ("sqlExecutionId", "bigint"), ("maxTaskDurationMs", "bigint"), ("failureReason", "string"),
    # Every task metric summed over the stage attempt, by the document's names.
    ("metrics", "map<string,double>"),
]
FINDING_COLUMNS = [
    ("appId", "string"), ("id", "string"), ("type", "string"), ("rule", "string"), ("scope", "string"),
    ("stageIds", "array<bigint>"), ("sqlExecutionId", "bigint"), ("title", "string"), ("confidence", "string"),
    ("impactBand", "string"), ("basis", "string"), ("wallClockLowMs", "double"), ("wallClockHighMs", "double"),
    ("estimateMethod", "string"), ("rawWasteValue", "double"), ("rawWasteUnit", "string"),
    ("recommendation", "string"),
    # [{"key", "suggestedValue", "currentValue", "effectiveValue"}] as JSON text.
    ("settingsJson", "string"),
]
ROLLUP_COLUMNS = [
    ("appId", "string"), ("type", "string"), ("tier", "string"), ("label", "string"),
    ("recoverableLowMs", "double"), ("recoverableHighMs", "double"), ("unit", "string"), ("total", "double"),
    ("fixFirst", "boolean"), ("bestImpactBand", "string"), ("bestFindingId", "string"), ("findingCount", "bigint"),
]


def ddl(columns: Iterable[tuple[str, str]]) -> str:
    """The columns as a Spark SQL schema string ("appId string, ...")."""
    return ", ".join(f"`{name}` {kind}" for name, kind in columns)


def _typed(columns: list[tuple[str, str]], values: Mapping[str, Any]) -> dict[str, Any]:
    row = {}
    for name, kind in columns:
        value = values.get(name)
        if value is not None:
            if kind == "bigint":
                value = int(value)
            elif kind == "double":
                value = float(value)
            elif kind == "map<string,double>":
                value = {k: float(v) for k, v in value.items() if isinstance(v, (int, float))}
        row[name] = value
    return row


def _top_time_group(doc: Mapping[str, Any]) -> Mapping[str, Any]:
    """The group "Fix these first" leads with, as the reports choose it: the first time group (the
    rollup is ordered) worth fixing first; none when nothing is ("Nothing with a wall-clock cost
    stands out")."""
    for group in doc.get("rollup") or []:
        if group.get("tier") == "time" and group.get("fixFirst"):
            return group
    return {}


def application_row(doc: Mapping[str, Any]) -> dict[str, Any]:
    app, source, diagnostics = doc.get("app") or {}, doc.get("source") or {}, doc.get("diagnostics") or {}
    top = _top_time_group(doc)
    recoverable = top.get("recoverableMs") or {}
    cost = (doc.get("economics") or {}).get("cost") or {}
    rate_card = cost.get("rateCard") or {}
    return _typed(APPLICATION_COLUMNS, {
        **{name: app.get(name) for name, _ in APPLICATION_COLUMNS},
        "appId": app.get("id"), "sourcePath": source.get("path"), "inProgress": source.get("inProgress"),
        "stageAttempts": len(doc.get("stages") or []), "findings": len(doc.get("findings") or []),
        "topFindingType": top.get("type"), "topRecoverableLowMs": recoverable.get("low"),
        "topRecoverableHighMs": recoverable.get("high"),
        "malformedLines": len(diagnostics.get("malformedLines") or []), "readError": diagnostics.get("readError"),
        "costTotal": cost.get("total"), "costCurrency": rate_card.get("currency"), "costRateCard": rate_card.get("name"),
    })


def stage_rows(doc: Mapping[str, Any]) -> list[dict[str, Any]]:
    app_id = (doc.get("app") or {}).get("id")
    return [_typed(STAGE_COLUMNS, {**stage, "appId": app_id}) for stage in doc.get("stages") or []]


def finding_rows(doc: Mapping[str, Any]) -> list[dict[str, Any]]:
    app_id = (doc.get("app") or {}).get("id")
    rows = []
    for finding in doc.get("findings") or []:
        estimate = finding.get("impactEstimate") or {}
        wall, raw = estimate.get("wallClock") or {}, estimate.get("rawWaste") or {}
        rows.append(_typed(FINDING_COLUMNS, {
            **finding, "appId": app_id, "basis": estimate.get("basis"), "wallClockLowMs": wall.get("lowMs"),
            "wallClockHighMs": wall.get("highMs"), "estimateMethod": estimate.get("estimateMethod"),
            "rawWasteValue": raw.get("value"), "rawWasteUnit": raw.get("unit"),
            "stageIds": [int(s) for s in finding.get("stageIds") or []],
            "settingsJson": json.dumps(finding.get("settings") or [], sort_keys=True),
        }))
    return rows


def rollup_rows(doc: Mapping[str, Any]) -> list[dict[str, Any]]:
    app_id = (doc.get("app") or {}).get("id")
    rows = []
    for group in doc.get("rollup") or []:
        recoverable = group.get("recoverableMs") or {}
        rows.append(_typed(ROLLUP_COLUMNS, {
            **group, "appId": app_id, "recoverableLowMs": recoverable.get("low"),
            "recoverableHighMs": recoverable.get("high"), "findingCount": len(group.get("findingIds") or []),
        }))
    return rows


def _pandas():
    try:
        import pandas
    except ImportError as e:  # pandas is optional: only these helpers need it
        raise ImportError("sparkforensics' DataFrame helpers need pandas: pip install pandas "
                          "(analyze() and the other calls work without it)") from e
    return pandas


def _frame(rows: list[dict[str, Any]], columns: list[tuple[str, str]]):
    return _pandas().DataFrame(rows, columns=[name for name, _ in columns])


def _documents(docs: Any) -> list[Mapping[str, Any]]:
    return [docs] if isinstance(docs, Mapping) else list(docs)


def applications_frame(docs: Any):
    """One row per analysis document (one, or an iterable of them): a pandas DataFrame."""
    return _frame([application_row(d) for d in _documents(docs)], APPLICATION_COLUMNS)


def stages_frame(docs: Any):
    """One row per stage attempt of the document(s); ``metrics`` holds every summed task metric."""
    return _frame([r for d in _documents(docs) for r in stage_rows(d)], STAGE_COLUMNS)


def findings_frame(docs: Any):
    """One row per finding of the document(s), in the document's order (band, then wall-clock)."""
    return _frame([r for d in _documents(docs) for r in finding_rows(d)], FINDING_COLUMNS)


def rollup_frame(docs: Any):
    """One row per rollup group ("Fix these first" and the cost tiers) of the document(s)."""
    return _frame([r for d in _documents(docs) for r in rollup_rows(d)], ROLLUP_COLUMNS)
