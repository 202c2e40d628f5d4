"""The documents this package returns, as TypedDicts generated from the project's JSON Schemas
(schemas/*.schema.json, by scripts/generate_types.sh into generated/; docs/*-schema.md say what
each field means). They are for type checkers and readers: at run time a document is the plain
dict that json.loads made of the library's JSON, unchecked.

    from sparkforensics.documents import AnalysisDocument
    doc: AnalysisDocument = sparkforensics.analyze(path)
"""

from .generated.analysis_schema import (AnalysisDocument, Economics, Executor, Finding, Job, RollupGroup, SqlExecution,
                                        Stage)
from .generated.comparison_schema import ComparisonDocument, MetricDelta, StagePair
from .generated.fleet_summary_schema import FleetRow, FleetSummaryDocument
from .generated.plan_diff_schema import PlanDiffDocument
from .generated.result_schema import Quantity, ResultDocument
from .generated.timeline_schema import TimelineDocument
from .generated.verdict_schema import Evaluation, PointRef, VerdictDocument

__all__ = [
    "AnalysisDocument", "ComparisonDocument", "FleetSummaryDocument", "PlanDiffDocument", "ResultDocument",
    "TimelineDocument", "VerdictDocument",
    "Economics", "Evaluation", "Executor", "Finding", "FleetRow", "Job", "MetricDelta", "PointRef", "Quantity",
    "RollupGroup", "SqlExecution", "Stage", "StagePair",
]
