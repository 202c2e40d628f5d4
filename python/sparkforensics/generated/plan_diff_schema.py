# Generated from schemas/ by scripts/generate_types.sh (datamodel-code-generator): do not edit.

from __future__ import annotations

from typing import Literal, TypeAlias

from sparkforensics._typed_dict import TypedDict


class Counts(TypedDict):
    same: int
    changed: int
    removed: int
    added: int


NodeChange: TypeAlias = Literal['same', 'changed', 'removed', 'added']


class DiffNode(TypedDict):
    nodeId: int
    nodeName: str
    simpleString: str
    children: list[int]
    stageIds: list[int]
    change: NodeChange
    counterpart: int | None
    """
    the other side's node it paired with
    """


class PlanSide(TypedDict):
    executionId: int
    durationMs: int | None
    nodes: list[DiffNode]


class PlanDiffDocument(TypedDict):
    """
    The plan diff of two SQL executions (GET /api/sf/v1/compare/plan; docs/server.md). The diffs compare's HTML report inlines are the same objects without kind and schemaVersion.
    """

    kind: Literal['sparkforensics.planDiff']
    schemaVersion: Literal[1]
    baselineExecutionId: int
    candidateExecutionId: int
    description: str
    counts: Counts
    baseline: PlanSide
    candidate: PlanSide
