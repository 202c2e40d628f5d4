// The fleet page: every job in the result store of `serve --store` at its latest run (GET fleet,
// src/server/fleet_api.h). The server ranks, counts and judges; this only lays the tables out:
//   the runs with the most recoverable wall-clock, those that cost the most (one table per
//   currency), the finding types in the most jobs, and a page of the per-job trend (the
//   comparator's verdict on each job's latest run). Each job links to its history page.
// The trend's page is in the address: /fleet?trend=20.
import { useEffect } from 'preact/hooks';
import { api } from '../api';
import { formatCount, formatMoney, formatMs } from '../format';
import { navigateQuery } from '../route';
import type { Evaluation, FleetSummaryDocument, FleetRow } from '../types';
import { effectText, Problem, VerdictBadge } from './HistoryPage';
import { useAnswer } from './useAnswer';

const LIMIT = 10;
const TREND_PAGE = 20;

function jobs(n: number): string { return `${formatCount(n)} ${n === 1 ? 'job' : 'jobs'}`; }

function JobLink({ subject }: { subject: string }) {
  const params: [string, string][] = [['subject', subject]];
  return <a href={`/history?${new URLSearchParams(params)}`} class="job"
            onClick={(e) => { e.preventDefault(); navigateQuery('history', params); }}>{subject}</a>;
}

function Status({ row }: { row: FleetRow }) {
  return row.status === 'ok' ? null : <span class="muted" title="verdicts take only ok results as targets"> ({row.status})</span>;
}

function recoverable(row: FleetRow): string {
  const r = row.recoverableMs;
  if (!r) return '–';
  if (r.high === 0) return 'nothing to fix first';
  return r.low === null ? `up to ${formatMs(r.high)}` : `${formatMs(r.low)} to ${formatMs(r.high)}`;
}

function quantityValue(value: number | null | undefined, e: Evaluation): string {
  if (value === null || value === undefined) return '–';
  if (e.series.unit === 'ms') return formatMs(value);
  if (e.series.quantity === 'cost') return formatMoney(value, e.series.unit);  // its unit is its currency
  return `${Number(value.toPrecision(4))} ${e.series.unit}`;
}

function RecoverableTable({ data }: { data: FleetSummaryDocument }) {
  return (
    <section class="panel" aria-labelledby="fleet-recoverable">
      <h2 id="fleet-recoverable">Most recoverable wall-clock <span class="muted">· the group "Fix these first" leads with</span></h2>
      {data.recoverable.length === 0 ? <p class="muted">No latest run has anything worth fixing first.</p> : (
        <table class="grid compact fleet-recoverable">
          <thead><tr><th>job</th><th>recoverable</th><th>duration</th><th>findings</th><th>cost</th></tr></thead>
          <tbody>{data.recoverable.map((r) => (
            <tr key={r.resultId} data-subject={r.subject}>
              <td><JobLink subject={r.subject} /><Status row={r} /></td><td>{recoverable(r)}</td>
              <td>{formatMs(r.appWallClockMs)}</td><td>{formatCount(r.findings)}</td>
              <td>{r.cost ? formatMoney(r.cost.value, r.cost.currency) : '–'}</td></tr>))}</tbody>
        </table>)}
      {data.withoutAnalysis > 0 && (
        <p class="muted without-analysis">{data.withoutAnalysis} of {data.subjects} latest runs were stored before results
          carried their findings: those jobs are ranked once their next run is ingested.</p>)}
    </section>
  );
}

function CostTables({ data }: { data: FleetSummaryDocument }) {
  return (
    <section class="panel" aria-labelledby="fleet-costs">
      <h2 id="fleet-costs">Cost the most <span class="muted">· each currency on its own</span></h2>
      {data.costs.length === 0 && <p class="muted">No latest run carries a cost.</p>}
      {data.costs.map((c) => (
        <table key={c.currency} class="grid compact fleet-costs" data-currency={c.currency}>
          <caption>{c.currency} <span class="muted">· {jobs(c.applications)}</span></caption>
          <thead><tr><th>job</th><th>cost</th><th>duration</th><th>recoverable</th></tr></thead>
          <tbody>{c.top.map((r) => (
            <tr key={r.resultId} data-subject={r.subject}>
              <td><JobLink subject={r.subject} /><Status row={r} /></td><td>{formatMoney(r.cost!.value, c.currency)}</td>
              <td>{formatMs(r.appWallClockMs)}</td><td>{recoverable(r)}</td></tr>))}</tbody>
        </table>))}
    </section>
  );
}

function FindingTypes({ data }: { data: FleetSummaryDocument }) {
  return (
    <section class="panel" aria-labelledby="fleet-types">
      <h2 id="fleet-types">Finding types in the most jobs</h2>
      {data.findingTypes.length === 0 ? <p class="muted">No finding in any latest run that records them.</p> : (
        <table class="grid compact fleet-types">
          <thead><tr><th>type</th><th>jobs</th><th>findings</th></tr></thead>
          <tbody>{data.findingTypes.map((t) => (
            <tr key={t.type} data-type={t.type}><td>{t.type}</td><td>{formatCount(t.applications)}</td>
              <td>{formatCount(t.findings)}</td></tr>))}</tbody>
        </table>)}
    </section>
  );
}

function Trend({ data, offset }: { data: FleetSummaryDocument; offset: number }) {
  const t = data.trend;
  const byTarget = (row: FleetRow, quantity: string) =>
    t.document.evaluations.find((e) => e.target?.resultId === row.resultId && e.series.quantity === quantity);
  const page = (to: number) => navigateQuery('fleet', to > 0 ? [['trend', String(to)]] : []);
  return (
    <section class="panel" aria-labelledby="fleet-trend">
      <h2 id="fleet-trend">Per-job trend <span class="muted">· the comparator's verdict on each job's latest run</span></h2>
      <p class="muted method" data-method={t.document.method.name}>Method {t.document.method.name} v{t.document.method.version},
        as <code>verdict history --target latest</code>; jobs with at least two results, the latest run last stored first.</p>
      {t.rows.length === 0 ? <p class="muted">No job has two results yet.</p> : (
        <table class="grid compact fleet-trend">
          <thead><tr><th>job</th><th>results</th>{t.quantities.map((q) => <th key={q} colSpan={3}>{q}</th>)}</tr>
            <tr><td /><td />{t.quantities.map((q) => [<th key={`${q}-v`}>verdict</th>, <th key={`${q}-l`}>latest</th>,
              <th key={`${q}-e`}>effect</th>])}</tr></thead>
          <tbody>{t.rows.map((r) => (
            <tr key={r.resultId} data-subject={r.subject}>
              <td><JobLink subject={r.subject} /><Status row={r} /></td><td>{formatCount(r.results)}</td>
              {t.quantities.map((q) => {
                const e = byTarget(r, q);
                if (!e) return [<td key={`${q}-v`} class="muted">–</td>, <td key={`${q}-l`} />, <td key={`${q}-e`} />];
                return [<td key={`${q}-v`} data-quantity={q} data-verdict={e.verdict} title={e.detail || e.reason}>
                          <VerdictBadge verdict={e.verdict} /></td>,
                        <td key={`${q}-l`}>{quantityValue(e.target?.value, e)}</td>,
                        <td key={`${q}-e`}>{effectText(e)}</td>];
              })}
            </tr>))}</tbody>
        </table>)}
      {t.total > TREND_PAGE && (
        <nav class="row pager" aria-label="Pages of the trend">
          <button type="button" disabled={offset === 0} onClick={() => page(Math.max(0, offset - TREND_PAGE))}>Previous</button>
          <span class="muted">{offset + 1}–{Math.min(offset + TREND_PAGE, t.total)} of {t.total} jobs</span>
          <button type="button" disabled={offset + TREND_PAGE >= t.total} onClick={() => page(offset + TREND_PAGE)}>Next</button>
        </nav>)}
    </section>
  );
}

export function FleetPage() {
  const offset = Math.max(0, Number(new URLSearchParams(location.search).get('trend')) || 0);
  const { data, error } = useAnswer(() => api.fleet(LIMIT, offset, TREND_PAGE), `fleet\n${offset}`);
  useEffect(() => { document.title = 'Fleet · SparkForensics'; }, []);
  return (
    <>
      <h1 class="page-title">Fleet {data && <span class="muted store">· {data.store}</span>}</h1>
      {error && <Problem error={error} />}
      {!data && !error && <section class="panel" aria-live="polite"><p>Reading the store…</p></section>}
      {data && (
        <>
          <p class="muted">{jobs(data.subjects)}, each at its latest run (the store's subjects).</p>
          <RecoverableTable data={data} />
          <CostTables data={data} />
          <FindingTypes data={data} />
          <Trend data={data} offset={offset} />
        </>)}
    </>
  );
}
