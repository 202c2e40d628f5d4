// Spark Connect: which client operation cost what. The list of operations, costliest first (its
// session, user and tags, status, time on the server by phase, jobs, task time, cost, rows and
// findings), the sessions, and one operation's page: what it sent, why it failed, its SQL
// executions and stage attempts (links to their pages) and the findings about them. Every figure
// is the analysis document's ("connectSessions" and "connectOperations", the model's, and
// "connect", what each operation cost): the page only draws them.
import { useMemo } from 'preact/hooks';
import { formatCount, formatDate, formatMoney, formatMs } from '../format';
import { currentRoute } from '../route';
import type { AnalysisDocument, ConnectOperation, ConnectSummary } from '../types';
import { RunStatus } from './badges';
import { FindingCard } from './FindingCard';
import { Link } from './Link';

// An operation: the model's and what it cost (joined by operation id).
interface Operation { op: ConnectOperation; cost: ConnectSummary }

function operationsOf(doc: AnalysisDocument): Operation[] {
  const costs = new Map(doc.connect.map((c) => [c.operationId, c]));
  const out = doc.connectOperations.flatMap((op) => {
    const cost = costs.get(op.operationId);
    return cost ? [{ op, cost }] : [];
  });
  return out.sort((a, b) => b.cost.cost - a.cost.cost);  // stable: the model's order (by start) among equals
}

const short = (id: string) => id.slice(0, 8);

export function ConnectPage({ doc, args }: { doc: AnalysisDocument; args: string[] }) {
  const operations = useMemo(() => operationsOf(doc), [doc]);
  if (args.length === 0) return <ConnectList doc={doc} operations={operations} />;
  const found = operations.find((o) => o.op.operationId === args[0]);
  if (!found) {
    return <section class="panel"><p class="error" role="alert">No Spark Connect operation {args[0]} in this application.</p>
      <p><Link to={{ log: currentRoute().log, view: 'connect', args: [] }}>All operations</Link></p></section>;
  }
  return <OperationPage doc={doc} operation={found} />;
}

function ConnectList({ doc, operations }: { doc: AnalysisDocument; operations: Operation[] }) {
  const log = currentRoute().log;
  const currency = doc.economics.cost.rateCard.currency;
  const total = operations.reduce((sum, o) => sum + o.cost.cost, 0);
  const taskTime = operations.reduce((sum, o) => sum + o.cost.taskTimeMs, 0);
  const failed = operations.filter((o) => o.op.status === 'FAILED').length;
  return (
    <div class="connect">
      <h2 class="page-title">Spark Connect</h2>
      <section class="kpis" aria-label="Spark Connect in figures">
        <div class="kpi"><span class="label">Operations</span><span class="value">{formatCount(operations.length)}</span>
          <span class="muted">from {formatCount(doc.connectSessions.length)} sessions · {formatCount(failed)} failed</span></div>
        <div class="kpi"><span class="label">Their cost</span><span class="value">{formatMoney(total, currency)}</span>
          <span class="muted">of {formatMoney(doc.economics.cost.total, currency)} for the application</span></div>
        <div class="kpi"><span class="label">Their task time</span><span class="value">{formatMs(taskTime)}</span>
          <span class="muted">the task attempts of the stages their jobs ran</span></div>
      </section>
      <section class="panel">
        <table class="grid compact connect-operations">
          <caption>Operations, the costliest first</caption>
          <thead><tr><th>Operation</th><th>Session</th><th>User</th><th>Tags</th><th>Status</th><th>Started</th>
            <th>Duration</th><th>Execution</th><th>Jobs</th><th>Task time</th><th>Cost</th><th>Rows</th>
            <th>Findings</th><th>Sent</th></tr></thead>
          <tbody>{operations.map(({ op, cost }) => (
            <tr key={op.operationId} data-operation-id={op.operationId}>
              <td><Link to={{ log, view: 'connect', args: [op.operationId] }}><code title={op.operationId}>{short(op.operationId)}</code></Link></td>
              <td><code title={op.sessionId}>{short(op.sessionId)}</code></td>
              <td>{op.userId || <span class="muted">–</span>}</td>
              <td>{op.sessionTags.length ? op.sessionTags.join(', ') : <span class="muted">–</span>}</td>
              <td><RunStatus status={op.status} /></td>
              <td>{formatDate(op.startedMs)}</td>
              <td>{formatMs(op.durationMs)}</td>
              <td>{formatMs(cost.executionMs)}</td>
              <td>{cost.jobs}</td>
              <td>{formatMs(cost.taskTimeMs)}</td>
              <td>{formatMoney(cost.cost, currency)}</td>
              <td>{formatCount(op.producedRows)}</td>
              <td>{cost.findingIds.length}</td>
              <td class="statement" title={op.statementSummary}>{op.statementSummary || <span class="muted">–</span>}</td>
            </tr>))}</tbody>
        </table>
        <p class="muted">Cost: the operation's jobs' share of the application's cost (the rate card's prices). Duration: from
          its start to its results sent. Execution: from ready to finished, the time its jobs had.</p>
      </section>
      <section class="panel">
        <table class="grid compact connect-sessions">
          <caption>Sessions ({formatCount(doc.connectSessions.length)})</caption>
          <thead><tr><th>Session</th><th>User</th><th>Started</th><th>Ended</th><th>Operations</th></tr></thead>
          <tbody>{doc.connectSessions.map((s) => (
            <tr key={s.sessionId}>
              <td><code>{s.sessionId}</code></td><td>{s.userId || <span class="muted">–</span>}</td>
              <td>{formatDate(s.startMs)}</td><td>{s.endMs !== null ? formatDate(s.endMs) : <span class="muted">open</span>}</td>
              <td>{formatCount(s.operations)}</td>
            </tr>))}</tbody>
        </table>
      </section>
    </div>
  );
}

function OperationPage({ doc, operation: { op, cost } }: { doc: AnalysisDocument; operation: Operation }) {
  const log = currentRoute().log;
  const currency = doc.economics.cost.rateCard.currency;
  const findings = useMemo(() => {
    const ids = new Set(cost.findingIds);
    return doc.findings.filter((f) => ids.has(f.id));
  }, [doc, cost]);
  const phases: [string, number | null][] = [['analysis', cost.analysisMs], ['planning', cost.planningMs],
    ['execution', cost.executionMs], ['results sent', cost.resultMs]];
  return (
    <div class="connect-operation">
      <p><Link to={{ log, view: 'connect', args: [] }}>All Spark Connect operations</Link></p>
      <h2 class="page-title">Operation <code>{op.operationId}</code></h2>
      <section class="kpis" aria-label="The operation in figures">
        <div class="kpi"><span class="label">Status</span><span class="value"><RunStatus status={op.status} /></span>
          <span class="muted">started {formatDate(op.startedMs)} · {formatMs(op.durationMs)}</span></div>
        <div class="kpi"><span class="label">Cost</span><span class="value">{formatMoney(cost.cost, currency)}</span>
          <span class="muted">{formatCount(cost.jobs)} jobs · {formatMs(cost.taskTimeMs)} task time</span></div>
        <div class="kpi"><span class="label">Rows</span><span class="value">{formatCount(op.producedRows)}</span>
          <span class="muted">produced for the client</span></div>
      </section>
      <section class="panel">
        <div class="facts">
          <span><strong>session</strong> <code>{op.sessionId}</code></span>
          <span><strong>user</strong> {op.userId || '–'}{op.userName && op.userName !== op.userId ? ` (${op.userName})` : ''}</span>
          {op.sessionTags.length > 0 && <span><strong>tags</strong> {op.sessionTags.join(', ')}</span>}
          <span><strong>job tag</strong> <code>{op.jobTag}</code></span>
        </div>
        <table class="grid compact connect-phases">
          <caption>Time on the server</caption>
          <thead><tr>{phases.map(([name]) => <th key={name}>{name}</th>)}</tr></thead>
          <tbody><tr>{phases.map(([name, ms]) => <td key={name}>{formatMs(ms)}</td>)}</tr></tbody>
        </table>
        {op.error && <p><strong>Failed: </strong><span class="error">{op.error.split('\n')[0]}</span></p>}
      </section>
      <section class="panel">
        <h3>What it ran</h3>
        <p><strong>SQL executions </strong>{op.sqlExecutionIds.length === 0 ? <span class="muted">none</span> :
          op.sqlExecutionIds.map((id) => <Link key={id} class="chip" to={{ log, view: 'sql', args: [String(id)] }}>{id}</Link>)}</p>
        <p><strong>Stage attempts </strong>{cost.stageAttempts.length === 0 ? <span class="muted">none ran for its jobs</span> :
          cost.stageAttempts.map((s) => (
            <Link key={`${s.stageId}.${s.attemptId}`} class="chip" to={{ log, view: 'stages', args: [String(s.stageId), String(s.attemptId)] }}>
              {s.stageId}.{s.attemptId}</Link>))}</p>
        <p><strong>Jobs </strong>{op.jobIds.length ? op.jobIds.join(', ') : <span class="muted">none</span>}</p>
        {op.statement && <details><summary>What the client sent{op.statementSummary ? `: ${op.statementSummary}` : ''}</summary>
          <pre class="statement">{op.statement}</pre></details>}
      </section>
      <section class="panel">
        <h2>Findings about this operation</h2>
        {findings.length === 0 ? <p>No finding about its stages or SQL executions.</p> :
          findings.map((f) => <FindingCard key={f.id} finding={f} />)}
      </section>
    </div>
  );
}
