// Generated from schemas/analysis.schema.json by scripts/generate_types.sh (json-schema-to-typescript): do not edit.

export type ImpactBand = "critical" | "high" | "medium" | "low" | "info";

/**
 * The analysis document (analyze --format json; docs/analysis-schema.md): one analyzed event log.
 */
export interface AnalysisDocument {
  kind: "sparkforensics.analysis";
  schemaVersion: 1;
  source: {
    path: string;
    layout: "file" | "rolling" | "databricks" | "zip" | "stdin";
    inProgress: boolean;
    parts: {
      name: string;
      codec: string;
      storedBytes: number;
      uncompressedBytes: number;
      lines: number;
    }[];
  };
  app: {
    id: string;
    name: string;
    /**
     * null for single-attempt apps
     */
    attemptId: string | null;
    user: string;
    /**
     * "" when not logged
     */
    sparkVersion: string;
    databricks: boolean;
    startTimeMs: number | null;
    endTimeMs: number | null;
    lastEventTimeMs: number | null;
    durationMs: number | null;
    finished: boolean;
    exitCode: number | null;
    peakConcurrentCores: number;
    peakConcurrentExecutors: number;
    peakCoresFromExecutorCount: boolean;
    driverLogs: {
      [k: string]: string;
    };
  };
  environment: {
    jvmInformation: {
      [k: string]: string;
    };
    sparkProperties: {
      [k: string]: string;
    };
    systemProperties: {
      [k: string]: string;
    };
    hadoopProperties: {
      [k: string]: string;
    };
    metricsProperties: {
      [k: string]: string;
    };
    classpathEntryCount: number;
    resourceProfiles: {
      id: number;
      executorResources: ResourceRequest[];
      taskResources: ResourceRequest[];
    }[];
  };
  executors: Executor[];
  jobs: Job[];
  stages: Stage[];
  sql: SqlExecution[];
  rdds: {
    rddId: number;
    name: string;
    storageLevel: string;
    numPartitions: number;
    numCachedPartitions: number;
    memorySizeBytes: number;
    diskSizeBytes: number;
    callsite: string;
  }[];
  /**
   * Structured Streaming query runs and their micro-batches (model/streaming_query.h)
   */
  streamingQueries: StreamingQuery[];
  /**
   * Spark Connect client sessions (model/connect_session.h)
   */
  connectSessions: ConnectSession[];
  /**
   * The operations Spark Connect clients sent, with the jobs each ran
   */
  connectOperations: ConnectOperation[];
  diagnostics: {
    linesRead: number;
    eventsDecoded: number;
    blankLines: number;
    skippedLines: number;
    malformedLines: {
      part: string;
      line: number;
      byteOffset: number;
      reason: string;
    }[];
    unknownEvents: {
      [k: string]: number;
    };
    orphanEvents: {
      [k: string]: number;
    };
    incomplete: boolean;
    truncatedLastLine: boolean;
    readError: string | null;
    missingParts: string[];
    timesOutsideRun: number;
    notes: string[];
  };
  findings: Finding[];
  rollup: RollupGroup[];
  analysisConfig: {
    thresholds: {
      name: string;
      value: number;
      default: number;
      unit: string;
      overridden: boolean;
    }[];
    guardViolations: string[];
  };
  economics: Economics;
  /**
   * Each streaming query run's figures (analysis/models/streaming_summary.h), in streamingQueries' order
   */
  streaming: StreamingSummary[];
  /**
   * What each Spark Connect operation cost (analysis/economics/connect_cost.h), in connectOperations' order
   */
  connect: ConnectSummary[];
}
export interface ResourceRequest {
  name: string;
  amount: number;
  discoveryScript: string;
  vendor: string;
}
export interface Executor {
  /**
   * "driver" or a number
   */
  executorId: string;
  host: string;
  totalCores: number;
  resourceProfileId: number;
  addTimeMs: number | null;
  requestTimeMs: number | null;
  registrationTimeMs: number | null;
  removeTimeMs: number | null;
  removeReason: string;
  maxMemoryBytes: number;
  maxOnHeapMemoryBytes: number | null;
  maxOffHeapMemoryBytes: number | null;
  tasks: {
    total: number;
    succeeded: number;
    failed: number;
    killed: number;
  };
  totalDurationMs: number;
  totalGcTimeMs: number;
  totalInputBytes: number;
  totalShuffleReadBytes: number;
  totalShuffleWriteBytes: number;
  excluded: boolean;
  excludedInStages: number[];
  /**
   * Spark's executor metric names (JVMHeapMemory, OnHeapExecutionMemory, ..., MajorGCTime) -> peak; null when never reported
   */
  peakMetrics: {
    [k: string]: number;
  } | null;
  resources: {
    [k: string]: {
      name: string;
      addresses: string[];
    };
  };
  attributes: {
    [k: string]: string;
  };
  logUrls: {
    [k: string]: string;
  };
}
export interface Job {
  jobId: number;
  name: string;
  description: string;
  jobGroup: string;
  status: "RUNNING" | "SUCCEEDED" | "FAILED";
  submissionTimeMs: number | null;
  completionTimeMs: number | null;
  durationMs: number | null;
  failureReason: string;
  sqlExecutionId: number | null;
  stageIds: number[];
  numTasks: number;
  numCompletedTasks: number;
  numSkippedTasks: number;
  numFailedTasks: number;
  numKilledTasks: number;
  numActiveTasks: number;
  numCompletedIndices: number;
  numActiveStages: number;
  numCompletedStages: number;
  numSkippedStages: number;
  numFailedStages: number;
}
/**
 * one stage attempt (or a stage that never ran, as SKIPPED)
 */
export interface Stage {
  stageId: number;
  attemptId: number;
  name: string;
  status: "ACTIVE" | "COMPLETE" | "FAILED" | "PENDING" | "SKIPPED";
  /**
   * partitions of the stage
   */
  numTasks: number;
  submissionTimeMs: number | null;
  firstTaskLaunchedTimeMs: number | null;
  completionTimeMs: number | null;
  durationMs: number | null;
  failureReason: string;
  description: string;
  schedulingPool: string;
  jobIds: number[];
  sqlExecutionId: number | null;
  parentIds: number[];
  rddIds: number[];
  resourceProfileId: number;
  shufflePushEnabled: boolean;
  tasks: {
    started: number;
    succeeded: number;
    failed: number;
    killed: number;
    speculative: number;
    active: number;
    completedIndices: number;
    failedTimeMs: number;
    killedTimeMs: number;
  };
  /**
   * task attempts started per locality level (PROCESS_LOCAL, NODE_LOCAL, NO_PREF, RACK_LOCAL, ANY)
   */
  localityCounts: {
    [k: string]: number;
  };
  /**
   * sums over every attempt that reported metrics, by metric name (durationMs, executorRunTimeMs, ..., shuffleReadBytes)
   */
  metrics: {
    [k: string]: number;
  };
  /**
   * per metric name: exact quantiles over successful attempts
   */
  quantiles: {
    [k: string]: Quantiles;
  };
  maxTaskDurationMs: number;
  maxTaskDurationTaskId: number | null;
  /**
   * kill reason -> count
   */
  killedTasksSummary: {
    [k: string]: number;
  };
  failureReasons: {
    reason: string;
    count: number;
  }[];
  executors: StageExecutor[];
  hosts: StageHost[];
  /**
   * Spark's executor metric names (JVMHeapMemory, OnHeapExecutionMemory, ..., MajorGCTime) -> peak; null when never reported
   */
  peakExecutorMetrics: {
    [k: string]: number;
  } | null;
  accumulables: {
    id: number;
    name: string;
    /**
     * as logged
     */
    value: string;
  }[];
  planNodes: {
    executionId: number;
    nodeId: number;
  }[];
  /**
   * the call site
   */
  details: string;
}
/**
 * Exact (nearest rank) order statistics over a stage attempt's successful tasks
 */
export interface Quantiles {
  count: number;
  min: number;
  p5: number;
  p25: number;
  p50: number;
  p75: number;
  p95: number;
  max: number;
}
/**
 * one executor's tasks within a stage attempt
 */
export interface StageExecutor {
  executorId: string;
  host: string;
  tasksSucceeded: number;
  tasksFailed: number;
  tasksKilled: number;
  taskTimeMs: number;
  succeededTaskTimeMs: number;
  executorRunTimeMs: number;
  jvmGcTimeMs: number;
  inputBytes: number;
  inputRecords: number;
  outputBytes: number;
  outputRecords: number;
  shuffleReadBytes: number;
  shuffleReadRecords: number;
  shuffleWriteBytes: number;
  shuffleWriteRecords: number;
  memorySpillBytes: number;
  diskSpillBytes: number;
  excluded: boolean;
  /**
   * Spark's executor metric names (JVMHeapMemory, OnHeapExecutionMemory, ..., MajorGCTime) -> peak; null when never reported
   */
  peakMetrics: {
    [k: string]: number;
  } | null;
}
/**
 * a stage attempt's executors rolled up by host
 */
export interface StageHost {
  host: string;
  executors: number;
  tasksSucceeded: number;
  tasksFailed: number;
  tasksKilled: number;
  taskTimeMs: number;
  succeededTaskTimeMs: number;
  executorRunTimeMs: number;
  jvmGcTimeMs: number;
  inputBytes: number;
  shuffleReadBytes: number;
  shuffleWriteBytes: number;
  diskSpillBytes: number;
}
/**
 * one SQL execution
 */
export interface SqlExecution {
  executionId: number;
  rootExecutionId: number | null;
  description: string;
  startTimeMs: number | null;
  endTimeMs: number | null;
  durationMs: number | null;
  /**
   * as logged: Spark 3.4 and later write "" on success
   */
  errorMessage: string | null;
  jobIds: number[];
  stageIds: number[];
  adaptiveUpdates: number;
  planNodeCount: number;
  modifiedConfigs: {
    [k: string]: string;
  };
  driverAccumUpdates: {
    accumulatorId: number;
    value: number;
  }[];
  /**
   * the final plan, nodes in preorder
   */
  plan: PlanNode[];
  /**
   * superseded plans, oldest first
   */
  earlierPlans: {
    nodes: PlanNode[];
  }[];
  adaptiveMetrics: {
    name: string;
    accumulatorId: number;
    metricType: string;
  }[];
  physicalPlanDescription: string;
  details: string;
}
export interface PlanNode {
  /**
   * preorder index within its plan
   */
  nodeId: number;
  nodeName: string;
  simpleString: string;
  /**
   * node ids
   */
  children: number[];
  /**
   * the stages this node is attributed to
   */
  stageIds: number[];
  metrics: PlanMetric[];
  metadata: {
    [k: string]: string;
  };
}
export interface PlanMetric {
  name: string;
  accumulatorId: number;
  metricType: string;
  /**
   * total of the stage values and driver updates; null when none reported it
   */
  value: number | null;
}
export interface StreamingQuery {
  id: string;
  runId: string;
  name: string;
  startMs: number | null;
  terminated: boolean;
  exception: string | null;
  errorClass: string | null;
  sources: string[];
  sink: string;
  stateOperators: string[];
  jobTags: string[];
  idleEvents: number;
  batchesNotKept: number;
  batches: StreamingBatch[];
}
export interface StreamingBatch {
  batchId: number;
  startMs: number | null;
  durationMs: number;
  phasesMs: {
    triggerExecution?: number;
    latestOffset?: number;
    getBatch?: number;
    queryPlanning?: number;
    addBatch?: number;
    walCommit?: number;
    commitOffsets?: number;
  };
  inputRows: number;
  inputRowsPerSecond: number | null;
  processedRowsPerSecond: number | null;
  stateRows: number;
  stateRowsUpdated: number;
  stateRowsRemoved: number | null;
  stateMemoryBytes: number;
  rowsDroppedByWatermark: number | null;
  shufflePartitions: number | null;
  watermarkMs: number | null;
  eventTimeMaxMs: number | null;
  outputRows: number | null;
  jobs: number;
  tasks: number;
  outputBytes: number;
  outputTasks: number;
}
export interface ConnectSession {
  sessionId: string;
  userId: string;
  startMs: number | null;
  endMs: number | null;
  operations: number;
}
export interface ConnectOperation {
  operationId: string;
  sessionId: string;
  jobTag: string;
  userId: string;
  userName: string;
  statement: string;
  statementSummary: string;
  sessionTags: string[];
  status: "RUNNING" | "FINISHED" | "FAILED" | "CANCELED";
  startedMs: number | null;
  analyzedMs: number | null;
  readyMs: number | null;
  finishedMs: number | null;
  closedMs: number | null;
  durationMs: number | null;
  error: string;
  producedRows: number | null;
  jobIds: number[];
  sqlExecutionIds: number[];
}
export interface Finding {
  /**
   * stable: type/rule/scope-key
   */
  id: string;
  type: string;
  /**
   * the variant or rule; may be ""
   */
  rule: string;
  scope: "app" | "stage" | "sql" | "config";
  stageIds: number[];
  stageAttempts: {
    stageId: number;
    attemptId: number;
  }[];
  sqlExecutionId: number | null;
  title: string;
  explanation: string;
  recommendation: string;
  settings: {
    key: string;
    /**
     * "" when none can be computed
     */
    suggestedValue: string;
    /**
     * "" when the log does not set it
     */
    currentValue: string;
    /**
     * the value in effect: as set, else Spark's default
     */
    effectiveValue: string;
  }[];
  evidence: {
    name: string;
    value: number;
    unit: string;
  }[];
  thresholds: {
    name: string;
    value: number;
  }[];
  confidence: "low" | "medium" | "high";
  impactBand: ImpactBand;
  /**
   * what to check before trusting the magnitude; null when nothing
   */
  validationRequired: string | null;
  impactEstimate: ImpactEstimate;
  /**
   * findings the same change answers, folded into this one
   */
  alsoAnswers: {
    why: string;
    finding: Finding;
  }[];
}
export interface ImpactEstimate {
  basis: "serial" | "contended" | "resourceOnly" | "informational";
  wallClock: {
    lowMs: number;
    highMs: number;
  } | null;
  estimateMethod: "measured" | "modeled" | "none";
  rawWaste: {
    value: number;
    unit: "ms" | "coreMs" | "bytes" | "coreHours" | "mbSeconds";
  } | null;
}
export interface RollupGroup {
  type: string;
  tier: "time" | "resource" | "count";
  label: "recoverable wall-clock" | "resource-cost projection" | "count";
  /**
   * time tier
   */
  recoverableMs?: {
    low: number;
    high: number;
  };
  /**
   * time tier
   */
  naiveSumHighMs?: number;
  /**
   * time tier: worth leading "Fix these first" with
   */
  fixFirst?: boolean;
  /**
   * resource tier
   */
  unit?: "ms" | "coreMs" | "bytes" | "coreHours" | "mbSeconds";
  /**
   * resource tier
   */
  total?: number;
  bandCounts: {
    critical?: number;
    high?: number;
    medium?: number;
    low?: number;
    info?: number;
  };
  bestImpactBand: ImpactBand;
  bestFindingId: string;
  findingIds: string[];
}
/**
 * where the time and the money go (docs/economics.md)
 */
export interface Economics {
  cluster: {
    localMode: boolean;
    executors: number;
    coresPerExecutor: number;
    coresEstimated: boolean;
    taskCpus: number;
    executorMemoryGib: number;
    driverCores: number;
    driverMemoryGib: number;
    executorStartupMs: number;
    dynamicAllocation: {
      enabled: boolean;
      minExecutors: number;
      initialExecutors: number;
      /**
       * null: no bound
       */
      maxExecutors: number | null;
      idleTimeoutMs: number;
    };
  };
  /**
   * null without an application start
   */
  timeSplit: {
    durationMs: number;
    driverOnlyMs: number;
    executorMs: number;
    driverOnlyShare: number | null;
    executorShare: number | null;
    beforeFirstJobMs: number;
    betweenJobsMs: number;
    afterLastJobMs: number;
    gapsOverOneSecond: number;
    longestGapMs: number;
  } | null;
  jobs: {
    jobId: number;
    durationMs: number;
    driverOnlyMs: number;
    beforeFirstStageMs: number;
    inStagesMs: number;
    betweenStagesMs: number;
    afterLastStageMs: number;
    cost: number | null;
  }[];
  sql: {
    executionId: number;
    durationMs: number;
    driverOnlyMs: number;
    beforeFirstJobMs: number;
    inJobsMs: number;
    betweenJobsMs: number;
    afterLastJobMs: number;
    cost: number | null;
  }[];
  /**
   * null without an application start
   */
  criticalPath: {
    wallClockMs: number;
    driverOnlyMs: number;
    chainMs: number;
    lengthMs: number;
    idealChainMs: number;
    idealMs: number;
    idealCores: number;
    stages: {
      stageId: number;
      attemptId: number;
      waitMs: number;
      longestTaskMs: number;
      floorMs: number;
    }[];
  } | null;
  /**
   * null without an application start or duration
   */
  whatIf: {
    coresPerExecutor: number;
    todayExecutors: number;
    peakExecutors: number;
    dynamicAllocation: boolean;
    measuredMs: number;
    todaySimulatedMs: number;
    todayError: number;
    kneeExecutors: number;
    kneeMs: number;
    bestMs: number;
    kneeShare: number;
    /**
     * only under a ramp slower than Spark's default
     */
    allocationRamp?: {
      executors: number;
      allocationRatio: number;
      sustainedBacklogTimeoutMs: number;
      settingsMs: number;
      executorStartupMs: number;
      defaultRampMs: number;
      defaultRatioMs: number;
      defaultRoundsMs: number;
      settingsExecutorHours: number;
      defaultRampExecutorHours: number;
    };
    curve: {
      executors: number;
      predictedMs: number;
      simulatedMs: number;
      executorHours: number;
      cost: number;
    }[];
  } | null;
  cost: {
    rateCard: {
      name: string;
      currency: string;
      perCoreHour: number;
      perGibHour: number;
      source: string;
      asOf: string;
    };
    total: number;
    executors: number;
    driver: number;
    driverOnly: number;
    coreHours: number;
    gibHours: number;
    stages: {
      stageId: number;
      attemptId: number;
      cost: number;
    }[];
    findings: {
      findingId: string;
      low: number;
      high: number;
    }[];
  };
}
export interface StreamingSummary {
  runId: string;
  label: string;
  status: "RUNNING" | "FINISHED" | "FAILED";
  runDurationMs: number | null;
  latestBatchId: number | null;
  findingIds: string[];
  batches: number;
  batchesWithInput: number;
  trigger: {
    intervalMs: number | null;
    basis: "alignedStarts" | "backToBack" | "unknown";
  };
  batchesOverTrigger: number;
  timeOverTriggerMs: number;
  durationMs: {
    p50: number;
    p95: number;
    p90AfterFirst: number;
    max: number;
    total: number;
  };
  inputRows: number;
  inputRowsPerSecond: number | null;
  processedRowsPerSecond: number | null;
  recentInputRowsPerSecond: number | null;
  recentProcessedRowsPerSecond: number | null;
  rowsPerBatchP50: number;
  tasksPerBatchP50: number;
  batchesWithOutput: number;
  outputTasksPerBatchP50: number;
  outputBytesPerTask: number;
  state: {
    rowsFirst: number;
    rowsLast: number;
    rowsMax: number;
    memoryLastBytes: number;
    memoryMaxBytes: number;
    rowsPerBatch: number;
    growthFit: number;
    rowsRemoved: number | null;
    rowsDroppedByWatermark: number | null;
    shufflePartitions: number | null;
  } | null;
  watermarkLagMs: {
    last: number | null;
    max: number | null;
  } | null;
  phases: {
    phase: string;
    ms: number;
    share: number;
  }[];
}
export interface ConnectSummary {
  operationId: string;
  jobs: number;
  stageAttempts: {
    stageId: number;
    attemptId: number;
  }[];
  taskTimeMs: number;
  findingIds: string[];
  cost: number;
  analysisMs: number | null;
  planningMs: number | null;
  executionMs: number | null;
  resultMs: number | null;
}
