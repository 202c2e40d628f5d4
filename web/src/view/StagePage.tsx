// Stages: the list (longest first, a page at a time), and one stage attempt's drill-down: task
// duration and input-size distributions (histograms of its successful tasks from the server, and
// the model's exact quantiles), spill, GC and shuffle, the per-executor and per-host tables, its
// tasks a page at a time in any order (the server sorts: a stage of 100,000 tasks never comes
// whole), the SQL plan nodes attributed to it and its findings. A report opened from a file has
// no server: its distributions are the quantiles alone.
import { useMemo, useState } from 'preact/hooks';
import { api, isReport } from '../api';
import { formatBytes, formatCount, formatMs } from '../format';
import { currentRoute } from '../route';
import type { AnalysisDocument, Histogram, Quantiles, Stage, StageExecutorRow, StageTasksPage, TaskSortColumn } from '../types';
import { Chart, type ChartOption } from './charts';
import { FindingCard } from './FindingCard';
import { Link } from './Link';
import { useAnswer } from './useAnswer';

const PAGE = 100;
const QUANTILES: (keyof Quantiles)[] = ['min', 'p5', 'p25', 'p50', 'p75', 'p95', 'max'];

function quantileOption(q: Quantiles, format: (v: number) => string): ChartOption {
  return {
    tooltip: { trigger: 'axis', valueFormatter: (v: number) => format(v) },
    grid: { left: 70, right: 16, top: 16, bottom: 30 },
    xAxis: { type: 'category', data: QUANTILES },
    yAxis: { type: 'value', axisLabel: { formatter: (v: number) => format(v) } },
    series: [{ type: 'bar', data: QUANTILES.map((k) => q[k]), itemStyle: { color: '#5b8def' } }],
  };
}

function histogramOption(h: Histogram, format: (v: number) => string): ChartOption {
  const bins = h.counts.map((_, i) => `${format(h.edges[i])} – ${format(h.edges[i + 1])}`);
  return {
    tooltip: { trigger: 'axis' },
    grid: { left: 50, right: 16, top: 16, bottom: 30 },
    xAxis: { type: 'category', data: bins, axisLabel: { formatter: (_: string, i: number) => format(h.edges[i]) } },
    yAxis: { type: 'value', name: 'tasks', minInterval: 1 },
    series: [{ type: 'bar', data: h.counts, barCategoryGap: '4%', itemStyle: { color: '#5b8def' } }],
  };
}

function Distribution({ title, q, histogram, format }: {
  title: string; q: Quantiles | undefined; histogram?: Histogram; format: (v: number) => string }) {
  const option = useMemo(() => (histogram ? histogramOption(histogram, format) : q ? quantileOption(q, format) : null),
                         [q, histogram]);
  if (!q || !option) return <div class="dist"><h3>{title}</h3><p class="muted">Not recorded for this stage.</p></div>;
  const quantiles = QUANTILES.map((k) => `${k} ${format(q[k])}`).join(', ');
  const label = histogram ? `${title}, tasks per range: ${histogram.counts.map((c, i) => `${format(histogram.edges[i])}: ${c}`).join(', ')}`
    : `${title}: ${quantiles}`;
  return (
    <div class="dist" data-shows={histogram ? 'histogram' : 'quantiles'}>
      <h3>{title}</h3>
      <Chart option={option} height={200} label={label} />
      <p class="muted">{formatCount(q.count)} successful tasks · median {format(q.p50)} · p95 {format(q.p95)} · max {format(q.max)}</p>
    </div>
  );
}

const TASKS_PAGE = 50;
const TASK_COLUMNS: { key: TaskSortColumn; label: string; format: (v: number) => string }[] = [
  { key: 'index', label: 'index', format: String },
  { key: 'taskId', label: 'task', format: String },
  { key: 'launchTime', label: 'launched', format: (v) => new Date(v).toISOString().slice(11, 23) },
  { key: 'durationMs', label: 'duration', format: formatMs },
  { key: 'executorRunTimeMs', label: 'run time', format: formatMs },
  { key: 'jvmGcTimeMs', label: 'GC', format: formatMs },
  { key: 'inputBytes', label: 'input', format: formatBytes },
  { key: 'shuffleReadBytes', label: 'shuffle read', format: formatBytes },
  { key: 'shuffleWriteBytes', label: 'shuffle write', format: formatBytes },
  { key: 'diskSpillBytes', label: 'spill (disk)', format: formatBytes },
];

// The stage's tasks, a page at a time in the order asked: the server sorts and pages.
function TaskTable({ page }: { page: StageTasksPage | null }) {
  return page === null ? null : (
    <table class="grid compact tasks">
      <caption class="visually-hidden">Tasks of this stage attempt</caption>
      <thead><tr>{TASK_COLUMNS.map((c) => <th key={c.key}>{c.label}</th>)}<th>status</th><th>executor</th><th>host</th></tr></thead>
      <tbody>{page.tasks.map((t) => (
        <tr key={t.taskId} class={t.status === 'SUCCESS' ? '' : 'failed'}>
          {TASK_COLUMNS.map((c) => <td key={c.key}>{c.format(t[c.key])}</td>)}
          <td title={t.errorMessage}>{t.status}{t.attempt > 0 ? ` (attempt ${t.attempt})` : ''}{t.speculative ? ', speculative' : ''}</td>
          <td>{t.executorId}</td><td>{t.host}</td>
        </tr>))}</tbody>
    </table>
  );
}

function TaskPanel({ stage, state, setState, answer }: {
  stage: Stage; state: TaskOrder; setState: (s: TaskOrder) => void;
  answer: { data: StageTasksPage | null; error: { message: string } | null } }) {
  const { data, error } = answer;
  const total = data?.total ?? stage.numTasks;
  return (
    <section class="panel" aria-labelledby="tasks-title">
      <h2 id="tasks-title">Tasks</h2>
      <div class="filters" role="group" aria-label="Order the tasks by">
        <label>order by <select value={state.sortBy} onChange={(e) => setState({ ...state, offset: 0,
          sortBy: (e.target as HTMLSelectElement).value as TaskSortColumn })}>
          {TASK_COLUMNS.map((c) => <option key={c.key} value={c.key}>{c.label}</option>)}</select></label>
        <button type="button" aria-pressed={state.descending} onClick={() => setState({ ...state, offset: 0, descending: !state.descending })}>
          {state.descending ? 'largest first' : 'smallest first'}</button>
      </div>
      {error ? <p class="error" role="alert">{error.message}</p> : !data ? <p aria-live="polite">Reading the stage's tasks…</p> : (
        <>
          <TaskTable page={data} />
          <div class="pager">
            <button type="button" disabled={state.offset === 0}
                    onClick={() => setState({ ...state, offset: Math.max(0, state.offset - TASKS_PAGE) })}>Previous</button>
            <span>{formatCount(Math.min(total, state.offset + 1))}–{formatCount(Math.min(total, state.offset + TASKS_PAGE))} of {formatCount(total)}</span>
            <button type="button" disabled={state.offset + TASKS_PAGE >= total}
                    onClick={() => setState({ ...state, offset: state.offset + TASKS_PAGE })}>Next</button>
          </div>
        </>
      )}
    </section>
  );
}

interface TaskOrder { offset: number; sortBy: TaskSortColumn; descending: boolean }

function RowsTable({ rows, caption, first }: { rows: StageExecutorRow[]; caption: string; first: 'executor' | 'host' }) {
  return (
    <table class="grid compact">
      <caption>{caption}</caption>
      <thead><tr><th>{first}</th>{first === 'executor' && <th>host</th>}<th>tasks ok/failed/killed</th><th>task time</th>
        <th>GC</th><th>input</th><th>shuffle read</th><th>shuffle write</th><th>spill (disk)</th></tr></thead>
      <tbody>{rows.slice(0, 500).map((r) => (
        <tr key={r.executorId ?? r.host}>
          <td>{first === 'executor' ? r.executorId : `${r.host} (${r.executors ?? 0})`}</td>
          {first === 'executor' && <td>{r.host}</td>}
          <td>{r.tasksSucceeded}/{r.tasksFailed}/{r.tasksKilled}</td><td>{formatMs(r.taskTimeMs)}</td>
          <td>{formatMs(r.jvmGcTimeMs)}</td><td>{formatBytes(r.inputBytes)}</td><td>{formatBytes(r.shuffleReadBytes)}</td>
          <td>{formatBytes(r.shuffleWriteBytes)}</td><td>{formatBytes(r.diskSpillBytes)}</td>
        </tr>))}</tbody>
    </table>
  );
}

function StageDetail({ doc, stage }: { doc: AnalysisDocument; stage: Stage }) {
  const log = currentRoute().log;
  const [order, setOrder] = useState<TaskOrder>({ offset: 0, sortBy: 'durationMs', descending: true });
  // About the square root of the task count in bins: a few for a handful of tasks, at most 40.
  const bins = Math.min(40, Math.max(4, Math.ceil(Math.sqrt(stage.numTasks))));
  const tasks = useAnswer(isReport() || log === null ? null : () => api.stageTasks(log, stage.stageId, stage.attemptId, order.offset, TASKS_PAGE,
                                                                                  order.sortBy, order.descending, bins),
                          `${log}\n${stage.stageId}.${stage.attemptId}\n${order.offset}\n${order.sortBy}\n${order.descending}`);
  // The histograms are the stage's, whatever page is shown: kept from the first answer.
  const [histograms, setHistograms] = useState<{ key: string; value: StageTasksPage['histograms'] } | null>(null);
  const stageKey = `${log}\n${stage.stageId}.${stage.attemptId}`;
  if (tasks.data && histograms?.key !== stageKey) setHistograms({ key: stageKey, value: tasks.data.histograms });
  const shown = histograms?.key === stageKey ? histograms.value : {};
  const findings = doc.findings.filter((f) => f.stageAttempts.some((s) => s.stageId === stage.stageId && s.attemptId === stage.attemptId));
  const m = stage.metrics ?? {};
  const nodes = stage.planNodes.map((p) => {
    const execution = doc.sql.find((x) => x.executionId === p.executionId);
    return { ...p, node: execution?.plan[p.nodeId] };
  });
  return (
    <div class="stage">
      <section class="panel">
        <h2>Stage {stage.stageId}.{stage.attemptId}: {stage.name}</h2>
        <p class="muted">{stage.status} · {formatMs(stage.durationMs)} · {formatCount(stage.numTasks)} tasks
          ({stage.tasks.failed} failed, {stage.tasks.killed} killed, {stage.tasks.speculative} speculative)
          {stage.jobIds.length > 0 && ` · job ${stage.jobIds.join(', ')}`}</p>
        <dl class="facts">
          <div><dt>task time</dt><dd>{formatMs(m.executorRunTimeMs)}</dd></div>
          <div><dt>GC</dt><dd>{formatMs(m.jvmGcTimeMs)}</dd></div>
          <div><dt>input</dt><dd>{formatBytes(m.inputBytes)}</dd></div>
          <div><dt>shuffle read</dt><dd>{formatBytes(m.shuffleReadBytes)}</dd></div>
          <div><dt>shuffle write</dt><dd>{formatBytes(m.shuffleWriteBytes)}</dd></div>
          <div><dt>spill (memory)</dt><dd>{formatBytes(m.memorySpillBytes)}</dd></div>
          <div><dt>spill (disk)</dt><dd>{formatBytes(m.diskSpillBytes)}</dd></div>
          <div><dt>fetch wait</dt><dd>{formatMs(m.shuffleFetchWaitTimeMs)}</dd></div>
        </dl>
        {stage.failureReason && <p class="error">{stage.failureReason}</p>}
      </section>
      <section class="panel dists">
        <Distribution title="Task duration" q={stage.quantiles?.durationMs} histogram={shown.durationMs} format={formatMs} />
        {(stage.quantiles?.inputBytes?.max ?? 0) > 0 || !stage.quantiles?.shuffleReadBytes ? (
          <Distribution title="Task input size" q={stage.quantiles?.inputBytes} histogram={shown.inputBytes} format={formatBytes} />
        ) : (
          <Distribution title="Task shuffle read size (no input read)" q={stage.quantiles.shuffleReadBytes}
                        histogram={shown.shuffleReadBytes} format={formatBytes} />
        )}
      </section>
      {!isReport() && <TaskPanel stage={stage} state={order} setState={setOrder} answer={tasks} />}
      <section class="panel">
        <h2>Where it ran</h2>
        <RowsTable rows={stage.executors} caption="Per executor" first="executor" />
        <RowsTable rows={stage.hosts} caption="Per host" first="host" />
      </section>
      <section class="panel">
        <h2>SQL plan nodes</h2>
        {nodes.length === 0 ? <p class="muted">No SQL plan node is attributed to this stage.</p> : (
          <ul class="plain">{nodes.map((n) => (
            <li key={`${n.executionId}-${n.nodeId}`}>
              <Link to={{ log, view: 'sql', args: [String(n.executionId)] }}>execution {n.executionId}</Link>, node {n.nodeId}:{' '}
              <code>{n.node?.nodeName ?? '?'}</code></li>))}</ul>
        )}
      </section>
      <section class="panel">
        <h2>Findings about this stage</h2>
        {findings.length === 0 ? <p class="muted">None.</p> : findings.map((f) => <FindingCard key={f.id} finding={f} />)}
      </section>
    </div>
  );
}

export function StagePage({ doc, args }: { doc: AnalysisDocument; args: string[] }) {
  const [page, setPage] = useState(0);
  const log = currentRoute().log;
  const sorted = useMemo(() => [...doc.stages].sort((a, b) => (b.durationMs ?? -1) - (a.durationMs ?? -1)), [doc]);
  const findingCount = useMemo(() => {
    const counts = new Map<string, number>();
    for (const f of doc.findings) for (const s of f.stageAttempts) {
      counts.set(`${s.stageId}.${s.attemptId}`, (counts.get(`${s.stageId}.${s.attemptId}`) ?? 0) + 1);
    }
    return counts;
  }, [doc]);
  if (args.length >= 1) {
    const stage = doc.stages.find((s) => String(s.stageId) === args[0] && (args.length < 2 || String(s.attemptId) === args[1]));
    if (!stage) return <section class="panel"><p role="alert">No stage {args.join('.')} in this application.</p></section>;
    return <StageDetail doc={doc} stage={stage} />;
  }
  const shown = sorted.slice(page * PAGE, page * PAGE + PAGE);
  return (
    <section class="panel">
      <h2>Stages <span class="muted">· longest first</span></h2>
      <table class="grid">
        <thead><tr><th>stage</th><th>name</th><th>status</th><th>duration</th><th>tasks</th><th>input</th>
          <th>shuffle read</th><th>spill (disk)</th><th>findings</th></tr></thead>
        <tbody>{shown.map((s) => (
          <tr key={`${s.stageId}.${s.attemptId}`}>
            <td><Link to={{ log, view: 'stages', args: [String(s.stageId), String(s.attemptId)] }}>{s.stageId}.{s.attemptId}</Link></td>
            <td class="name">{s.name}</td><td>{s.status}</td><td>{formatMs(s.durationMs)}</td><td>{formatCount(s.numTasks)}</td>
            <td>{formatBytes(s.metrics?.inputBytes)}</td><td>{formatBytes(s.metrics?.shuffleReadBytes)}</td>
            <td>{formatBytes(s.metrics?.diskSpillBytes)}</td><td>{findingCount.get(`${s.stageId}.${s.attemptId}`) ?? 0}</td>
          </tr>))}</tbody>
      </table>
      {sorted.length > PAGE && (
        <div class="pager">
          <button type="button" disabled={page === 0} onClick={() => setPage(page - 1)}>Previous</button>
          <span>{page * PAGE + 1}–{Math.min(sorted.length, page * PAGE + PAGE)} of {sorted.length}</span>
          <button type="button" disabled={(page + 1) * PAGE >= sorted.length} onClick={() => setPage(page + 1)}>Next</button>
        </div>
      )}
    </section>
  );
}
