// Generated from schemas/comparison.schema.json by scripts/generate_types.sh (json-schema-to-typescript): do not edit.

export type Direction = "improvement" | "regression" | "unchanged" | "unavailable" | "notComparable";

/**
 * The comparison document (compare --format json; docs/comparison-schema.md): a baseline run against a candidate.
 */
export interface ComparisonDocument {
  kind: "sparkforensics.comparison";
  schemaVersion: 1;
  /**
   * the same as schemaVersion, kept for readers that look for it
   */
  comparisonSchemaVersion: 1;
  baseline: Run;
  candidate: Run;
  confidence: "ok" | "low" | "insufficient";
  banner: string | null;
  runtimeCoverage: number | null;
  matchedCoverage: number;
  comparable: boolean;
  configurationDifferences: {
    key: string;
    baseline: string | null;
    candidate: string | null;
    baselineEffective: string | null;
    candidateEffective: string | null;
    sameInEffect: boolean;
  }[];
  metricDeltas: MetricDelta[];
  executionDeltas: {
    baselineExecutionId: number;
    candidateExecutionId: number;
    description: string;
    baselineDurationMs: number | null;
    candidateDurationMs: number | null;
    deltaMs: number | null;
    noiseMs: number;
    direction: Direction;
  }[];
  findingsDelta: {
    categories: FindingCategory[];
    introduced: FindingCategory[];
    resolved: FindingCategory[];
  };
  executionAlignment: {
    baselineExecutions: number;
    candidateExecutions: number;
    paired: number;
    agreement: number | null;
    accepted: boolean;
    bounded: boolean;
    pairs: {
      baselineExecutionId: number;
      candidateExecutionId: number;
      score: number;
    }[];
  };
  stagePairs: StagePair[];
  unmatched: Sides;
  replanned: {
    baselineExecutionId: number;
    candidateExecutionId: number;
    baselineStageIds: number[];
    candidateStageIds: number[];
    baselineTotals: StageTotals;
    candidateTotals: StageTotals;
  }[];
  deltaBookkeeping: Sides;
  runTime: {
    pairedMs: number;
    replannedMs: number;
    totalMs: number;
    replannedCountsTowardCoverage: boolean;
  };
  stageDeltas: {
    pair: StagePair;
    baseline: StageSide;
    candidate: StageSide;
    executorRunTimeDeltaMs: number;
  }[];
  stageSkewDeltas: {
    baselineStageId: number;
    candidateStageId: number;
    baselineSkew: number | null;
    candidateSkew: number | null;
  }[];
  collisionIdentities: string[];
  baseStages: StageSide[];
  candStages: StageSide[];
  normalizePatterns: string[];
  budgets: {
    budget: string;
    metric: string;
    kind: "relative" | "increase" | "ceiling";
    limit: number;
    allowed: number | null;
    candidate: number | null;
    exceeded: boolean;
    uncheckedReason: string | null;
  }[];
}
export interface Run {
  label: string;
  path: string;
  appId: string;
  appName: string;
  sparkVersion: string;
  durationMs: number | null;
}
export interface MetricDelta {
  name: string;
  unit: string;
  baseline: number | null;
  candidate: number | null;
  delta: number | null;
  relativeChange: number | null;
  direction: Direction;
  noise: number;
  unavailableReason: string | null;
}
export interface FindingCategory {
  rule: string;
  band: "critical" | "high" | "medium" | "low" | "info";
  baseline: number;
  candidate: number;
}
export interface StagePair {
  baselineStageId: number;
  candidateStageId: number;
  baselineExecutionId: number | null;
  candidateExecutionId: number | null;
  method: "exact" | "structural" | "aligned" | "pinned";
  byPosition: boolean;
  score: number;
  quality: "high" | "medium" | "low" | "pinned";
  ambiguous: boolean;
  ambiguousWith: Sides;
}
export interface Sides {
  baseline: number[];
  candidate: number[];
}
export interface StageTotals {
  executorRunTimeMs: number;
  executorCpuTimeMs: number;
  taskTimeMs: number;
  durationMs: number;
  jvmGcTimeMs: number;
  inputBytes: number;
  outputBytes: number;
  shuffleReadBytes: number;
  shuffleWriteBytes: number;
  memorySpillBytes: number;
  diskSpillBytes: number;
  tasks: number;
  failedTasks: number;
  /**
   * longest / median successful task duration of the latest attempt
   */
  taskSkew: number | null;
}
export interface StageSide {
  stageId: number;
  name: string;
  executionId: number | null;
  totals: StageTotals;
}
