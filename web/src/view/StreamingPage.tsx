// Structured Streaming: Spark UI's Structured Streaming tab for a log. The list of query runs
// (the tab's columns: name, status, id, run id, start, duration, average input and process rates,
// latest batch, error), and one run's page: its trigger, durations, rates, state and watermark,
// charts per micro-batch (duration against the inferred trigger, input against processed rows
// per second, input rows, state rows and memory, the phases' time stacked), the batch table and
// the run's findings. Every figure is the analysis document's ("streamingQueries", the model's,
// and "streaming", the analysis's summaries, each naming its findings): the page only draws them,
// so a report opened from a file has the same pages as `serve`.
import { useMemo } from 'preact/hooks';
import { formatBytes, formatCount, formatDate, formatMs, formatPercent, formatRate } from '../format';
import { currentRoute } from '../route';
import type { AnalysisDocument, StreamingQuery, StreamingSummary } from '../types';
import { Chart, type ChartOption } from './charts';
import { RunStatus } from './badges';
import { FindingCard } from './FindingCard';
import { Link } from './Link';

const BLUE = '#5b8def';
const ORANGE = '#e8742a';
const GREEN = '#3aa876';
const PURPLE = '#9a8fd8';
const PHASE_COLORS = ['#5b8def', '#e8742a', '#3aa876', '#9a8fd8', '#d9534f', '#c9a227', '#7a869a'];

function ErrorText({ exception, errorClass }: { exception: string | null; errorClass: string | null }) {
  if (!exception) return <span class="muted">–</span>;
  const first = exception.split('\n')[0];
  return <span class="error" title={exception}>{errorClass ? `[${errorClass}] ` : ''}{first}</span>;
}

// A query run: the model's query and the analysis's summary of it (joined by run id).
interface Run { query: StreamingQuery; summary: StreamingSummary }

function runsOf(doc: AnalysisDocument): Run[] {
  const queries = new Map(doc.streamingQueries.map((q) => [q.runId, q]));
  return doc.streaming.flatMap((summary) => {
    const query = queries.get(summary.runId);
    return query ? [{ query, summary }] : [];
  });
}

export function StreamingPage({ doc, args }: { doc: AnalysisDocument; args: string[] }) {
  const runs = useMemo(() => runsOf(doc), [doc]);
  if (args.length === 0) return <StreamingList runs={runs} />;
  const run = runs.find((r) => r.summary.runId === args[0]);
  if (!run) {
    return <section class="panel"><p class="error" role="alert">No streaming query run {args[0]} in this application.</p>
      <p><Link to={{ log: currentRoute().log, view: 'streaming', args: [] }}>All streaming queries</Link></p></section>;
  }
  return <StreamingRun run={run} doc={doc} />;
}

function StreamingList({ runs }: { runs: Run[] }) {
  const active = runs.filter((r) => r.summary.status === 'RUNNING');
  const done = runs.filter((r) => r.summary.status !== 'RUNNING');
  return (
    <div class="streaming">
      <h2 class="page-title">Structured Streaming</h2>
      {runs.length === 0 ? <section class="panel"><p>This application ran no Structured Streaming query.</p></section> : (
        <>
          {active.length > 0 && <RunTable caption={`Active streaming queries (${active.length})`} rows={active} />}
          {done.length > 0 && <RunTable caption={`Completed streaming queries (${done.length})`} rows={done} />}
          <p class="muted">As Spark UI's Structured Streaming tab. Active: the log holds no termination of the run.
            Duration: from its start to the end of its last batch (the log does not time a termination).
            Rates: rows that arrived over the time between the triggers of the batches with input, and rows processed
            over those batches' own time.</p>
        </>
      )}
    </div>
  );
}

function RunTable({ caption, rows }: { caption: string; rows: Run[] }) {
  const log = currentRoute().log;
  return (
    <section class="panel">
      <table class="grid compact streaming-runs">
        <caption>{caption}</caption>
        <thead><tr><th>Name</th><th>Status</th><th>ID</th><th>Run ID</th><th>Start Time</th><th>Duration</th>
          <th>Avg Input /sec</th><th>Avg Process /sec</th><th>Latest Batch</th><th>Findings</th><th>Error</th></tr></thead>
        <tbody>{rows.map(({ query: q, summary: s }) => (
          <tr key={s.runId} data-run-id={s.runId}>
            <td><Link to={{ log, view: 'streaming', args: [s.runId] }}>{q.name || <span class="muted">(unnamed)</span>}</Link></td>
            <td><RunStatus status={s.status} /></td>
            <td><code>{q.id}</code></td>
            <td><Link to={{ log, view: 'streaming', args: [s.runId] }}><code>{s.runId}</code></Link></td>
            <td>{formatDate(q.startMs)}</td>
            <td>{formatMs(s.runDurationMs)}</td>
            <td>{formatRate(s.inputRowsPerSecond)}</td>
            <td>{formatRate(s.processedRowsPerSecond)}</td>
            <td>{s.latestBatchId ?? '–'}</td>
            <td>{s.findingIds.length}</td>
            <td><ErrorText exception={q.exception} errorClass={q.errorClass} /></td>
          </tr>))}</tbody>
      </table>
    </section>
  );
}

// The x axis of every chart: the batches' ids.
function batchAxis(q: StreamingQuery) {
  return { type: 'category', name: 'batch', nameLocation: 'middle', nameGap: 26, data: q.batches.map((b) => String(b.batchId)) };
}
const GRID = { left: 70, right: 24, top: 36, bottom: 44 };

function durationOption(q: StreamingQuery, s: StreamingSummary): ChartOption {
  const trigger = s.trigger.intervalMs;
  return {
    tooltip: { trigger: 'axis', valueFormatter: (v: number) => formatMs(v) },
    legend: { top: 0 },
    grid: GRID,
    xAxis: batchAxis(q),
    yAxis: { type: 'value', axisLabel: { formatter: (v: number) => formatMs(v) } },
    series: [{
      name: 'batch duration', type: 'bar', data: q.batches.map((b) => b.durationMs),
      itemStyle: { color: BLUE },
      ...(trigger !== null ? { markLine: { symbol: 'none', silent: true, lineStyle: { color: ORANGE, type: 'dashed' },
        label: { formatter: `trigger ${formatMs(trigger)}` }, data: [{ yAxis: trigger }] } } : {}),
    }],
  };
}

function ratesOption(q: StreamingQuery): ChartOption {
  return {
    tooltip: { trigger: 'axis', valueFormatter: (v: number | null) => formatRate(v) },
    legend: { top: 0 },
    grid: GRID,
    xAxis: batchAxis(q),
    yAxis: { type: 'value', name: 'rows/s' },
    series: [
      { name: 'input rows/s', type: 'line', data: q.batches.map((b) => b.inputRowsPerSecond), itemStyle: { color: BLUE } },
      { name: 'processed rows/s', type: 'line', data: q.batches.map((b) => b.processedRowsPerSecond), itemStyle: { color: GREEN } },
    ],
  };
}

function inputRowsOption(q: StreamingQuery): ChartOption {
  return {
    tooltip: { trigger: 'axis', valueFormatter: (v: number) => formatCount(v) },
    legend: { top: 0 },
    grid: GRID,
    xAxis: batchAxis(q),
    yAxis: { type: 'value', name: 'rows', minInterval: 1 },
    series: [{ name: 'input rows', type: 'bar', data: q.batches.map((b) => b.inputRows), itemStyle: { color: PURPLE } }],
  };
}

function stateOption(q: StreamingQuery): ChartOption {
  return {
    tooltip: { trigger: 'axis' },
    legend: { top: 0 },
    grid: { ...GRID, right: 80 },
    xAxis: batchAxis(q),
    yAxis: [{ type: 'value', name: 'rows', minInterval: 1 },
            { type: 'value', name: 'memory', axisLabel: { formatter: (v: number) => formatBytes(v) } }],
    series: [
      { name: 'state rows', type: 'line', data: q.batches.map((b) => b.stateRows), itemStyle: { color: BLUE },
        tooltip: { valueFormatter: (v: number) => formatCount(v) } },
      { name: 'state memory', type: 'line', yAxisIndex: 1, data: q.batches.map((b) => b.stateMemoryBytes),
        itemStyle: { color: ORANGE }, tooltip: { valueFormatter: (v: number) => formatBytes(v) } },
    ],
  };
}

// The phases Spark timed, largest first as the summary orders them, without triggerExecution
// (the whole batch, of which the others are parts).
function phasesOption(q: StreamingQuery, s: StreamingSummary): ChartOption {
  const phases = s.phases.map((p) => p.phase).filter((p) => p !== 'triggerExecution') as (keyof StreamingQuery['batches'][number]['phasesMs'])[];
  return {
    tooltip: { trigger: 'axis', valueFormatter: (v: number) => formatMs(v) },
    legend: { top: 0 },
    grid: GRID,
    xAxis: batchAxis(q),
    yAxis: { type: 'value', axisLabel: { formatter: (v: number) => formatMs(v) } },
    series: phases.map((phase, i) => ({
      name: phase, type: 'bar', stack: 'phases', data: q.batches.map((b) => b.phasesMs[phase] ?? 0),
      itemStyle: { color: PHASE_COLORS[i % PHASE_COLORS.length] },
    })),
  };
}

function Figures({ run: { query: q, summary: s } }: { run: Run }) {
  const trigger = s.trigger.intervalMs !== null ? formatMs(s.trigger.intervalMs)
    : s.trigger.basis === 'backToBack' ? 'back to back' : 'not inferred';
  return (
    <section class="kpis" aria-label="The run in figures">
      <div class="kpi"><span class="label">Status</span><span class="value"><RunStatus status={s.status} /></span>
        <span class="muted">started {formatDate(q.startMs)} · {formatMs(s.runDurationMs)}</span></div>
      <div class="kpi"><span class="label">Trigger</span><span class="value">{trigger}</span>
        <span class="muted">inferred ({s.trigger.basis}) · {formatCount(s.batchesOverTrigger)} batches over it</span></div>
      <div class="kpi"><span class="label">Batch duration</span><span class="value">{formatMs(s.durationMs.p50)}</span>
        <span class="muted">median · p95 {formatMs(s.durationMs.p95)} · max {formatMs(s.durationMs.max)}</span></div>
      <div class="kpi"><span class="label">Rows per second</span>
        <span class="value">{formatRate(s.inputRowsPerSecond)} in</span>
        <span class="muted">{formatRate(s.processedRowsPerSecond)} processed · {formatCount(s.inputRows)} rows in {formatCount(s.batches)} batches</span></div>
      <div class="kpi"><span class="label">State</span>
        <span class="value">{s.state ? `${formatCount(s.state.rowsLast)} rows` : '–'}</span>
        <span class="muted">{s.state ? `${formatBytes(s.state.memoryLastBytes)} at the last batch · max ${formatBytes(s.state.memoryMaxBytes)}`
          : 'a stateless query'}</span></div>
      <div class="kpi"><span class="label">Watermark lag</span>
        <span class="value">{s.watermarkLagMs ? formatMs(s.watermarkLagMs.last) : '–'}</span>
        <span class="muted">{s.watermarkLagMs ? `at the last batch · max ${formatMs(s.watermarkLagMs.max)}` : 'no watermark'}</span></div>
    </section>
  );
}

function BatchTable({ q }: { q: StreamingQuery }) {
  return (
    <section class="panel">
      <table class="grid compact streaming-batches">
        <caption>Batches ({formatCount(q.batches.length)}{q.batchesNotKept > 0 ? `; ${formatCount(q.batchesNotKept)} more not kept` : ''})</caption>
        <thead><tr><th>batch</th><th>started</th><th>duration</th><th>input rows</th><th>input rows/s</th>
          <th>processed rows/s</th><th>state rows</th><th>state memory</th><th>watermark</th><th>jobs</th><th>tasks</th></tr></thead>
        <tbody>{q.batches.map((b) => (
          <tr key={b.batchId}>
            <td>{b.batchId}</td><td>{formatDate(b.startMs)}</td><td>{formatMs(b.durationMs)}</td>
            <td>{formatCount(b.inputRows)}</td><td>{formatRate(b.inputRowsPerSecond)}</td><td>{formatRate(b.processedRowsPerSecond)}</td>
            <td>{formatCount(b.stateRows)}</td><td>{formatBytes(b.stateMemoryBytes)}</td>
            <td>{b.watermarkMs !== null ? formatDate(b.watermarkMs) : '–'}</td><td>{b.jobs}</td><td>{formatCount(b.tasks)}</td>
          </tr>))}</tbody>
      </table>
    </section>
  );
}

function StreamingRun({ run, doc }: { run: Run; doc: AnalysisDocument }) {
  const log = currentRoute().log;
  const { query: q, summary: s } = run;
  const charts = useMemo(() => ({
    duration: durationOption(q, s),
    rates: ratesOption(q),
    input: inputRowsOption(q),
    state: s.state ? stateOption(q) : null,
    phases: phasesOption(q, s),
  }), [run]);
  const findings = useMemo(() => {
    const ids = new Set(s.findingIds);
    return doc.findings.filter((f) => ids.has(f.id));
  }, [doc, run]);
  const n = q.batches.length;
  return (
    <div class="streaming-run">
      <p><Link to={{ log, view: 'streaming', args: [] }}>All streaming queries</Link></p>
      <h2 class="page-title">Streaming query {s.label} <span class="muted store">run {s.runId}</span></h2>
      <Figures run={run} />
      <section class="panel">
        <div class="facts">
          <span><strong>id</strong> <code>{q.id}</code></span>
          <span><strong>sources</strong> {q.sources.length ? q.sources.join('; ') : '–'}</span>
          <span><strong>sink</strong> {q.sink || '–'}</span>
          {q.stateOperators.length > 0 && <span><strong>state operators</strong> {q.stateOperators.map((o) => o || '(unnamed)').join(', ')}</span>}
          {q.idleEvents > 0 && <span><strong>idle events</strong> {formatCount(q.idleEvents)}</span>}
        </div>
        {q.exception && <p><strong>Ended by: </strong><ErrorText exception={q.exception} errorClass={q.errorClass} /></p>}
      </section>
      {n === 0 ? <section class="panel"><p>This run has no batch in the log.</p></section> : (
        <div class="dists">
          <section class="panel"><h3>Batch duration</h3>
            <Chart option={charts.duration} height={260}
                   label={`Batch duration of ${n} batches: median ${formatMs(s.durationMs.p50)}, max ${formatMs(s.durationMs.max)}` +
                          (s.trigger.intervalMs !== null ? `; trigger ${formatMs(s.trigger.intervalMs)}` : '')} /></section>
          <section class="panel"><h3>Input and processed rows per second</h3>
            <Chart option={charts.rates} height={260}
                   label={`Input ${formatRate(s.inputRowsPerSecond)} and processed ${formatRate(s.processedRowsPerSecond)} rows per second over ${n} batches`} /></section>
          <section class="panel"><h3>Input rows per batch</h3>
            <Chart option={charts.input} height={260} label={`Input rows of ${n} batches: ${formatCount(s.inputRows)} in all`} /></section>
          <section class="panel"><h3>State rows and memory</h3>
            {charts.state ? <Chart option={charts.state} height={260}
                   label={`State rows and memory over ${n} batches: ${formatCount(s.state?.rowsLast)} rows at the last`} />
              : <p class="muted">A stateless query: no state to chart.</p>}</section>
          <section class="panel"><h3>Time per phase</h3>
            <Chart option={charts.phases} height={260}
                   label={`Each batch's time by phase: ${s.phases.map((p) => `${p.phase} ${formatPercent(p.share)}`).join(', ')}`} />
            <p class="muted">The phases Spark timed; they need not add up to the batch's time.</p></section>
        </div>
      )}
      {n > 0 && <BatchTable q={q} />}
      <section class="panel">
        <h2>Findings about this run</h2>
        {findings.length === 0 ? <p>No finding about this run.</p> :
          findings.map((f) => <FindingCard key={f.id} finding={f} />)}
      </section>
    </div>
  );
}
