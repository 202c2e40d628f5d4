# Generated from schemas/ by scripts/generate_types.sh (datamodel-code-generator): do not edit.

from __future__ import annotations

from typing import Literal

from sparkforensics._typed_dict import NotRequired, TypedDict

from . import verdict_schema


class FindingType(TypedDict):
    type: str
    applications: int
    findings: float


class Cost(TypedDict):
    value: float
    currency: str


class RecoverableMs(TypedDict):
    """
    null: a result stored without the analysis quantities
    """

    low: float | None
    high: float


class FleetRow(TypedDict):
    subject: str
    resultId: str
    order: int
    status: str
    revision: str
    appWallClockMs: float | None
    cost: Cost | None
    recoverableMs: RecoverableMs | None
    """
    null: a result stored without the analysis quantities
    """
    findings: float | None
    results: NotRequired[int]
    """
    trend rows: the subject's results in the store
    """


class Cost1(TypedDict):
    currency: str
    applications: int
    top: list[FleetRow]


class Trend(TypedDict):
    offset: int
    total: int
    quantities: list[str]
    rows: list[FleetRow]
    document: verdict_schema.VerdictDocument


class FleetSummaryDocument(TypedDict):
    """
    The fleet page (GET /api/sf/v1/fleet; docs/server.md): each subject's latest result, ranked and counted.
    """

    kind: Literal['sparkforensics.fleetSummary']
    schemaVersion: Literal[1]
    store: str
    subjects: int
    withoutAnalysis: int
    limit: int
    recoverable: list[FleetRow]
    costs: list[Cost1]
    findingTypes: list[FindingType]
    trend: Trend
