// The parts of the analysis document (docs/analysis-schema.md) and of the dashboard API
// (docs/server.md, "The dashboard's JSON API") that the pages read.

export type ImpactBand = 'critical' | 'high' | 'medium' | 'low' | 'info';
export const IMPACT_BANDS: ImpactBand[] = ['critical', 'high', 'medium', 'low', 'info'];

export interface Quantiles { count: number; min: number; p5: number; p25: number; p50: number; p75: number; p95: number; max: number }

export interface Finding {
  id: string; type: string; rule: string; scope: string;
  stageIds: number[]; stageAttempts: { stageId: number; attemptId: number }[];
  sqlExecutionId: number | null;
  title: string; explanation: string; recommendation: string;
  settings: { key: string; suggestedValue: string; currentValue: string; effectiveValue?: string }[];
  evidence: { name: string; value: number; unit: string }[];
  confidence: string; impactBand: ImpactBand; validationRequired: string | null;
  impactEstimate: { basis: string; wallClock: { lowMs: number; highMs: number } | null; estimateMethod: string;
                    rawWaste: { value: number; unit: string } | null };
  // Findings the same change answers, folded into this one (one fix, one entry).
  alsoAnswers?: { why: string; finding: Finding }[];
}

export interface RollupGroup {
  type: string; tier: 'time' | 'resource' | 'count'; label: string;
  recoverableMs?: { low: number; high: number }; fixFirst?: boolean;
  unit?: string; total?: number;
  bandCounts: Partial<Record<ImpactBand, number>>; bestImpactBand: ImpactBand;
  bestFindingId: string; findingIds: string[];
}

export interface StageExecutorRow {
  executorId?: string; host: string; executors?: number;
  tasksSucceeded: number; tasksFailed: number; tasksKilled: number; taskTimeMs: number;
  executorRunTimeMs: number; jvmGcTimeMs: number; inputBytes: number; shuffleReadBytes: number;
  shuffleWriteBytes: number; memorySpillBytes: number; diskSpillBytes: number;
}

export interface Stage {
  stageId: number; attemptId: number; name: string; status: string; numTasks: number;
  submissionTimeMs: number | null; completionTimeMs: number | null; durationMs: number | null;
  failureReason: string; jobIds: number[]; sqlExecutionId: number | null;
  tasks: { started: number; succeeded: number; failed: number; killed: number; speculative: number };
  metrics: Record<string, number>;
  quantiles: Record<string, Quantiles> | null;
  executors: StageExecutorRow[]; hosts: StageExecutorRow[];
  planNodes: { executionId: number; nodeId: number }[];
}

export interface PlanNode {
  nodeId: number; nodeName: string; simpleString: string; children: number[]; stageIds: number[];
  metrics: { name: string; accumulatorId: number; metricType: string; value: number | null }[];
}

export interface SqlExecution {
  executionId: number; description: string; startTimeMs: number | null; endTimeMs: number | null;
  durationMs: number | null; jobIds: number[]; stageIds: number[]; adaptiveUpdates: number;
  plan: PlanNode[]; earlierPlans: { nodes: PlanNode[] }[];
}

export interface Executor {
  executorId: string; host: string; totalCores: number; addTimeMs: number | null; removeTimeMs: number | null;
  removeReason: string;
}

export interface Job {
  jobId: number; name: string; status: string; submissionTimeMs: number | null; completionTimeMs: number | null;
  durationMs: number | null; stageIds: number[]; sqlExecutionId: number | null;
}

export interface AnalysisDocument {
  schemaVersion: number;
  source: { path: string; layout: string; inProgress: boolean };
  app: { id: string; name: string; attemptId: string | null; user: string; sparkVersion: string;
         startTimeMs: number | null; endTimeMs: number | null; durationMs: number | null; finished: boolean;
         peakConcurrentCores: number };
  environment: { sparkProperties: Record<string, string>; systemProperties: Record<string, string>;
                 hadoopProperties: Record<string, string>; jvmInformation: Record<string, string> };
  executors: Executor[]; jobs: Job[]; stages: Stage[]; sql: SqlExecution[];
  diagnostics: { linesRead: number; skippedLines: number; incomplete: boolean; readError: string | null };
  findings: Finding[]; rollup: RollupGroup[];
  economics?: Economics;
}

// Where the time and the money go (docs/economics.md; analysis-schema.md lists every field).
export interface Economics {
  cluster: { localMode: boolean; executors: number; coresPerExecutor: number };
  timeSplit: { durationMs: number; driverOnlyMs: number; executorMs: number; driverOnlyShare: number | null;
               beforeFirstJobMs: number; betweenJobsMs: number; afterLastJobMs: number } | null;
  criticalPath: { wallClockMs: number; lengthMs: number; idealMs: number; idealCores: number;
                  stages: { stageId: number; attemptId: number; floorMs: number }[] } | null;
  // Under dynamic allocation todayExecutors is its maxExecutors (docs/economics.md), and
  // peakExecutors the most the run held at once.
  whatIf: { todayExecutors: number; peakExecutors: number; dynamicAllocation: boolean; coresPerExecutor: number;
            measuredMs: number; todaySimulatedMs: number; kneeExecutors: number; kneeMs: number; bestMs: number;
            curve: { executors: number; predictedMs: number; cost: number }[] } | null;
  cost: { rateCard: { name: string; currency: string }; total: number; driverOnly: number };
}

// GET /api/sf/v1/logs/<log>/timeline: the occupancy model's view of the run.
export interface TimelineDocument {
  stages: { stageId: number; attemptId: number; startMs: number; endMs: number; gate: number; coreWeight: number;
            windowCores: number }[];
  coresAllocated: [number, number][];
  coresBusy: [number, number][];
}

// Where a listed log came from: the log directory, an upload (~u1) or a History Server download (~h1).
export type ApplicationSource = 'log-dir' | 'upload' | 'download';

export interface ApplicationRow {
  log: string; source: ApplicationSource; fileName: string;  // the file's name as listed, uploaded or downloaded
  appId: string; attemptId: string | null; name: string; user: string;
  startTimeMs: number | null; endTimeMs: number | null; durationMs: number | null; completed: boolean;
  storedBytes: number;
  analysis: { findings: number; bandCounts: Partial<Record<ImpactBand, number>>;
              topRecoverableMs: { low: number; high: number } | null; topType: string | null } | null;
}

export interface ParseStatus {
  id: string; log: string | null; state: 'queued' | 'fetching' | 'parsing' | 'done' | 'failed';
  bytesDone: number; bytesTotal: number; lines: number; elapsedMs: number; etaMs: number | null;
  error: { code: string; message: string } | null;
}

// --- The comparison document (compare -f json, GET compare; docs/comparison-schema.md).
export type Direction = 'improvement' | 'regression' | 'unchanged' | 'unavailable' | 'notComparable';

export interface StageTotals {
  executorRunTimeMs: number; executorCpuTimeMs: number; taskTimeMs: number; durationMs: number; jvmGcTimeMs: number;
  inputBytes: number; outputBytes: number; shuffleReadBytes: number; shuffleWriteBytes: number;
  memorySpillBytes: number; diskSpillBytes: number; tasks: number; failedTasks: number; taskSkew: number | null;
}
export interface StageSide { stageId: number; name: string; executionId: number | null; totals: StageTotals }
export interface StagePairDoc {
  baselineStageId: number; candidateStageId: number; baselineExecutionId: number | null;
  candidateExecutionId: number | null; method: 'exact' | 'structural' | 'aligned' | 'pinned'; byPosition: boolean;
  score: number; quality: string; ambiguous: boolean; ambiguousWith: { baseline: number[]; candidate: number[] };
}
export interface MetricDeltaDoc {
  name: string; unit: string; baseline: number | null; candidate: number | null; delta: number | null;
  relativeChange: number | null; direction: Direction; noise: number; unavailableReason: string | null;
}
export interface FindingCategory { rule: string; band: ImpactBand; baseline: number; candidate: number }
export interface RunDoc { label: string; path: string; appId: string; appName: string; sparkVersion: string; durationMs: number | null }
export interface ComparisonDocument {
  comparisonSchemaVersion: number;
  baseline: RunDoc; candidate: RunDoc;
  confidence: 'ok' | 'low' | 'insufficient'; banner: string | null;
  runtimeCoverage: number | null; matchedCoverage: number; comparable: boolean;
  configurationDifferences: { key: string; baseline: string | null; candidate: string | null;
                              baselineEffective: string | null; candidateEffective: string | null; sameInEffect: boolean }[];
  metricDeltas: MetricDeltaDoc[];
  executionDeltas: { baselineExecutionId: number; candidateExecutionId: number; description: string;
                     baselineDurationMs: number | null; candidateDurationMs: number | null; deltaMs: number | null;
                     noiseMs: number; direction: Direction }[];
  findingsDelta: { categories: FindingCategory[]; introduced: FindingCategory[]; resolved: FindingCategory[] };
  executionAlignment: { baselineExecutions: number; candidateExecutions: number; paired: number;
                        agreement: number | null; accepted: boolean; bounded: boolean;
                        pairs: { baselineExecutionId: number; candidateExecutionId: number; score: number }[] };
  stagePairs: StagePairDoc[];
  unmatched: { baseline: number[]; candidate: number[] };
  replanned: { baselineExecutionId: number; candidateExecutionId: number; baselineStageIds: number[];
               candidateStageIds: number[]; baselineTotals: StageTotals; candidateTotals: StageTotals }[];
  deltaBookkeeping: { baseline: number[]; candidate: number[] };
  runTime: { pairedMs: number; replannedMs: number; totalMs: number; replannedCountsTowardCoverage: boolean };
  stageDeltas: { pair: StagePairDoc; baseline: StageSide; candidate: StageSide; executorRunTimeDeltaMs: number }[];
  baseStages: StageSide[]; candStages: StageSide[];
}

// GET compare/plan: report/plan_diff_json.h.
export type NodeChange = 'same' | 'changed' | 'removed' | 'added';
export interface DiffNode { nodeId: number; nodeName: string; simpleString: string; children: number[]; stageIds: number[];
                            change: NodeChange; counterpart: number | null }
export interface PlanDiffDocument {
  baselineExecutionId: number; candidateExecutionId: number; description: string;
  counts: Record<NodeChange, number>;
  baseline: { executionId: number; durationMs: number | null; nodes: DiffNode[] };
  candidate: { executionId: number; durationMs: number | null; nodes: DiffNode[] };
}

// --- The result store and the comparator (GET history/...; the verdict's comparison document,
// report/verdict_json.h and docs/comparator.md).
export type Verdict = 'improved' | 'regressed' | 'changed' | 'no-change-detected' | 'indeterminate';
export interface PointRef { resultId: string; revision: string; value: number | null; status: string; nativeOrder: number;
                            ancestryDistance?: number; continuity?: string[] }
export interface Evaluation {
  series: { fingerprint: string; label: string; identity: Record<string, string>; quantity: string; unit: string;
            direction: string; deterministic: boolean; estimator: string };
  unit?: string;
  target: PointRef | null; ordering: string; reference: PointRef[];
  pairs: { round: number; baselineResult: string; targetResult: string; baseline: number; target: number }[];
  boundaries: { kind: string; at: string; reason: string; points: number }[];
  exclusions: { resultId: string; reason: string }[]; exclusionsNotListed: number; caveats: string[];
  outcome: { referenceEstimate: number | null; targetEstimate: number | null;
             effect: { measure: string; value: number | null };
             noise: { value: number | null; source: string; provisional: boolean };
             threshold: number | null; interval95: [number, number] | null; evidenceCount: number };
  verdict: Verdict; reason: string; detail: string;
}
export interface VerdictDocument {
  mode: 'history' | 'run' | 'batch';
  method: { name: string; version: number; config: Record<string, unknown> };
  identityPolicy: { schema: string; version: number };
  run?: { runKey: string; profile: string; coordinate: string; baseline: string; target: string; units: string[]; localOnly: boolean };
  batchTarget?: string;
  evaluations: Evaluation[];
  failedInvariants: { name: string; unit: string; detail: string }[];
  missing: { fingerprint: string; label: string; lastResultId: string }[];
  caveats: string[];
}
export interface StoredResultRow {
  id: string; order: number; subject: string; revision: string; parents: string[]; runKey: string;
  round: number | null; slot: number | null; status: string; parameters: Record<string, string>;
  environment: Record<string, string>; log: string | null;
}
export interface HistoryAnswer { store: string; results: StoredResultRow[]; document: VerdictDocument }
export interface SubjectRow { subject: string; results: number; revisions: number; runKeys: string[]; lastOrder: number }

// GET /api/sf/v1/fleet (src/server/fleet_api.h): each subject's latest result, ranked and counted.
export interface FleetRow {
  subject: string; resultId: string; order: number; status: string; revision: string;
  appWallClockMs: number | null; cost: { value: number; currency: string } | null;
  // null: a result stored before results carried the analysis quantities
  recoverableMs: { low: number | null; high: number } | null; findings: number | null;
  results?: number;  // trend rows: the subject's results in the store
}
export interface FleetAnswer {
  store: string; subjects: number; withoutAnalysis: number; limit: number;
  recoverable: FleetRow[];
  costs: { currency: string; applications: number; top: FleetRow[] }[];
  findingTypes: { type: string; applications: number; findings: number }[];
  trend: { offset: number; total: number; quantities: string[]; rows: FleetRow[]; document: VerdictDocument };
}

// GET /api/sf/v1/logs/L/stages/S/A/tasks (src/server/stage_task_page.h): a page of one stage
// attempt's tasks and histograms over its successful tasks.
export interface TaskRow {
  taskId: number; index: number; attempt: number; status: string; executorId: string; host: string;
  locality: string; speculative: boolean; launchTime: number; durationMs: number; executorRunTimeMs: number;
  jvmGcTimeMs: number; inputBytes: number; shuffleReadBytes: number; shuffleWriteBytes: number;
  memorySpillBytes: number; diskSpillBytes: number; errorMessage?: string;
}
export interface Histogram { edges: number[]; counts: number[]; tasks: number }
export type TaskSortColumn = 'taskId' | 'index' | 'launchTime' | 'durationMs' | 'executorRunTimeMs' | 'jvmGcTimeMs' |
  'inputBytes' | 'shuffleReadBytes' | 'shuffleWriteBytes' | 'memorySpillBytes' | 'diskSpillBytes';
export interface StageTasksPage {
  total: number; offset: number; tasks: TaskRow[];
  histograms: Partial<Record<'durationMs' | 'inputBytes' | 'shuffleReadBytes', Histogram>>;
}
