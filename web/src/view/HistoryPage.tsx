// The history page: the result store of `serve --store`, judged by the server's comparator (the
// calls `verdict` makes; GET history/...). What is shown is in the address:
//   ?subject=S                      the subject's series, each with its latest verdict
//   ?subject=S&quantity=Q&fp=F      one series over revisions (ancestry order): every point's
//                                   verdict, the reference window, boundaries, the noise band
//   ?subject=S&tab=run&runKey=K&profile=P&baseline=B   a planned run's paired rounds
//   ?subject=S&tab=batch&revision=R (or runKey=K)      one revision's verdicts, filterable
import { useEffect, useMemo, useState } from 'preact/hooks';
import { api, ApiError } from '../api';
import { navigateQuery } from '../route';
import type { Evaluation, HistoryAnswer, StoredResultRow, SubjectRow, Verdict } from '../types';
import { Chart, type ChartOption } from './charts';
import { useAnswer } from './useAnswer';

const VERDICT_TEXT: Record<Verdict, string> = {
  improved: 'improved', regressed: 'regressed', changed: 'changed', 'no-change-detected': 'no change',
  indeterminate: 'indeterminate' };
const VERDICT_COLOR: Record<Verdict, string> = {
  improved: '#2f8f4e', regressed: '#c8281e', changed: '#b07800', 'no-change-detected': '#6b7590', indeterminate: '#9a6dd7' };

function query(): URLSearchParams { return new URLSearchParams(location.search); }
function go(params: Record<string, string | undefined>) {
  navigateQuery('history', Object.entries(params).filter(([, v]) => v !== undefined && v !== '') as [string, string][]);
}

export function VerdictBadge({ verdict }: { verdict: Verdict }) {
  return <span class={`verdict verdict-${verdict}`}>{VERDICT_TEXT[verdict]}</span>;
}

function figure(value: number | null | undefined, digits = 3): string {
  if (value === null || value === undefined) return '–';
  return Math.abs(value) >= 1000 ? Math.round(value).toLocaleString('en-US') : Number(value.toPrecision(digits)).toString();
}

export function effectText(e: Evaluation): string {
  const v = e.outcome.effect.value;
  if (v === null) return '–';
  return e.outcome.effect.measure === 'relative' ? `${v > 0 ? '+' : ''}${(v * 100).toFixed(1)}%`
    : e.outcome.effect.measure === 'ratio' ? `×${v.toFixed(3)}` : `${v > 0 ? '+' : ''}${figure(v)}`;
}

export function Problem({ error }: { error: ApiError }) {
  return <section class="panel" role="alert"><p class="error" data-code={error.code}>{error.message}</p>
    {error.code === 'no-store' && <p class="muted">Start serve with <code>--store PATH|postgresql://…</code>.</p>}</section>;
}

function Method({ doc }: { doc: HistoryAnswer['document'] }) {
  const config = Object.entries(doc.method.config).map(([k, v]) => `${k} ${Array.isArray(v) ? v.join('/') : v ?? '–'}`).join(' · ');
  return <p class="muted method" data-method={doc.method.name}>Method {doc.method.name} v{doc.method.version}: {config} ·
    identity policy {doc.identityPolicy.schema} v{doc.identityPolicy.version}</p>;
}

// A compare-page link for the two runs behind a point: its nearest reference point and itself.
function compareHref(base: StoredResultRow | undefined, cand: StoredResultRow | undefined): string | null {
  if (!base?.log || !cand?.log) return null;
  return `/compare?${new URLSearchParams([['base', base.log], ['cand', cand.log]]).toString()}`;
}

function CompareLink({ answer, e }: { answer: HistoryAnswer; e: Evaluation }) {
  const byId = (id: string | undefined) => answer.results.find((r) => r.id === id);
  const href = compareHref(byId(e.reference[0]?.resultId), byId(e.target?.resultId));
  if (!href) return <span class="muted" title="the store records no event log the dashboard can open for both runs">–</span>;
  return <a href={href} class="compare-link">compare</a>;
}

// --- One series over revisions.
function SeriesChart({ answer, selected, onSelect }:
  { answer: HistoryAnswer; selected: number | null; onSelect: (i: number) => void }) {
  const evals = answer.document.evaluations;
  // The x axis: the subject's results in ancestry order, those with a point in this series.
  const order = answer.results.map((r) => r.id);
  const points = evals.filter((e) => e.target).sort((a, b) => order.indexOf(a.target!.resultId) - order.indexOf(b.target!.resultId));
  const labels = points.map((e) => e.target!.revision || `#${e.target!.nativeOrder}`);
  const band = (sign: number) => points.map((e) => {
    const ref = e.outcome.referenceEstimate;
    const t = e.outcome.threshold;
    if (ref === null || t === null) return null;
    return e.outcome.effect.measure === 'relative' ? ref * (1 + sign * t) : ref + sign * t;
  });
  const sel = selected !== null ? points[selected] : undefined;
  const window = new Set(sel?.reference.map((p) => p.resultId) ?? []);
  const boundaries = points.flatMap((e, i) => e.boundaries.map((b) => ({ i, b })));
  const seen = new Set<string>();
  const marks = boundaries.filter(({ b }) => { const k = `${b.kind}:${b.at}`; if (seen.has(k)) return false; seen.add(k); return true; })
    .map(({ i, b }) => {
      // A boundary is named by a revision or a result; one outside the chart is drawn at the point it shaped.
      const at = points.findIndex((e) => e.target!.revision === b.at || e.target!.resultId === b.at);
      return { xAxis: at >= 0 ? at : i, name: b.kind, label: { formatter: b.kind } };
    });
  const option: ChartOption = {
    grid: { left: 70, right: 20, top: 30, bottom: 60 },
    tooltip: { trigger: 'axis' },
    legend: { top: 0 },
    xAxis: { type: 'category', data: labels, axisLabel: { rotate: 30 } },
    yAxis: { type: 'value', scale: true, name: points[0]?.series.unit ?? '' },
    series: [
      { name: 'noise band (upper)', type: 'line', data: band(1), lineStyle: { type: 'dashed', opacity: 0.6 }, symbol: 'none', connectNulls: false },
      { name: 'noise band (lower)', type: 'line', data: band(-1), lineStyle: { type: 'dashed', opacity: 0.6 }, symbol: 'none', connectNulls: false },
      { name: 'reference estimate', type: 'line', data: points.map((e) => e.outcome.referenceEstimate), symbol: 'none',
        lineStyle: { opacity: 0.5 } },
      { name: 'value', type: 'line', data: points.map((e, i) => ({
          value: e.target!.value,
          symbolSize: i === selected ? 14 : window.has(e.target!.resultId) ? 11 : 8,
          itemStyle: { color: VERDICT_COLOR[e.verdict], borderColor: window.has(e.target!.resultId) ? '#2457c5' : undefined,
                       borderWidth: window.has(e.target!.resultId) ? 3 : 0 } })),
        markLine: marks.length ? { symbol: 'none', data: marks, lineStyle: { type: 'dotted' } } : undefined },
    ],
  };
  return <Chart option={option} height={320} label="The series over revisions: each point coloured by its verdict, the noise band dashed"
                onItemClick={onSelect} />;
}

function EvaluationDetail({ answer, e }: { answer: HistoryAnswer; e: Evaluation }) {
  return (
    <div class="evaluation" data-verdict={e.verdict}>
      <h3>{e.target?.revision || e.target?.resultId} <VerdictBadge verdict={e.verdict} /></h3>
      <p>{e.reason}{e.detail ? ` (${e.detail})` : ''}</p>
      <dl class="facts">
        <dt>value</dt><dd>{figure(e.target?.value)}</dd>
        <dt>reference estimate</dt><dd>{figure(e.outcome.referenceEstimate)}</dd>
        <dt>effect ({e.outcome.effect.measure || '–'})</dt><dd>{effectText(e)}</dd>
        <dt>noise</dt><dd>{figure(e.outcome.noise.value)} <span class="muted">{e.outcome.noise.source}{e.outcome.noise.provisional ? ', provisional' : ''}</span></dd>
        <dt>threshold</dt><dd>{figure(e.outcome.threshold)}</dd>
        <dt>evidence</dt><dd>{e.outcome.evidenceCount} points · {e.ordering}</dd>
      </dl>
      <p>Two runs behind this point: <CompareLink answer={answer} e={e} /></p>
      <h4>Reference window</h4>
      {e.reference.length === 0 ? <p class="muted">none</p> : (
        <table class="grid compact"><thead><tr><th>result</th><th>revision</th><th>value</th><th>distance</th></tr></thead>
          <tbody>{e.reference.map((p) => <tr key={p.resultId}><td><code>{p.resultId.slice(0, 12)}</code></td><td>{p.revision}</td>
            <td>{figure(p.value)}</td><td>{p.ancestryDistance ?? '–'}</td></tr>)}</tbody></table>)}
      {e.boundaries.length > 0 && (<><h4>Boundaries</h4><ul class="plain boundaries">{e.boundaries.map((b) => (
        <li key={`${b.kind}-${b.at}`} data-kind={b.kind}><strong>{b.kind}</strong> at {b.at}: {b.reason} ({b.points} points)</li>))}</ul></>)}
      {e.exclusions.length > 0 && (<><h4>Excluded</h4><ul class="plain">{e.exclusions.map((x) => (
        <li key={x.resultId}><code>{x.resultId.slice(0, 12)}</code>: {x.reason}</li>))}</ul></>)}
      {e.caveats.length > 0 && <p class="muted">Caveats: {e.caveats.join('; ')}</p>}
    </div>
  );
}

function SeriesView({ subject, quantity, fingerprint }: { subject: string; quantity: string; fingerprint: string }) {
  const { data, error } = useAnswer(() => api.series(subject, quantity, fingerprint), `${subject}\n${quantity}\n${fingerprint}`);
  const [selected, setSelected] = useState<number | null>(null);
  useEffect(() => setSelected(null), [quantity, fingerprint]);
  if (error) return <Problem error={error} />;
  if (!data) return <section class="panel" aria-live="polite"><p>Evaluating every point…</p></section>;
  const order = data.results.map((r) => r.id);
  const points = data.document.evaluations.filter((e) => e.target)
    .sort((a, b) => order.indexOf(a.target!.resultId) - order.indexOf(b.target!.resultId));
  const shown = selected ?? points.length - 1;
  return (
    <section class="panel series" aria-labelledby="series-title">
      <h2 id="series-title">{points[0]?.series.label ?? quantity}</h2>
      <Method doc={data.document} />
      <SeriesChart answer={data} selected={shown} onSelect={setSelected} />
      <table class="grid compact points">
        <thead><tr><th>revision</th><th>value</th><th>verdict</th><th>effect</th><th>reason</th><th>runs</th></tr></thead>
        <tbody>{points.map((e, i) => (
          <tr key={e.target!.resultId} class={i === shown ? 'selected-row' : undefined} data-verdict={e.verdict}>
            <td><button type="button" class="link" onClick={() => setSelected(i)}>{e.target!.revision || e.target!.resultId.slice(0, 12)}</button></td>
            <td>{figure(e.target!.value)}</td><td><VerdictBadge verdict={e.verdict} /></td><td>{effectText(e)}</td>
            <td class="name" title={e.reason}>{e.reason}</td><td><CompareLink answer={data} e={e} /></td></tr>))}</tbody>
      </table>
      {points[shown] && <EvaluationDetail answer={data} e={points[shown]!} />}
    </section>
  );
}

// --- The subject's series, each with its latest verdict.
function SeriesList({ subject }: { subject: string }) {
  const { data, error } = useAnswer(() => api.series(subject), subject);
  const [filter, setFilter] = useState('');
  if (error) return <Problem error={error} />;
  if (!data) return <section class="panel" aria-live="polite"><p>Reading the store…</p></section>;
  const rows = data.document.evaluations.filter((e) => e.series.label.toLowerCase().includes(filter.toLowerCase()));
  return (
    <section class="panel">
      <div class="row"><h2>Series of {subject} <span class="muted">· latest point of each</span></h2>
        <label class="search">Find a series <input type="search" value={filter} onInput={(e) => setFilter((e.target as HTMLInputElement).value)} /></label></div>
      <Method doc={data.document} />
      <table class="grid compact series-list">
        <thead><tr><th>series</th><th>latest verdict</th><th>effect</th><th>reason</th></tr></thead>
        <tbody>{rows.slice(0, 500).map((e) => (
          <tr key={e.series.fingerprint} data-quantity={e.series.quantity} data-verdict={e.verdict}>
            <td><a href={`/history?${new URLSearchParams({ subject, quantity: e.series.quantity, fp: e.series.fingerprint })}`}
                   onClick={(ev) => { ev.preventDefault(); go({ subject, quantity: e.series.quantity, fp: e.series.fingerprint }); }}>
              {e.series.label}</a></td>
            <td><VerdictBadge verdict={e.verdict} /></td><td>{effectText(e)}</td><td class="name" title={e.reason}>{e.reason}</td></tr>))}</tbody>
      </table>
      {rows.length > 500 && <p class="muted">{rows.length - 500} more: narrow the search.</p>}
    </section>
  );
}

// --- A planned run: its paired rounds, the per-round ratios and the interval.
function RunView({ subject, results }: { subject: string; results: StoredResultRow[] }) {
  const q = query();
  const runKeys = [...new Set(results.filter((r) => r.runKey).map((r) => r.runKey))];
  const runKey = q.get('runKey') ?? runKeys[0] ?? '';
  const profile = q.get('profile') ?? 'variants';
  const coordinate = q.get('coordinate') ?? '';
  const ofRun = results.filter((r) => r.runKey === runKey);
  const sideOf = (r: StoredResultRow) => coordinate ? (coordinate.startsWith('parameters.') ? r.parameters[coordinate.slice(11)] : r.revision)
    : profile === 'revisions' ? r.revision : r.parameters.role;
  const sides = [...new Set(ofRun.map(sideOf).filter((s): s is string => !!s))].sort();
  const baseline = q.get('baseline') ?? (sides.includes('baseline') ? 'baseline' : sides[0] ?? '');
  const ready = runKey && baseline;
  const { data, error } = useAnswer(ready ? () => api.run(runKey, profile, baseline, coordinate) : null,
                                    `${runKey}\n${profile}\n${baseline}\n${coordinate}`);
  const set = (change: Record<string, string>) => go({ subject, tab: 'run', runKey, profile, baseline, coordinate, ...change });
  return (
    <section class="panel run-view">
      <h2>A planned run <span class="muted">· paired rounds of one run</span></h2>
      {runKeys.length === 0 ? <p class="muted">No result of {subject} belongs to a planned run (store ingest --run-key).</p> : (
        <div class="row">
          <label>Run <select value={runKey} onChange={(e) => set({ runKey: (e.target as HTMLSelectElement).value, baseline: '' })}>
            {runKeys.map((k) => <option key={k}>{k}</option>)}</select></label>
          <label>Profile <select value={profile} onChange={(e) => set({ profile: (e.target as HTMLSelectElement).value, baseline: '' })}>
            {['variants', 'revisions', 'environments'].map((p) => <option key={p}>{p}</option>)}</select></label>
          <label>Baseline side <select value={baseline} onChange={(e) => set({ baseline: (e.target as HTMLSelectElement).value })}>
            {sides.map((s) => <option key={s}>{s}</option>)}</select></label>
        </div>)}
      {error && <p role="alert" class="error">{error.message}</p>}
      {data && (
        <>
          <Method doc={data.document} />
          {data.document.failedInvariants.map((f) => <p key={f.name + f.unit} class="error" role="alert">Invariant {f.name}
            {f.unit ? ` (${f.unit})` : ''} failed: {f.detail}</p>)}
          {data.document.evaluations.filter((e) => e.pairs.length > 0 || e.verdict).slice(0, 50).map((e) => {
            const ratios = e.pairs.map((p) => (p.baseline !== 0 ? p.target / p.baseline : null));
            const interval = e.outcome.interval95;
            const option: ChartOption = {
              grid: { left: 60, right: 20, top: 20, bottom: 30 }, tooltip: { trigger: 'axis' },
              xAxis: { type: 'category', data: e.pairs.map((p) => `round ${p.round}`) },
              yAxis: { type: 'value', scale: true, name: 'target / baseline' },
              series: [{ name: 'ratio', type: 'line', data: ratios, itemStyle: { color: VERDICT_COLOR[e.verdict] },
                         markLine: { symbol: 'none', data: [{ yAxis: 1, name: 'no change' },
                           ...(interval ? [{ yAxis: interval[0], name: '95% low' }, { yAxis: interval[1], name: '95% high' }] : [])] } }],
            };
            return (
              <div key={e.series.fingerprint + (e.unit ?? '')} class="run-unit" data-verdict={e.verdict}>
                <h3>{e.series.label} <VerdictBadge verdict={e.verdict} /></h3>
                <p>{e.reason} · ratio {effectText(e)}{interval ? ` · 95% interval ${interval[0].toFixed(3)}–${interval[1].toFixed(3)}` : ''}</p>
                {e.pairs.length > 0 && <Chart option={option} height={180} label={`Per-round ratios of ${e.series.label}`} />}
                <table class="grid compact"><thead><tr><th>round</th><th>baseline</th><th>target</th><th>ratio</th></tr></thead>
                  <tbody>{e.pairs.map((p, i) => <tr key={p.round}><td>{p.round}</td><td>{figure(p.baseline)}</td>
                    <td>{figure(p.target)}</td><td>{ratios[i] === null ? '–' : ratios[i]!.toFixed(3)}</td></tr>)}</tbody></table>
              </div>);
          })}
        </>)}
    </section>
  );
}

// --- One revision: every series regressed, improved, unchanged, indeterminate or missing.
const GROUPS: { key: string; label: string; test: (e: Evaluation) => boolean }[] = [
  { key: 'regressed', label: 'Regressed', test: (e) => e.verdict === 'regressed' || e.verdict === 'changed' },
  { key: 'improved', label: 'Improved', test: (e) => e.verdict === 'improved' },
  { key: 'no-change', label: 'No change detected', test: (e) => e.verdict === 'no-change-detected' },
  { key: 'indeterminate', label: 'Indeterminate', test: (e) => e.verdict === 'indeterminate' },
];

function BatchView({ subject, results }: { subject: string; results: StoredResultRow[] }) {
  const q = query();
  const revisions = [...new Set(results.map((r) => r.revision).filter(Boolean))];
  const revision = q.get('revision') ?? revisions[revisions.length - 1] ?? '';
  const shown = new Set((q.get('show') ?? '').split(',').filter(Boolean));
  const [text, setText] = useState('');
  const { data, error } = useAnswer(revision ? () => api.batch({ revision }) : null, revision);
  const set = (change: Record<string, string>) => go({ subject, tab: 'batch', revision, show: [...shown].join(','), ...change });
  const toggle = (key: string) => {
    const next = new Set(shown);
    if (next.has(key)) next.delete(key); else next.add(key);
    set({ show: [...next].join(',') });
  };
  const matches = (label: string) => label.toLowerCase().includes(text.toLowerCase());
  const evaluations = data?.document.evaluations ?? [];
  return (
    <section class="panel batch-view">
      <h2>One revision <span class="muted">· every series of its results against their history</span></h2>
      <div class="row">
        <label>Revision <select value={revision} onChange={(e) => set({ revision: (e.target as HTMLSelectElement).value })}>
          {revisions.map((r) => <option key={r}>{r}</option>)}</select></label>
        <label class="search">Find a series <input type="search" value={text} onInput={(e) => setText((e.target as HTMLInputElement).value)} /></label>
      </div>
      <div class="filter-row" role="group" aria-label="Show only">
        {[...GROUPS.map((g) => g.key), 'missing'].map((key) => (
          <button key={key} type="button" class="chip" aria-pressed={shown.has(key)} onClick={() => toggle(key)}>{key}</button>))}
      </div>
      {error && <p role="alert" class="error">{error.message}</p>}
      {data && (
        <>
          <Method doc={data.document} />
          {GROUPS.filter((g) => shown.size === 0 || shown.has(g.key)).map((g) => {
            const rows = evaluations.filter((e) => g.test(e) && matches(e.series.label));
            return (
              <div key={g.key} class={`batch-group batch-${g.key}`}>
                <h3>{g.label} <span class="muted">({rows.length})</span></h3>
                {rows.length > 0 && (
                  <table class="grid compact"><thead><tr><th>series</th><th>verdict</th><th>effect</th><th>reason</th><th>runs</th></tr></thead>
                    <tbody>{rows.slice(0, 300).map((e) => (
                      <tr key={e.series.fingerprint + (e.target?.resultId ?? '')} data-verdict={e.verdict} data-quantity={e.series.quantity}>
                        <td><a href={`/history?${new URLSearchParams({ subject, quantity: e.series.quantity, fp: e.series.fingerprint })}`}
                               onClick={(ev) => { ev.preventDefault(); go({ subject, quantity: e.series.quantity, fp: e.series.fingerprint }); }}>
                          {e.series.label}</a></td>
                        <td><VerdictBadge verdict={e.verdict} /></td><td>{effectText(e)}</td>
                        <td class="name" title={e.detail || e.reason}>{e.reason}{e.detail ? `: ${e.detail}` : ''}</td>
                        <td><CompareLink answer={data} e={e} /></td></tr>))}</tbody></table>)}
              </div>);
          })}
          {(shown.size === 0 || shown.has('missing')) && (
            <div class="batch-group batch-missing">
              <h3>Missing <span class="muted">({data.document.missing.length})</span></h3>
              <ul class="plain">{data.document.missing.filter((m) => matches(m.label)).slice(0, 300).map((m) => (
                <li key={m.fingerprint}>{m.label} <span class="muted">last seen in {m.lastResultId.slice(0, 12)}</span></li>))}</ul>
            </div>)}
        </>)}
    </section>
  );
}

function Subject({ subject }: { subject: string }) {
  const q = query();
  const tab = q.get('tab') ?? 'series';
  const quantity = q.get('quantity');
  const fingerprint = q.get('fp') ?? '';
  // The subject's results (ancestry order) for the run and batch choices: the series list's answer carries them.
  const { data } = useAnswer(tab !== 'series' ? () => api.series(subject) : null, `${subject}\n${tab}`);
  const tabs: [string, string][] = [['series', 'Series'], ['run', 'Planned run'], ['batch', 'Revision']];
  return (
    <>
      <nav class="subtabs" aria-label="Views of this subject">
        {tabs.map(([key, label]) => (
          <a key={key} class="tab" aria-current={tab === key ? 'page' : undefined}
             href={`/history?${new URLSearchParams({ subject, tab: key })}`}
             onClick={(e) => { e.preventDefault(); go({ subject, tab: key === 'series' ? undefined : key }); }}>{label}</a>))}
      </nav>
      {tab === 'series' && (quantity ? <SeriesView subject={subject} quantity={quantity} fingerprint={fingerprint} />
                                     : <SeriesList subject={subject} />)}
      {tab === 'run' && (data ? <RunView subject={subject} results={data.results} /> : <p class="muted">Reading the store…</p>)}
      {tab === 'batch' && (data ? <BatchView subject={subject} results={data.results} /> : <p class="muted">Reading the store…</p>)}
    </>
  );
}

export function HistoryPage() {
  const subject = query().get('subject');
  const { data, error } = useAnswer(() => api.subjects(), 'subjects');
  const subjects: SubjectRow[] = useMemo(() => data?.subjects ?? [], [data]);
  useEffect(() => { document.title = 'History · SparkForensics'; }, []);
  return (
    <>
      <h1 class="page-title">History {data && <span class="muted store">· {data.store}</span>}</h1>
      {error && <Problem error={error} />}
      {data && (
        <section class="panel">
          <label>Subject <select value={subject ?? ''} name="subject" onChange={(e) => go({ subject: (e.target as HTMLSelectElement).value })}>
            <option value="">—</option>
            {subjects.map((s) => <option key={s.subject} value={s.subject}>{s.subject} ({s.results} results, {s.revisions} revisions)</option>)}
          </select></label>
          {subjects.length === 0 && <p class="muted">The store holds no results yet (sparkforensics store ingest).</p>}
        </section>)}
      {subject && <Subject subject={subject} />}
    </>
  );
}
