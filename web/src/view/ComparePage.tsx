// The compare page: a baseline and a candidate, each from any way in (a log of the directory,
// a file or rolling-log folder uploaded, an application of a Spark History Server), named in the
// address (/compare?base=L&cand=L&pin=B:C&plan=B:C) so the page can be shared; then the
// comparison `compare` prints, from the server's own compare_runs (GET compare), or from the
// document inlined by `compare --format html`.
import { useEffect, useMemo, useState } from 'preact/hooks';
import { api, ApiError, inlinedComparison, isReport } from '../api';
import { formatBytes, formatCount, formatMoney, formatMs, formatPercent } from '../format';
import { navigateQuery } from '../route';
import { checkSize, pollParse } from '../store/useIngest';
import type { ApplicationRow, ComparisonDocument, Direction, MetricDelta, ParseStatus, StagePair, StageSide,
              StageTotals } from '../types';
import { BandBadge } from './badges';
import { Link } from './Link';
import { PlanDiffView } from './PlanDiff';
import { SHS_GUIDANCE, validateShs, type ShsFields } from './shs-request';

type Side = 'base' | 'cand';
const SIDE_LABEL: Record<Side, string> = { base: 'Baseline', cand: 'Candidate' };

function query(): URLSearchParams { return new URLSearchParams(location.search); }

function setQuery(change: (q: URLSearchParams) => void, replace = false) {
  const q = query();
  change(q);
  navigateQuery('compare', [...q.entries()], replace);
}

// --- One slot: where a side's log comes from. Reading it runs a parse on the server (with its
// progress); the slot's value, once read, is the log's name in the address.
function Slot({ side, log }: { side: Side; log: string | null }) {
  const [search, setSearch] = useState('');
  const [rows, setRows] = useState<ApplicationRow[] | null>(null);
  const [parse, setParse] = useState<ParseStatus | null>(null);
  const [error, setError] = useState<{ code: string; message: string } | null>(null);
  const [shsOpen, setShsOpen] = useState(false);
  const [shs, setShs] = useState<ShsFields>({ baseUrl: '', appId: '', attemptId: '' });
  const id = `slot-${side}`;

  useEffect(() => {
    let live = true;
    const timer = setTimeout(() => {
      api.applications(0, 8, search).then((a) => live && setRows(a.applications), (e: ApiError) => live && setError(e));
    }, search ? 200 : 0);
    return () => { live = false; clearTimeout(timer); };
  }, [search]);

  async function read(start: () => Promise<ParseStatus>) {
    setError(null);
    try {
      const done = await pollParse(await start(), setParse, () => true);
      setParse(null);
      if (done.state === 'failed' || !done.log) {
        setError({ code: done.error?.code ?? 'failed', message: done.error?.message ?? 'the log could not be read' });
        return;
      }
      const chosen = done.log;
      setQuery((q) => { q.set(side, chosen); q.delete('pin'); q.delete('plan'); });
    } catch (e) {
      setParse(null);
      const err = e instanceof ApiError ? e : new ApiError(0, 'internal', String(e));
      setError({ code: err.code, message: err.message });
    }
  }
  const pick = (name: string) => read(() => api.startParse(name));
  const upload = (file: File) => read(async () => {
    await checkSize(file.size);
    const uploaded = await api.upload(file, file.name);
    return api.startParse(uploaded.log);
  });
  const shsErrors = validateShs(shs);

  return (
    <section class="panel slot" aria-labelledby={`${id}-title`} data-slot={side}>
      <h2 id={`${id}-title`}>{SIDE_LABEL[side]}</h2>
      {log ? <p>Chosen: <Link to={{ log, view: 'overview', args: [] }}><code>{log}</code></Link>{' '}
        <button type="button" class="link" onClick={() => setQuery((q) => { q.delete(side); q.delete('pin'); q.delete('plan'); })}>
          change</button></p>
        : <p class="muted">Pick an application, upload a log, or fetch one from a History Server.</p>}
      {parse && <p class="muted" aria-live="polite">Reading… {parse.bytesTotal > 0
        ? `${Math.round((parse.bytesDone / parse.bytesTotal) * 100)}%` : ''} {formatCount(parse.lines)} lines</p>}
      {error && <p role="alert" class="error" data-code={error.code}>{error.code === 'unreadable-log' ? error.message
        : SHS_GUIDANCE[error.code] ?? error.message}</p>}
      {!log && (
        <>
          <label class="search">Search the log directory <input type="search" value={search} placeholder="id, name or user"
                 onInput={(e) => setSearch((e.target as HTMLInputElement).value)} /></label>
          <ul class="slot-list">
            {(rows ?? []).map((r) => (
              <li key={r.log}><button type="button" class="link" data-log={r.log} onClick={() => void pick(r.log)}>{r.appId}</button>
                <span class="muted"> {r.name} · {r.log}</span></li>))}
          </ul>
          <label class="button">Upload a file
            <input type="file" class="visually-hidden" data-testid={`${side}-file`}
                   onChange={(e) => { const input = e.target as HTMLInputElement; const f = input.files?.[0];
                                      input.value = ''; if (f) void upload(f); }} /></label>
          <button type="button" class="disclosure" aria-expanded={shsOpen} onClick={() => setShsOpen(!shsOpen)}>
            Fetch from Spark History Server</button>
          {shsOpen && (
            <form class="shs" noValidate onSubmit={(e) => {
              e.preventDefault();
              if (Object.keys(shsErrors).length === 0) void read(() => api.historyServer(shs.baseUrl.trim(), shs.appId.trim(), shs.attemptId.trim()));
            }}>
              {(['baseUrl', 'appId', 'attemptId'] as (keyof ShsFields)[]).map((k) => (
                <label key={k}>{k === 'baseUrl' ? 'Base URL' : k === 'appId' ? 'Application ID' : 'Attempt ID (optional)'}
                  <input name={`${side}-${k}`} value={shs[k]} aria-invalid={!!shsErrors[k]}
                         onInput={(e) => setShs({ ...shs, [k]: (e.target as HTMLInputElement).value })} />
                  <span class="error">{shs[k] ? shsErrors[k] : ''}</span></label>))}
              <button type="submit">Fetch and read</button>
            </form>
          )}
        </>
      )}
    </section>
  );
}

// --- The comparison.
const DIRECTION_TEXT: Record<Direction, string> = {
  improvement: 'better', regression: 'worse', unchanged: 'within noise', unavailable: 'unavailable',
  notComparable: 'not comparable' };

function metricValue(unit: string, value: number | null): string {
  if (value === null) return '–';
  if (unit === 'ms') return formatMs(value);
  if (unit === 'bytes') return formatBytes(value);
  if (unit === 'count') return formatCount(value);
  if (unit === 'ratio' || unit === 'core-hours') return value.toFixed(unit === 'ratio' ? 3 : 4);
  return formatMoney(value, unit);  // money (the rate card's currency) and anything new
}

function signed(unit: string, delta: number | null): string {
  if (delta === null) return '–';
  const text = metricValue(unit, Math.abs(delta));
  return delta > 0 ? `+${text}` : delta < 0 ? `−${text}` : '0';
}

function DirectionBadge({ direction }: { direction: Direction }) {
  return <span class={`dir dir-${direction}`}>{DIRECTION_TEXT[direction]}</span>;
}

function Banner({ c }: { c: ComparisonDocument }) {
  const coverage = c.runtimeCoverage === null ? 'no executor run time recorded'
    : `${formatPercent(c.runtimeCoverage)} of executor run time in paired or replanned stages`;
  return (
    <section class={`panel banner banner-${c.confidence}`} role={c.confidence === 'ok' ? 'status' : 'alert'}
             data-confidence={c.confidence}>
      <h2>Confidence: {c.confidence}</h2>
      {c.banner ? <p>{c.banner}</p> : <p>The stage pairing covers the runs' work; per-stage rows compare like with like.</p>}
      <p class="muted">{coverage} · {formatPercent(c.matchedCoverage)} of stages by count ·
        {' '}{c.executionAlignment.paired} of {c.executionAlignment.baselineExecutions} / {c.executionAlignment.candidateExecutions} SQL
        executions aligned{c.executionAlignment.bounded ? ' (banded)' : ''}</p>
    </section>
  );
}

function Runs({ c, base, cand }: { c: ComparisonDocument; base: string | null; cand: string | null }) {
  const run = (r: ComparisonDocument['baseline'], log: string | null, side: Side) => (
    <div class="kpi" key={side}>
      <span class="label">{SIDE_LABEL[side]}</span>
      <span class="value">{r.appName || r.appId}</span>
      <span class="muted">{r.appId} · {formatMs(r.durationMs)} · Spark {r.sparkVersion || '?'}</span>
      {log && <Link to={{ log, view: 'overview', args: [] }}>open its analysis</Link>}
    </div>);
  return <div class="kpis">{run(c.baseline, base, 'base')}{run(c.candidate, cand, 'cand')}</div>;
}

function Metrics({ c }: { c: ComparisonDocument }) {
  const cost = c.metricDeltas.find((m) => m.name === 'cost');
  const row = (m: MetricDelta) => (
    <tr key={m.name} data-metric={m.name}>
      <td>{m.name}</td><td>{metricValue(m.unit, m.baseline)}</td><td>{metricValue(m.unit, m.candidate)}</td>
      <td>{signed(m.unit, m.delta)}{m.relativeChange !== null ? ` (${(m.relativeChange * 100).toFixed(1)}%)` : ''}</td>
      <td>{m.unavailableReason ? <span class="muted">{m.unavailableReason}</span> : <DirectionBadge direction={m.direction} />}</td>
    </tr>);
  return (
    <section class="panel">
      <h2>Whole-run metrics <span class="muted">· lower is better; independent of the stage pairing</span></h2>
      {cost && (
        <p class="cost" data-testid="cost-delta">Cost: {metricValue(cost.unit, cost.baseline)} → {metricValue(cost.unit, cost.candidate)}
          {' '}({signed(cost.unit, cost.delta)}) <DirectionBadge direction={cost.direction} /></p>)}
      <table class="grid compact">
        <thead><tr><th>metric</th><th>baseline</th><th>candidate</th><th>change</th><th>verdict</th></tr></thead>
        <tbody>{c.metricDeltas.map(row)}</tbody>
      </table>
    </section>
  );
}

function Configuration({ c }: { c: ComparisonDocument }) {
  if (c.configurationDifferences.length === 0) return null;
  return (
    <section class="panel">
      <h2>Configuration differences</h2>
      <table class="grid compact">
        <thead><tr><th>setting</th><th>baseline</th><th>candidate</th><th>in effect</th></tr></thead>
        <tbody>{c.configurationDifferences.map((d) => (
          <tr key={d.key}><td><code>{d.key}</code></td><td class="value">{d.baseline ?? <span class="muted">unset</span>}</td>
            <td class="value">{d.candidate ?? <span class="muted">unset</span>}</td>
            <td>{d.sameInEffect ? 'same in effect' : 'differs'}</td></tr>))}</tbody>
      </table>
    </section>
  );
}

function Findings({ c }: { c: ComparisonDocument }) {
  const list = (title: string, items: ComparisonDocument['findingsDelta']['introduced']) => (
    <div>
      <h3>{title}</h3>
      {items.length === 0 ? <p class="muted">none</p> : (
        <ul class="plain">{items.map((f) => <li key={`${f.rule}-${f.band}`}><code>{f.rule}</code> <BandBadge band={f.band} />
          {' '}{f.baseline} → {f.candidate}</li>)}</ul>)}
    </div>);
  return (
    <section class="panel">
      <h2>Findings</h2>
      <div class="two-col">{list('Introduced', c.findingsDelta.introduced)}{list('Resolved', c.findingsDelta.resolved)}</div>
    </section>
  );
}

function Executions({ c, onPlan, selected }: { c: ComparisonDocument; onPlan: (b: number, k: number) => void; selected: string | null }) {
  if (c.executionDeltas.length === 0) return null;
  return (
    <section class="panel">
      <h2>SQL executions <span class="muted">· aligned pairs, duration change</span></h2>
      <table class="grid compact">
        <thead><tr><th>baseline</th><th>candidate</th><th>description</th><th>baseline</th><th>candidate</th><th>change</th>
          <th>verdict</th><th>plan</th></tr></thead>
        <tbody>{c.executionDeltas.map((d) => {
          const key = `${d.baselineExecutionId}:${d.candidateExecutionId}`;
          return (
            <tr key={key} class={selected === key ? 'selected-row' : undefined}>
              <td>{d.baselineExecutionId}</td><td>{d.candidateExecutionId}</td><td class="name" title={d.description}>{d.description}</td>
              <td>{formatMs(d.baselineDurationMs)}</td><td>{formatMs(d.candidateDurationMs)}</td>
              <td>{signed('ms', d.deltaMs)}</td><td><DirectionBadge direction={d.direction} /></td>
              <td><button type="button" class="link" data-plan={key} onClick={() => onPlan(d.baselineExecutionId, d.candidateExecutionId)}>
                plan diff</button></td>
            </tr>);
        })}</tbody>
      </table>
    </section>
  );
}

const METHOD_TEXT: Record<string, string> = { exact: 'exact', structural: 'structural', aligned: 'aligned', pinned: 'pinned by hand' };

// Which other stages fit an ambiguous pair as well; the pin panel settles it.
function ambiguityTitle(pair: StagePair): string {
  const sides = [
    pair.ambiguousWith.candidate.length ? `candidate stage ${pair.ambiguousWith.candidate.join(', ')}` : '',
    pair.ambiguousWith.baseline.length ? `baseline stage ${pair.ambiguousWith.baseline.join(', ')}` : '',
  ].filter((s) => s);
  const rivals = pair.ambiguousWith.candidate.length + pair.ambiguousWith.baseline.length;
  return `${sides.join(' and ')} ${rivals === 1 ? 'fits' : 'fit'} as well by place in the job and bytes read; ` +
    'pin the pair you mean';
}

function stageName(stages: StageSide[], id: number): string {
  return stages.find((s) => s.stageId === id)?.name ?? '';
}

function Pairs({ c }: { c: ComparisonDocument }) {
  return (
    <section class="panel">
      <h2>Stage pairs <span class="muted">· {c.stagePairs.length} paired, how and how sure</span></h2>
      {c.stagePairs.length === 0 ? <p class="muted">No stage is paired.</p> : (
        <table class="grid compact pairs">
          <thead><tr><th>baseline stage</th><th>candidate stage</th><th>paired</th><th>score</th><th>quality</th>
            <th>run time baseline</th><th>candidate</th><th>change</th></tr></thead>
          <tbody>{c.stageDeltas.map((d) => (
            <tr key={`${d.pair.baselineStageId}-${d.pair.candidateStageId}`} data-method={d.pair.method}>
              <td><span class="num">{d.baseline.stageId}</span> <span class="muted">{d.baseline.name}</span></td>
              <td><span class="num">{d.candidate.stageId}</span> <span class="muted">{d.candidate.name}</span></td>
              <td class="method">{d.pair.byPosition ? 'aligned by position' : METHOD_TEXT[d.pair.method] ?? d.pair.method}</td>
              <td>{d.pair.score.toFixed(2)}</td>
              <td>{d.pair.quality}{d.pair.ambiguous ? <span class="muted" title={ambiguityTitle(d.pair)}> · ambiguous</span> : null}</td>
              <td>{formatMs(d.baseline.totals.executorRunTimeMs)}</td><td>{formatMs(d.candidate.totals.executorRunTimeMs)}</td>
              <td>{signed('ms', d.executorRunTimeDeltaMs)}</td>
            </tr>))}</tbody>
        </table>)}
    </section>
  );
}

function totalsText(t: StageTotals): string {
  return `${formatMs(t.executorRunTimeMs)} run time · ${formatCount(t.tasks)} tasks · ${formatBytes(t.shuffleReadBytes)} shuffle read`;
}

function Leftovers({ c }: { c: ComparisonDocument }) {
  const names = (stages: StageSide[], ids: number[]) => ids.length === 0 ? <span class="muted">none</span>
    : ids.map((id) => <span key={id} class="stage-chip" title={stageName(stages, id)}>{id} <span class="muted">{stageName(stages, id)}</span></span>);
  return (
    <section class="panel">
      <h2>Replanned, unmatched and bookkeeping stages</h2>
      <h3>Replanned groups</h3>
      {c.replanned.length === 0 ? <p class="muted">none</p> : (
        <table class="grid compact replanned">
          <thead><tr><th>executions</th><th>baseline stages</th><th>baseline total</th><th>candidate stages</th><th>candidate total</th></tr></thead>
          <tbody>{c.replanned.map((g) => (
            <tr key={`${g.baselineExecutionId}-${g.candidateExecutionId}`}>
              <td>{g.baselineExecutionId} → {g.candidateExecutionId}</td>
              <td>{g.baselineStageIds.join(', ') || '–'}</td><td>{totalsText(g.baselineTotals)}</td>
              <td>{g.candidateStageIds.join(', ') || '–'}</td><td>{totalsText(g.candidateTotals)}</td></tr>))}</tbody>
        </table>)}
      <h3>Unmatched</h3>
      <dl class="sides unmatched">
        <dt>baseline</dt><dd>{names(c.baseStages, c.unmatched.baseline)}</dd>
        <dt>candidate</dt><dd>{names(c.candStages, c.unmatched.candidate)}</dd>
      </dl>
      <h3>Delta bookkeeping <span class="muted">· reads of the Delta log, set apart from the pairing and the coverage</span></h3>
      <dl class="sides bookkeeping">
        <dt>baseline</dt><dd>{names(c.baseStages, c.deltaBookkeeping.baseline)}</dd>
        <dt>candidate</dt><dd>{names(c.candStages, c.deltaBookkeeping.candidate)}</dd>
      </dl>
    </section>
  );
}

// Pairs made by hand: each pin goes to the address and the server compares again with it (the
// pairs, the coverage and the confidence follow). A self-contained page has no server: compare
// --pin makes a page with them.
function Pins({ c, pins }: { c: ComparisonDocument; pins: string[] }) {
  const bookkept = { base: new Set(c.deltaBookkeeping.baseline), cand: new Set(c.deltaBookkeeping.candidate) };
  const [b, setB] = useState('');
  const [k, setK] = useState('');
  const report = isReport();
  const options = (stages: StageSide[], skip: Set<number>) => stages.filter((s) => !skip.has(s.stageId)).map((s) => (
    <option key={s.stageId} value={String(s.stageId)}>{s.stageId} · {s.name.slice(0, 60)}</option>));
  return (
    <section class="panel pins">
      <h2>Pin stages by hand</h2>
      {report ? <p class="muted">This page was written by <code>compare --format html</code>; pins need <code>serve</code> (or
        {' '}<code>compare --pin B:C</code>).</p> : (
        <form class="row" onSubmit={(e) => {
          e.preventDefault();
          if (b && k) setQuery((q) => { q.append('pin', `${b}:${k}`); });
        }}>
          <label>Baseline stage <select name="pin-base" value={b} onChange={(e) => setB((e.target as HTMLSelectElement).value)}>
            <option value="">—</option>{options(c.baseStages, bookkept.base)}</select></label>
          <label>Candidate stage <select name="pin-cand" value={k} onChange={(e) => setK((e.target as HTMLSelectElement).value)}>
            <option value="">—</option>{options(c.candStages, bookkept.cand)}</select></label>
          <button type="submit" disabled={!b || !k}>Pin</button>
        </form>)}
      {pins.length > 0 && (
        <ul class="plain">{pins.map((p) => (
          <li key={p}>pinned {p.replace(':', ' ↔ ')}{' '}
            {!report && <button type="button" class="link" onClick={() => setQuery((q) => {
              const rest = q.getAll('pin').filter((x) => x !== p);
              q.delete('pin');
              rest.forEach((x) => q.append('pin', x));
            })}>remove</button>}</li>))}</ul>)}
    </section>
  );
}

function Comparison({ c, base, cand, pins, plan }:
  { c: ComparisonDocument; base: string | null; cand: string | null; pins: string[]; plan: string | null }) {
  const inlined = inlinedComparison();
  const [b, k] = plan ? plan.split(':').map(Number) : [NaN, NaN];
  const openPlan = (x: number, y: number) => {
    if (inlined) {
      location.hash = `#/?plan=${x}:${y}`;
    } else {
      setQuery((q) => q.set('plan', `${x}:${y}`));
    }
  };
  return (
    <div class="compare">
      <Runs c={c} base={base} cand={cand} />
      <Banner c={c} />
      <Metrics c={c} />
      <Configuration c={c} />
      <Findings c={c} />
      <Executions c={c} onPlan={openPlan} selected={plan} />
      {plan && Number.isFinite(b) && Number.isFinite(k) && (
        <PlanDiffView base={base} cand={cand} baseExecution={b!} candExecution={k!} />)}
      <Pairs c={c} />
      <Leftovers c={c} />
      <Pins c={c} pins={pins} />
    </div>
  );
}

export function ComparePage() {
  const inlined = inlinedComparison();
  const q = query();
  const base = inlined ? null : q.get('base');
  const cand = inlined ? null : q.get('cand');
  const pins = inlined ? [] : q.getAll('pin');
  const plan = inlined ? new URLSearchParams(location.hash.replace(/^#\/?\??/, '')).get('plan') : q.get('plan');
  const [doc, setDoc] = useState<ComparisonDocument | null>(inlined?.comparison ?? null);
  const [error, setError] = useState<ApiError | null>(null);
  const key = useMemo(() => [base, cand, ...pins].join('\n'), [base, cand, pins.join(',')]);
  useEffect(() => { document.title = 'Compare · SparkForensics'; }, []);

  useEffect(() => {
    if (inlined || !base || !cand) return undefined;
    let live = true;
    setDoc(null);
    setError(null);
    (async () => {
      // Both logs read first (a parse each, at once), so the comparison does not wait unseen.
      for (const log of [base, cand]) {
        const done = await pollParse(await api.startParse(log), () => undefined, () => live);
        if (done.state === 'failed') throw new ApiError(422, done.error?.code ?? 'failed', done.error?.message ?? log);
      }
      const answer = await api.compare(base, cand, pins);
      if (live) setDoc(answer);
    })().catch((e) => live && setError(e instanceof ApiError ? e : new ApiError(0, 'internal', String(e))));
    return () => { live = false; };
  }, [key]);

  return (
    <>
      <h1 class="page-title">Compare two runs</h1>
      {!inlined && (
        <div class="slots">
          <Slot side="base" log={base} />
          <Slot side="cand" log={cand} />
        </div>)}
      {error && <section class="panel" role="alert"><p class="error" data-code={error.code}>{error.message}</p></section>}
      {!inlined && base && cand && !doc && !error && <section class="panel" aria-live="polite"><p>Comparing…</p></section>}
      {doc && <Comparison c={doc} base={base} cand={cand} pins={pins} plan={plan} />}
    </>
  );
}

