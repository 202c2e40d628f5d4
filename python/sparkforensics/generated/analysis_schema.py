# Generated from schemas/ by scripts/generate_types.sh (datamodel-code-generator): do not edit.

from __future__ import annotations

from typing import Literal, TypeAlias

from sparkforensics._typed_dict import NotRequired, TypedDict


class Part(TypedDict):
    name: str
    codec: str
    storedBytes: int
    uncompressedBytes: int
    lines: int


class Source(TypedDict):
    path: str
    layout: Literal['file', 'rolling', 'databricks', 'zip', 'stdin']
    inProgress: bool
    parts: list[Part]


class App(TypedDict):
    id: str
    name: str
    attemptId: str | None
    """
    null for single-attempt apps
    """
    user: str
    sparkVersion: str
    """
    "" when not logged
    """
    databricks: bool
    startTimeMs: int | None
    endTimeMs: int | None
    lastEventTimeMs: int | None
    durationMs: int | None
    finished: bool
    exitCode: int | None
    peakConcurrentCores: int
    peakConcurrentExecutors: int
    peakCoresFromExecutorCount: bool
    driverLogs: dict[str, str]


class Rdd(TypedDict):
    rddId: int
    name: str
    storageLevel: str
    numPartitions: int
    numCachedPartitions: int
    memorySizeBytes: int
    diskSizeBytes: int
    callsite: str


class MalformedLine(TypedDict):
    part: str
    line: int
    byteOffset: int
    reason: str


class Diagnostics(TypedDict):
    linesRead: int
    eventsDecoded: int
    blankLines: int
    skippedLines: int
    malformedLines: list[MalformedLine]
    unknownEvents: dict[str, int]
    orphanEvents: dict[str, int]
    incomplete: bool
    truncatedLastLine: bool
    readError: str | None
    missingParts: list[str]
    timesOutsideRun: int
    notes: list[str]


class Threshold(TypedDict):
    name: str
    value: float
    default: float
    unit: str
    overridden: bool


class AnalysisConfig(TypedDict):
    thresholds: list[Threshold]
    guardViolations: list[str]


class ConnectSession(TypedDict):
    sessionId: str
    userId: str
    startMs: int | None
    endMs: int | None
    operations: int


class ConnectOperation(TypedDict):
    operationId: str
    sessionId: str
    jobTag: str
    userId: str
    userName: str
    statement: str
    statementSummary: str
    sessionTags: list[str]
    status: Literal['RUNNING', 'FINISHED', 'FAILED', 'CANCELED']
    startedMs: int | None
    analyzedMs: int | None
    readyMs: int | None
    finishedMs: int | None
    closedMs: int | None
    durationMs: int | None
    error: str
    producedRows: int | None
    jobIds: list[int]
    sqlExecutionIds: list[int]


class StageAttempt(TypedDict):
    stageId: int
    attemptId: int


class ConnectSummary(TypedDict):
    operationId: str
    jobs: int
    stageAttempts: list[StageAttempt]
    taskTimeMs: int
    findingIds: list[str]
    cost: float
    analysisMs: int | None
    planningMs: int | None
    executionMs: int | None
    resultMs: int | None


class PhasesMs(TypedDict):
    triggerExecution: NotRequired[int]
    latestOffset: NotRequired[int]
    getBatch: NotRequired[int]
    queryPlanning: NotRequired[int]
    addBatch: NotRequired[int]
    walCommit: NotRequired[int]
    commitOffsets: NotRequired[int]


class StreamingBatch(TypedDict):
    batchId: int
    startMs: int | None
    durationMs: int
    phasesMs: PhasesMs
    inputRows: int
    inputRowsPerSecond: float | None
    processedRowsPerSecond: float | None
    stateRows: int
    stateRowsUpdated: int
    stateRowsRemoved: int | None
    stateMemoryBytes: int
    rowsDroppedByWatermark: int | None
    shufflePartitions: int | None
    watermarkMs: int | None
    eventTimeMaxMs: int | None
    outputRows: int | None
    jobs: int
    tasks: int
    outputBytes: int
    outputTasks: int


class Trigger(TypedDict):
    intervalMs: int | None
    basis: Literal['alignedStarts', 'backToBack', 'unknown']


class DurationMs(TypedDict):
    p50: int
    p95: int
    p90AfterFirst: int
    max: int
    total: int


class State(TypedDict):
    rowsFirst: int
    rowsLast: int
    rowsMax: int
    memoryLastBytes: int
    memoryMaxBytes: int
    rowsPerBatch: float
    growthFit: float
    rowsRemoved: int | None
    rowsDroppedByWatermark: int | None
    shufflePartitions: int | None


class WatermarkLagMs(TypedDict):
    last: int | None
    max: int | None


class Phase(TypedDict):
    phase: str
    ms: int
    share: float


class StreamingSummary(TypedDict):
    runId: str
    label: str
    status: Literal['RUNNING', 'FINISHED', 'FAILED']
    runDurationMs: int | None
    latestBatchId: int | None
    findingIds: list[str]
    batches: int
    batchesWithInput: int
    trigger: Trigger
    batchesOverTrigger: int
    timeOverTriggerMs: int
    durationMs: DurationMs
    inputRows: int
    inputRowsPerSecond: float | None
    processedRowsPerSecond: float | None
    recentInputRowsPerSecond: float | None
    recentProcessedRowsPerSecond: float | None
    rowsPerBatchP50: int
    tasksPerBatchP50: int
    batchesWithOutput: int
    outputTasksPerBatchP50: int
    outputBytesPerTask: int
    state: State | None
    watermarkLagMs: WatermarkLagMs | None
    phases: list[Phase]


class Quantiles(TypedDict):
    """
    Exact (nearest rank) order statistics over a stage attempt's successful tasks
    """

    count: int
    min: int
    p5: int
    p25: int
    p50: int
    p75: int
    p95: int
    max: int


class ResourceRequest(TypedDict):
    name: str
    amount: float
    discoveryScript: str
    vendor: str


class PlanMetric(TypedDict):
    name: str
    accumulatorId: int
    metricType: str
    value: int | None
    """
    total of the stage values and driver updates; null when none reported it
    """


class PlanNode(TypedDict):
    nodeId: int
    """
    preorder index within its plan
    """
    nodeName: str
    simpleString: str
    children: list[int]
    """
    node ids
    """
    stageIds: list[int]
    """
    the stages this node is attributed to
    """
    metrics: list[PlanMetric]
    metadata: dict[str, str]


class Tasks(TypedDict):
    total: int
    succeeded: int
    failed: int
    killed: int


class Resources(TypedDict):
    name: str
    addresses: list[str]


class Executor(TypedDict):
    executorId: str
    """
    "driver" or a number
    """
    host: str
    totalCores: int
    resourceProfileId: int
    addTimeMs: int | None
    requestTimeMs: int | None
    registrationTimeMs: int | None
    removeTimeMs: int | None
    removeReason: str
    maxMemoryBytes: int
    maxOnHeapMemoryBytes: int | None
    maxOffHeapMemoryBytes: int | None
    tasks: Tasks
    totalDurationMs: int
    totalGcTimeMs: int
    totalInputBytes: int
    totalShuffleReadBytes: int
    totalShuffleWriteBytes: int
    excluded: bool
    excludedInStages: list[int]
    peakMetrics: dict[str, int] | None
    """
    Spark's executor metric names (JVMHeapMemory, OnHeapExecutionMemory, ..., MajorGCTime) -> peak; null when never reported
    """
    resources: dict[str, Resources]
    attributes: dict[str, str]
    logUrls: dict[str, str]


class Job(TypedDict):
    jobId: int
    name: str
    description: str
    jobGroup: str
    status: Literal['RUNNING', 'SUCCEEDED', 'FAILED']
    submissionTimeMs: int | None
    completionTimeMs: int | None
    durationMs: int | None
    failureReason: str
    sqlExecutionId: int | None
    stageIds: list[int]
    numTasks: int
    numCompletedTasks: int
    numSkippedTasks: int
    numFailedTasks: int
    numKilledTasks: int
    numActiveTasks: int
    numCompletedIndices: int
    numActiveStages: int
    numCompletedStages: int
    numSkippedStages: int
    numFailedStages: int


class StageExecutor(TypedDict):
    """
    one executor's tasks within a stage attempt
    """

    executorId: str
    host: str
    tasksSucceeded: int
    tasksFailed: int
    tasksKilled: int
    taskTimeMs: int
    succeededTaskTimeMs: int
    executorRunTimeMs: int
    jvmGcTimeMs: int
    inputBytes: int
    inputRecords: int
    outputBytes: int
    outputRecords: int
    shuffleReadBytes: int
    shuffleReadRecords: int
    shuffleWriteBytes: int
    shuffleWriteRecords: int
    memorySpillBytes: int
    diskSpillBytes: int
    excluded: bool
    peakMetrics: dict[str, int] | None
    """
    Spark's executor metric names (JVMHeapMemory, OnHeapExecutionMemory, ..., MajorGCTime) -> peak; null when never reported
    """


class StageHost(TypedDict):
    """
    a stage attempt's executors rolled up by host
    """

    host: str
    executors: int
    tasksSucceeded: int
    tasksFailed: int
    tasksKilled: int
    taskTimeMs: int
    succeededTaskTimeMs: int
    executorRunTimeMs: int
    jvmGcTimeMs: int
    inputBytes: int
    shuffleReadBytes: int
    shuffleWriteBytes: int
    diskSpillBytes: int


class Tasks1(TypedDict):
    started: int
    succeeded: int
    failed: int
    killed: int
    speculative: int
    active: int
    completedIndices: int
    failedTimeMs: int
    killedTimeMs: int


class FailureReason(TypedDict):
    reason: str
    count: int


class Accumulable(TypedDict):
    id: int
    name: str
    value: str
    """
    as logged
    """


class PlanNode1(TypedDict):
    executionId: int
    nodeId: int


class Stage(TypedDict):
    """
    one stage attempt (or a stage that never ran, as SKIPPED)
    """

    stageId: int
    attemptId: int
    name: str
    status: Literal['ACTIVE', 'COMPLETE', 'FAILED', 'PENDING', 'SKIPPED']
    numTasks: int
    """
    partitions of the stage
    """
    submissionTimeMs: int | None
    firstTaskLaunchedTimeMs: int | None
    completionTimeMs: int | None
    durationMs: int | None
    failureReason: str
    description: str
    schedulingPool: str
    jobIds: list[int]
    sqlExecutionId: int | None
    parentIds: list[int]
    rddIds: list[int]
    resourceProfileId: int
    shufflePushEnabled: bool
    tasks: Tasks1
    localityCounts: dict[str, int]
    """
    task attempts started per locality level (PROCESS_LOCAL, NODE_LOCAL, NO_PREF, RACK_LOCAL, ANY)
    """
    metrics: dict[str, int]
    """
    sums over every attempt that reported metrics, by metric name (durationMs, executorRunTimeMs, ..., shuffleReadBytes)
    """
    quantiles: dict[str, Quantiles]
    """
    per metric name: exact quantiles over successful attempts
    """
    maxTaskDurationMs: int
    maxTaskDurationTaskId: int | None
    killedTasksSummary: dict[str, int]
    """
    kill reason -> count
    """
    failureReasons: list[FailureReason]
    executors: list[StageExecutor]
    hosts: list[StageHost]
    peakExecutorMetrics: dict[str, int] | None
    """
    Spark's executor metric names (JVMHeapMemory, OnHeapExecutionMemory, ..., MajorGCTime) -> peak; null when never reported
    """
    accumulables: list[Accumulable]
    planNodes: list[PlanNode1]
    details: str
    """
    the call site
    """


class DriverAccumUpdate(TypedDict):
    accumulatorId: int
    value: int


class EarlierPlan(TypedDict):
    nodes: list[PlanNode]


class AdaptiveMetric(TypedDict):
    name: str
    accumulatorId: int
    metricType: str


class SqlExecution(TypedDict):
    """
    one SQL execution
    """

    executionId: int
    rootExecutionId: int | None
    description: str
    startTimeMs: int | None
    endTimeMs: int | None
    durationMs: int | None
    errorMessage: str | None
    """
    as logged: Spark 3.4 and later write "" on success
    """
    jobIds: list[int]
    stageIds: list[int]
    adaptiveUpdates: int
    planNodeCount: int
    modifiedConfigs: dict[str, str]
    driverAccumUpdates: list[DriverAccumUpdate]
    plan: list[PlanNode]
    """
    the final plan, nodes in preorder
    """
    earlierPlans: list[EarlierPlan]
    """
    superseded plans, oldest first
    """
    adaptiveMetrics: list[AdaptiveMetric]
    physicalPlanDescription: str
    details: str


class WallClock(TypedDict):
    lowMs: float
    highMs: float


class RawWaste(TypedDict):
    value: float
    unit: Literal['ms', 'coreMs', 'bytes', 'coreHours', 'mbSeconds']


class ImpactEstimate(TypedDict):
    basis: Literal['serial', 'contended', 'resourceOnly', 'informational']
    wallClock: WallClock | None
    estimateMethod: Literal['measured', 'modeled', 'none']
    rawWaste: RawWaste | None


class Setting(TypedDict):
    key: str
    suggestedValue: str
    """
    "" when none can be computed
    """
    currentValue: str
    """
    "" when the log does not set it
    """
    effectiveValue: str
    """
    the value in effect: as set, else Spark's default
    """


class EvidenceItem(TypedDict):
    name: str
    value: float
    unit: str


class Threshold1(TypedDict):
    name: str
    value: float


ImpactBand: TypeAlias = Literal['critical', 'high', 'medium', 'low', 'info']


class RecoverableMs(TypedDict):
    """
    time tier
    """

    low: float
    high: float


class BandCounts(TypedDict):
    critical: NotRequired[int]
    high: NotRequired[int]
    medium: NotRequired[int]
    low: NotRequired[int]
    info: NotRequired[int]


class RollupGroup(TypedDict):
    type: str
    tier: Literal['time', 'resource', 'count']
    label: Literal['recoverable wall-clock', 'resource-cost projection', 'count']
    recoverableMs: NotRequired[RecoverableMs]
    """
    time tier
    """
    naiveSumHighMs: NotRequired[float]
    """
    time tier
    """
    fixFirst: NotRequired[bool]
    """
    time tier: worth leading "Fix these first" with
    """
    unit: NotRequired[Literal['ms', 'coreMs', 'bytes', 'coreHours', 'mbSeconds']]
    """
    resource tier
    """
    total: NotRequired[float]
    """
    resource tier
    """
    bandCounts: BandCounts
    bestImpactBand: ImpactBand
    bestFindingId: str
    findingIds: list[str]


class DynamicAllocation(TypedDict):
    enabled: bool
    minExecutors: int
    initialExecutors: int
    maxExecutors: int | None
    """
    null: no bound
    """
    idleTimeoutMs: float


class Cluster(TypedDict):
    localMode: bool
    executors: int
    coresPerExecutor: int
    coresEstimated: bool
    taskCpus: int
    executorMemoryGib: float
    driverCores: float
    driverMemoryGib: float
    executorStartupMs: float
    dynamicAllocation: DynamicAllocation


class TimeSplit(TypedDict):
    """
    null without an application start
    """

    durationMs: float
    driverOnlyMs: float
    executorMs: float
    driverOnlyShare: float | None
    executorShare: float | None
    beforeFirstJobMs: float
    betweenJobsMs: float
    afterLastJobMs: float
    gapsOverOneSecond: int
    longestGapMs: float


class Job1(TypedDict):
    jobId: int
    durationMs: float
    driverOnlyMs: float
    beforeFirstStageMs: float
    inStagesMs: float
    betweenStagesMs: float
    afterLastStageMs: float
    cost: float | None


class SqlItem(TypedDict):
    executionId: int
    durationMs: float
    driverOnlyMs: float
    beforeFirstJobMs: float
    inJobsMs: float
    betweenJobsMs: float
    afterLastJobMs: float
    cost: float | None


class Stage1(TypedDict):
    stageId: int
    attemptId: int
    waitMs: float
    longestTaskMs: float
    floorMs: float


class CriticalPath(TypedDict):
    """
    null without an application start
    """

    wallClockMs: float
    driverOnlyMs: float
    chainMs: float
    lengthMs: float
    idealChainMs: float
    idealMs: float
    idealCores: float
    stages: list[Stage1]


class AllocationRamp(TypedDict):
    """
    only under a ramp slower than Spark's default
    """

    executors: int
    allocationRatio: float
    sustainedBacklogTimeoutMs: float
    settingsMs: float
    executorStartupMs: float
    defaultRampMs: float
    defaultRatioMs: float
    defaultRoundsMs: float
    settingsExecutorHours: float
    defaultRampExecutorHours: float


class CurveItem(TypedDict):
    executors: int
    predictedMs: float
    simulatedMs: float
    executorHours: float
    cost: float


class WhatIf(TypedDict):
    """
    null without an application start or duration
    """

    coresPerExecutor: int
    todayExecutors: int
    peakExecutors: int
    dynamicAllocation: bool
    measuredMs: float
    todaySimulatedMs: float
    todayError: float
    kneeExecutors: int
    kneeMs: float
    bestMs: float
    kneeShare: float
    allocationRamp: NotRequired[AllocationRamp]
    """
    only under a ramp slower than Spark's default
    """
    curve: list[CurveItem]


class RateCard(TypedDict):
    name: str
    currency: str
    perCoreHour: float
    perGibHour: float
    source: str
    asOf: str


class Stage2(TypedDict):
    stageId: int
    attemptId: int
    cost: float


class Finding1(TypedDict):
    findingId: str
    low: float
    high: float


class Cost(TypedDict):
    rateCard: RateCard
    total: float
    executors: float
    driver: float
    driverOnly: float
    coreHours: float
    gibHours: float
    stages: list[Stage2]
    findings: list[Finding1]


class Economics(TypedDict):
    """
    where the time and the money go (docs/economics.md)
    """

    cluster: Cluster
    timeSplit: TimeSplit | None
    """
    null without an application start
    """
    jobs: list[Job1]
    sql: list[SqlItem]
    criticalPath: CriticalPath | None
    """
    null without an application start
    """
    whatIf: WhatIf | None
    """
    null without an application start or duration
    """
    cost: Cost


class ResourceProfile(TypedDict):
    id: int
    executorResources: list[ResourceRequest]
    taskResources: list[ResourceRequest]


class Environment(TypedDict):
    jvmInformation: dict[str, str]
    sparkProperties: dict[str, str]
    systemProperties: dict[str, str]
    hadoopProperties: dict[str, str]
    metricsProperties: dict[str, str]
    classpathEntryCount: int
    resourceProfiles: list[ResourceProfile]


class StreamingQuery(TypedDict):
    id: str
    runId: str
    name: str
    startMs: int | None
    terminated: bool
    exception: str | None
    errorClass: str | None
    sources: list[str]
    sink: str
    stateOperators: list[str]
    jobTags: list[str]
    idleEvents: int
    batchesNotKept: int
    batches: list[StreamingBatch]


class AnalysisDocument(TypedDict):
    """
    The analysis document (analyze --format json; docs/analysis-schema.md): one analyzed event log.
    """

    kind: Literal['sparkforensics.analysis']
    schemaVersion: Literal[1]
    source: Source
    app: App
    environment: Environment
    executors: list[Executor]
    jobs: list[Job]
    stages: list[Stage]
    sql: list[SqlExecution]
    rdds: list[Rdd]
    streamingQueries: list[StreamingQuery]
    """
    Structured Streaming query runs and their micro-batches (model/streaming_query.h)
    """
    connectSessions: list[ConnectSession]
    """
    Spark Connect client sessions (model/connect_session.h)
    """
    connectOperations: list[ConnectOperation]
    """
    The operations Spark Connect clients sent, with the jobs each ran
    """
    diagnostics: Diagnostics
    findings: list[Finding]
    rollup: list[RollupGroup]
    analysisConfig: AnalysisConfig
    economics: Economics
    streaming: list[StreamingSummary]
    """
    Each streaming query run's figures (analysis/models/streaming_summary.h), in streamingQueries' order
    """
    connect: list[ConnectSummary]
    """
    What each Spark Connect operation cost (analysis/economics/connect_cost.h), in connectOperations' order
    """


class AlsoAnswer(TypedDict):
    why: str
    finding: Finding


class Finding(TypedDict):
    id: str
    """
    stable: type/rule/scope-key
    """
    type: str
    rule: str
    """
    the variant or rule; may be ""
    """
    scope: Literal['app', 'stage', 'sql', 'config']
    stageIds: list[int]
    stageAttempts: list[StageAttempt]
    sqlExecutionId: int | None
    title: str
    explanation: str
    recommendation: str
    settings: list[Setting]
    evidence: list[EvidenceItem]
    thresholds: list[Threshold1]
    confidence: Literal['low', 'medium', 'high']
    impactBand: ImpactBand
    validationRequired: str | None
    """
    what to check before trusting the magnitude; null when nothing
    """
    impactEstimate: ImpactEstimate
    alsoAnswers: list[AlsoAnswer]
    """
    findings the same change answers, folded into this one
    """
