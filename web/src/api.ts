// The dashboard's data: the JSON API of `serve` (/api/sf/v1), or, in a report written by
// `analyze --format html` or `compare --format html`, the documents inlined in the page (no
// server, opened from file://).
import type { AnalysisDocument, ApplicationRow, ComparisonDocument, FleetSummaryDocument, HistoryAnswer, ParseStatus, PlanDiff,
              PlanDiffDocument, StageTasksPage, SubjectRow, TaskSortColumn, TimelineDocument } from './types';

// analyze's report holds analysis and timeline; compare's, comparison and planDiffs.
export interface InlinedReport { analysis: AnalysisDocument; timeline: TimelineDocument }
export interface InlinedComparison { comparison: ComparisonDocument; planDiffs: PlanDiff[] }

let inlined: InlinedReport | null | undefined;
export function inlinedReport(): InlinedReport | null {
  if (inlined === undefined) {
    const element = document.getElementById('sf-report');
    const data = element?.textContent ? JSON.parse(element.textContent) as Partial<InlinedReport & InlinedComparison> : null;
    inlinedComparisonData = data?.comparison ? data as InlinedComparison : null;
    inlined = data?.analysis ? data as InlinedReport : null;
  }
  return inlined;
}
let inlinedComparisonData: InlinedComparison | null = null;
export function inlinedComparison(): InlinedComparison | null {
  inlinedReport();
  return inlinedComparisonData;
}
// Either kind of self-contained page: no server behind it.
export function isReport(): boolean { return inlinedReport() !== null || inlinedComparison() !== null; }
export const REPORT_LOG = 'report';

// An error the API answered with its stable code ({"error": {"code", "message"}}).
export class ApiError extends Error {
  constructor(readonly status: number, readonly code: string, message: string) { super(message); }
}

const BASE = '/api/sf/v1';

async function request<T>(path: string, init?: RequestInit): Promise<T> {
  let response: Response;
  try {
    // The header tells the server this page sent it (a POST without it is refused as another site's).
    response = await fetch(BASE + path, { ...init, headers: { ...(init?.headers ?? {}), 'X-SparkForensics': '1' } });
  } catch {
    throw new ApiError(0, 'unreachable', 'The SparkForensics server did not answer: is `sparkforensics serve` still running?');
  }
  const text = await response.text();
  let body: unknown = null;
  try { body = text ? JSON.parse(text) : null; } catch { body = null; }
  if (!response.ok) {
    const error = (body as { error?: { code?: string; message?: string } } | null)?.error;
    throw new ApiError(response.status, error?.code ?? `http-${response.status}`, error?.message ?? text.trim());
  }
  return body as T;
}

const enc = encodeURIComponent;

export const api = {
  applications: (offset: number, limit: number, q: string) =>
    request<{ total: number; offset: number; applications: ApplicationRow[] }>(
      `/applications?offset=${offset}&limit=${limit}&q=${enc(q)}`),
  limits: () => request<{ maxUploadBytes: number; maxFolderFiles: number }>('/limits'),
  startParse: (log: string) => request<ParseStatus>(`/parses?log=${enc(log)}`, { method: 'POST' }),
  parse: (id: string) => request<ParseStatus>(`/parses/${enc(id)}`),
  analysis: (log: string) => request<AnalysisDocument>(`/logs/${enc(log)}/analysis`),
  timeline: (log: string) => request<TimelineDocument>(`/logs/${enc(log)}/timeline`),
  stageTasks: (log: string, stageId: number, attemptId: number, offset: number, length: number, sortBy: TaskSortColumn,
               descending: boolean, bins: number) =>
    request<StageTasksPage>(`/logs/${enc(log)}/stages/${stageId}/${attemptId}/tasks?offset=${offset}&length=${length}` +
                            `&sortBy=${sortBy}&order=${descending ? 'desc' : 'asc'}&bins=${bins}`),
  upload: (file: Blob, name: string, folder?: { name: string; upload: string | null }) => {
    let query = `?name=${enc(name)}`;
    if (folder) query += `&folder=${enc(folder.name)}` + (folder.upload ? `&upload=${enc(folder.upload)}` : '');
    return request<{ upload: string; log: string }>(`/uploads${query}`, {
      method: 'POST', body: file, headers: { 'Content-Type': 'application/octet-stream' } });
  },
  compare: (base: string, cand: string, pins: string[]) =>
    request<ComparisonDocument>(`/compare?base=${enc(base)}&cand=${enc(cand)}` + pins.map((p) => `&pin=${enc(p)}`).join('')),
  planDiff: (base: string, cand: string, baseExecution: number, candExecution: number) =>
    request<PlanDiffDocument>(`/compare/plan?base=${enc(base)}&cand=${enc(cand)}&baseExecution=${baseExecution}` +
                              `&candExecution=${candExecution}`),
  subjects: () => request<{ store: string; subjects: SubjectRow[] }>('/history/subjects'),
  series: (subject: string, quantity?: string, fingerprint?: string) =>
    request<HistoryAnswer>(`/history/series?subject=${enc(subject)}` +
                           (quantity ? `&quantity=${enc(quantity)}` : '') + (fingerprint ? `&fingerprint=${enc(fingerprint)}` : '')),
  run: (runKey: string, profile: string, baseline: string, coordinate: string) =>
    request<HistoryAnswer>(`/history/run?runKey=${enc(runKey)}&profile=${enc(profile)}&baseline=${enc(baseline)}` +
                           (coordinate ? `&coordinate=${enc(coordinate)}` : '')),
  batch: (target: { revision?: string; runKey?: string }) =>
    request<HistoryAnswer>(`/history/batch?` + (target.revision ? `revision=${enc(target.revision)}` : `runKey=${enc(target.runKey ?? '')}`)),
  fleet: (limit: number, trendOffset: number, trendLimit: number) =>
    request<FleetSummaryDocument>(`/fleet?limit=${limit}&trendOffset=${trendOffset}&trendLimit=${trendLimit}`),
  historyServer: (baseUrl: string, appId: string, attemptId: string) =>
    request<ParseStatus>(`/history-server?baseUrl=${enc(baseUrl)}&appId=${enc(appId)}&attemptId=${enc(attemptId)}`,
                         { method: 'POST' }),
};
