// Stages: the list (longest first, a page at a time), and one stage attempt's drill-down: task
// duration and input-size distributions (the model's exact quantiles), spill, GC and shuffle,
// the per-executor and per-host tables, the SQL plan nodes attributed to it and its findings.
import { useMemo, useState } from 'preact/hooks';
import { formatBytes, formatCount, formatMs } from '../format';
import { currentRoute } from '../route';
import type { AnalysisDocument, Quantiles, Stage, StageExecutorRow } from '../types';
import { Chart, type ChartOption } from './charts';
import { FindingCard } from './FindingCard';
import { Link } from './Link';

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

function Distribution({ title, q, format }: { title: string; q: Quantiles | undefined; format: (v: number) => string }) {
  const option = useMemo(() => (q ? quantileOption(q, format) : null), [q]);
  if (!q || !option) return <div class="dist"><h3>{title}</h3><p class="muted">Not recorded for this stage.</p></div>;
  return (
    <div class="dist">
      <h3>{title}</h3>
      <Chart option={option} height={200} label={`${title}: ${QUANTILES.map((k) => `${k} ${format(q[k])}`).join(', ')}`} />
      <p class="muted">{formatCount(q.count)} successful tasks · median {format(q.p50)} · p95 {format(q.p95)} · max {format(q.max)}</p>
    </div>
  );
}

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
        <Distribution title="Task duration" q={stage.quantiles?.durationMs} format={formatMs} />
        {(stage.quantiles?.inputBytes?.max ?? 0) > 0 || !stage.quantiles?.shuffleReadBytes ? (
          <Distribution title="Task input size" q={stage.quantiles?.inputBytes} format={formatBytes} />
        ) : (
          <Distribution title="Task shuffle read size (no input read)" q={stage.quantiles.shuffleReadBytes} format={formatBytes} />
        )}
      </section>
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
