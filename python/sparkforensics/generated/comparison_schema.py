# Generated from schemas/ by scripts/generate_types.sh (datamodel-code-generator): do not edit.

from __future__ import annotations

from typing import Literal, TypeAlias

from sparkforensics._typed_dict import TypedDict


class ConfigurationDifference(TypedDict):
    key: str
    baseline: str | None
    candidate: str | None
    baselineEffective: str | None
    candidateEffective: str | None
    sameInEffect: bool


class Pair(TypedDict):
    baselineExecutionId: int
    candidateExecutionId: int
    score: float


class ExecutionAlignment(TypedDict):
    baselineExecutions: int
    candidateExecutions: int
    paired: int
    agreement: float | None
    accepted: bool
    bounded: bool
    pairs: list[Pair]


class RunTime(TypedDict):
    pairedMs: int
    replannedMs: int
    totalMs: int
    replannedCountsTowardCoverage: bool


class StageSkewDelta(TypedDict):
    baselineStageId: int
    candidateStageId: int
    baselineSkew: float | None
    candidateSkew: float | None


class Budget(TypedDict):
    budget: str
    metric: str
    kind: Literal['relative', 'increase', 'ceiling']
    limit: float
    allowed: float | None
    candidate: float | None
    exceeded: bool
    uncheckedReason: str | None


Direction: TypeAlias = Literal['improvement', 'regression', 'unchanged', 'unavailable', 'notComparable']


class Run(TypedDict):
    label: str
    path: str
    appId: str
    appName: str
    sparkVersion: str
    durationMs: int | None


class StageTotals(TypedDict):
    executorRunTimeMs: int
    executorCpuTimeMs: int
    taskTimeMs: int
    durationMs: int
    jvmGcTimeMs: int
    inputBytes: int
    outputBytes: int
    shuffleReadBytes: int
    shuffleWriteBytes: int
    memorySpillBytes: int
    diskSpillBytes: int
    tasks: int
    failedTasks: int
    taskSkew: float | None
    """
    longest / median successful task duration of the latest attempt
    """


class StageSide(TypedDict):
    stageId: int
    name: str
    executionId: int | None
    totals: StageTotals


class Sides(TypedDict):
    baseline: list[int]
    candidate: list[int]


class StagePair(TypedDict):
    baselineStageId: int
    candidateStageId: int
    baselineExecutionId: int | None
    candidateExecutionId: int | None
    method: Literal['exact', 'structural', 'aligned', 'pinned']
    byPosition: bool
    score: float
    quality: Literal['high', 'medium', 'low', 'pinned']
    ambiguous: bool
    ambiguousWith: Sides


class MetricDelta(TypedDict):
    name: str
    unit: str
    baseline: float | None
    candidate: float | None
    delta: float | None
    relativeChange: float | None
    direction: Direction
    noise: float
    unavailableReason: str | None


class FindingCategory(TypedDict):
    rule: str
    band: Literal['critical', 'high', 'medium', 'low', 'info']
    baseline: int
    candidate: int


class ExecutionDelta(TypedDict):
    baselineExecutionId: int
    candidateExecutionId: int
    description: str
    baselineDurationMs: int | None
    candidateDurationMs: int | None
    deltaMs: int | None
    noiseMs: float
    direction: Direction


class FindingsDelta(TypedDict):
    categories: list[FindingCategory]
    introduced: list[FindingCategory]
    resolved: list[FindingCategory]


class ReplannedItem(TypedDict):
    baselineExecutionId: int
    candidateExecutionId: int
    baselineStageIds: list[int]
    candidateStageIds: list[int]
    baselineTotals: StageTotals
    candidateTotals: StageTotals


class StageDelta(TypedDict):
    pair: StagePair
    baseline: StageSide
    candidate: StageSide
    executorRunTimeDeltaMs: int


class ComparisonDocument(TypedDict):
    """
    The comparison document (compare --format json; docs/comparison-schema.md): a baseline run against a candidate.
    """

    kind: Literal['sparkforensics.comparison']
    schemaVersion: Literal[1]
    comparisonSchemaVersion: Literal[1]
    """
    the same as schemaVersion, kept for readers that look for it
    """
    baseline: Run
    candidate: Run
    confidence: Literal['ok', 'low', 'insufficient']
    banner: str | None
    runtimeCoverage: float | None
    matchedCoverage: float
    comparable: bool
    configurationDifferences: list[ConfigurationDifference]
    metricDeltas: list[MetricDelta]
    executionDeltas: list[ExecutionDelta]
    findingsDelta: FindingsDelta
    executionAlignment: ExecutionAlignment
    stagePairs: list[StagePair]
    unmatched: Sides
    replanned: list[ReplannedItem]
    deltaBookkeeping: Sides
    runTime: RunTime
    stageDeltas: list[StageDelta]
    stageSkewDeltas: list[StageSkewDelta]
    collisionIdentities: list[str]
    baseStages: list[StageSide]
    candStages: list[StageSide]
    normalizePatterns: list[str]
    budgets: list[Budget]
