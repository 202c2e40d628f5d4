// The documents the pages read are generated from schemas/ (scripts/generate_types.sh writes
// src/generated/; docs/*-schema.md say what each field means): re-exported here under the names
// the pages use. Hand-written below: what is no document, the dashboard API's own answers
// (docs/server.md, "Its JSON API") and the pages' view models.
import type { ImpactBand, StageExecutor, StageHost } from './generated/analysis';
import type { PlanDiffDocument } from './generated/plan-diff';
import type { VerdictDocument } from './generated/verdict';

export type {
  AnalysisDocument, ConnectOperation, ConnectSession, ConnectSummary, Economics, Executor, Finding, ImpactBand, Job,
  PlanNode, Quantiles, RollupGroup, SqlExecution, Stage, StageExecutor, StageHost, StreamingBatch, StreamingQuery,
  StreamingSummary,
} from './generated/analysis';
export type { TimelineDocument } from './generated/timeline';
export type {
  ComparisonDocument, Direction, FindingCategory, MetricDelta, Run, StagePair, StageSide, StageTotals,
} from './generated/comparison';
export type { DiffNode, NodeChange, PlanDiffDocument } from './generated/plan-diff';
export type { Evaluation, PointRef, Verdict, VerdictDocument } from './generated/verdict';
export type { FleetRow, FleetSummaryDocument } from './generated/fleet-summary';

export const IMPACT_BANDS: ImpactBand[] = ['critical', 'high', 'medium', 'low', 'info'];

// A row of a stage's per-executor or per-host table.
export type StageExecutorRow = (StageExecutor & { executors?: undefined }) | (StageHost & { executorId?: undefined });

// One plan diff as compare's HTML report inlines them (a list's entries): the document without
// its kind and schemaVersion.
export type PlanDiff = Omit<PlanDiffDocument, 'kind' | 'schemaVersion'>;

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

// GET history/...: the verdict document and the results behind it.
export interface StoredResultRow {
  id: string; order: number; subject: string; revision: string; parents: string[]; runKey: string;
  round: number | null; slot: number | null; status: string; parameters: Record<string, string>;
  environment: Record<string, string>; log: string | null;
}
export interface HistoryAnswer { store: string; results: StoredResultRow[]; document: VerdictDocument }
export interface SubjectRow { subject: string; results: number; revisions: number; runKeys: string[]; lastOrder: number }

// GET /api/sf/v1/logs/L/stages/S/A/tasks (src/server/dashboard/stage_task_page.h): a page of one stage
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
