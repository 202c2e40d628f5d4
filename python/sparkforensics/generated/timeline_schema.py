# Generated from schemas/ by scripts/generate_types.sh (datamodel-code-generator): do not edit.

from __future__ import annotations

from typing import Literal

from sparkforensics._typed_dict import TypedDict


class Stage(TypedDict):
    stageId: int
    attemptId: int
    startMs: int
    endMs: int
    gate: float
    coreWeight: float
    windowCores: float


class TimelineDocument(TypedDict):
    """
    The occupancy model's view of a run (GET /api/sf/v1/logs/L/timeline; docs/server.md).
    """

    kind: Literal['sparkforensics.timeline']
    schemaVersion: Literal[1]
    stages: list[Stage]
    coresAllocated: list[tuple[int, float]]
    """
    a step series: [ms, total after every change]
    """
    coresBusy: list[tuple[int, float]]
    """
    a step series: [ms, total after every change]
    """
