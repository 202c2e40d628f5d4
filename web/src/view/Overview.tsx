// The application at a glance: wall clock against task time, the time before the first job,
// cores held against cores busy over the run (executors coming and going, jobs beneath), where
// the time and the money go (driver alone, critical path, the what-if curve, cost), and the
// findings worth fixing first.
import { useMemo } from 'preact/hooks';
import { formatDate, formatMoney as money, formatMs, formatPercent } from '../format';
import { currentRoute } from '../route';
import { useStore } from '../store/store';
import type { AnalysisDocument, Economics, TimelineDocument } from '../types';
import { Chart, type ChartOption } from './charts';
import { FindingCard } from './FindingCard';
import { Link } from './Link';

function coresOption(doc: AnalysisDocument, timeline: TimelineDocument): ChartOption {
  const start = doc.app.startTimeMs ?? 0;
  const rel = (points: [number, number][]) => points.map(([t, v]) => [(t - start) / 1000, v]);
  const changes = doc.executors.flatMap((e) => [
    ...(e.addTimeMs !== null && e.executorId !== 'driver' ? [{ xAxis: (e.addTimeMs - start) / 1000, name: `+${e.executorId}` }] : []),
    ...(e.removeTimeMs !== null ? [{ xAxis: (e.removeTimeMs - start) / 1000, name: `−${e.executorId}` }] : []),
  ]).slice(0, 200);
  const jobs = doc.jobs.filter((j) => j.submissionTimeMs !== null).map((j) => ({
    value: [0, (j.submissionTimeMs! - start) / 1000, ((j.completionTimeMs ?? doc.app.endTimeMs ?? j.submissionTimeMs!) - start) / 1000, j.jobId],
    itemStyle: { color: j.status === 'FAILED' ? '#d9534f' : '#5b8def' },
  }));
  const end = Math.max(1, Math.ceil(((doc.app.endTimeMs ?? start) - start) / 1000));
  return {
    tooltip: { trigger: 'axis' },
    legend: { data: ['cores allocated', 'cores busy'], top: 0 },
    grid: [{ left: 50, right: 20, top: 30, height: 170 }, { left: 50, right: 20, top: 230, height: 40 }],
    xAxis: [{ type: 'value', name: 's', min: 0, max: end, gridIndex: 0 },
            { type: 'value', min: 0, max: end, gridIndex: 1, show: false }],
    yAxis: [{ type: 'value', name: 'cores', gridIndex: 0 }, { type: 'category', data: ['jobs'], gridIndex: 1 }],
    dataZoom: [{ type: 'inside', xAxisIndex: [0, 1] }],
    series: [
      { name: 'cores allocated', type: 'line', step: 'end', showSymbol: false, data: rel(timeline.coresAllocated),
        markLine: { symbol: 'none', silent: true, label: { show: false }, lineStyle: { type: 'dotted', opacity: 0.5 },
                    data: changes } },
      { name: 'cores busy', type: 'line', step: 'end', showSymbol: false, areaStyle: { opacity: 0.25 },
        data: rel(timeline.coresBusy) },
      { name: 'jobs', type: 'custom', xAxisIndex: 1, yAxisIndex: 1, data: jobs, encode: { x: [1, 2], y: 0 },
        renderItem: (_params: unknown, api: any) => {
          const from = api.coord([api.value(1), 0]);
          const to = api.coord([api.value(2), 0]);
          const h = api.size([0, 1])[1] * 0.6;
          return { type: 'rect', shape: { x: from[0], y: from[1] - h / 2, width: Math.max(1, to[0] - from[0]), height: h },
                   style: api.style() };
        },
        tooltip: { trigger: 'item', formatter: (p: any) => `job ${p.value[3]}: ${(p.value[2] - p.value[1]).toFixed(1)} s` } },
    ],
  };
}

function whatIfOption(e: Economics): ChartOption {
  const w = e.whatIf!;
  return {
    tooltip: { trigger: 'axis' },
    grid: { left: 50, right: 20, top: 20, bottom: 40 },
    xAxis: { type: 'category', name: 'executors', nameLocation: 'middle', nameGap: 26,
             data: w.curve.map((p) => String(p.executors)) },
    yAxis: { type: 'value', name: 's' },
    series: [{ name: 'predicted wall clock', type: 'line', data: w.curve.map((p) => Math.round(p.predictedMs) / 1000),
               markPoint: { symbol: 'pin', symbolSize: 36, data: [
                 { name: 'today', coord: [String(w.todayExecutors), Math.round(w.todaySimulatedMs) / 1000], value: 'today' },
                 { name: 'knee', coord: [String(w.kneeExecutors), Math.round(w.kneeMs) / 1000], value: 'knee' }] } }],
  };
}

// Today's size as the what-if counts it: under dynamic allocation the ceiling, with the peak held.
function todaySize(w: NonNullable<Economics['whatIf']>): string {
  if (!w.dynamicAllocation) return String(w.todayExecutors);
  return `up to ${w.todayExecutors} (dynamic allocation; ${w.peakExecutors} at the peak)`;
}

function EconomicsPanel({ e }: { e: Economics }) {
  const option = useMemo(() => (e.whatIf ? whatIfOption(e) : null), [e]);
  const split = e.timeSplit;
  const path = e.criticalPath;
  const w = e.whatIf;
  const currency = e.cost.rateCard.currency;
  return (
    <section class="panel" aria-label="Where the time and the money go">
      <h2>Where the time and the money go</h2>
      <div class="kpis">
        <div class="kpi"><span class="label">Driver alone</span>
          <span class="value">{split ? formatMs(split.driverOnlyMs) : '–'}</span>
          <span class="muted">{split ? `${formatPercent(split.driverOnlyShare ?? 0)} of the run: no executor could help` : ''}</span></div>
        <div class="kpi"><span class="label">Critical path</span>
          <span class="value">{path ? formatMs(path.lengthMs) : '–'}</span>
          <span class="muted">{path ? `unlimited executors; ${formatMs(path.idealMs)} with ${path.idealCores} cores and no skew` : ''}</span></div>
        <div class="kpi"><span class="label">Knee of the curve</span>
          <span class="value">{w ? `${w.kneeExecutors} × ${w.coresPerExecutor} cores` : '–'}</span>
          <span class="muted">{w ? `${formatMs(w.kneeMs)}; today ${todaySize(w)}: ${formatMs(w.measuredMs)}` : ''}</span></div>
        <div class="kpi"><span class="label">Cost</span>
          <span class="value">{money(e.cost.total, currency)}</span>
          <span class="muted">{`${e.cost.rateCard.name} prices; ${money(e.cost.driverOnly, currency)} while the driver worked alone`}</span></div>
      </div>
      {option && <Chart option={option} height={220} label="Predicted wall clock against the number of executors (the what-if simulation), with today's size and the knee" />}
    </section>
  );
}

export function Overview() {
  const doc = useStore((s) => s.doc)!;
  const timeline = useStore((s) => s.timeline)!;
  const log = currentRoute().log;
  const taskTimeMs = doc.stages.reduce((sum, s) => sum + (s.metrics?.executorRunTimeMs ?? 0), 0);
  const start = doc.app.startTimeMs;
  const firstJob = doc.jobs.reduce<number | null>((min, j) =>
    j.submissionTimeMs !== null && (min === null || j.submissionTimeMs < min) ? j.submissionTimeMs : min, null);
  const option = useMemo(() => coresOption(doc, timeline), [doc, timeline]);
  const top = doc.findings.slice(0, 3);
  const wall = doc.app.durationMs;
  return (
    <div class="overview">
      <section class="kpis" aria-label="The run in figures">
        <div class="kpi"><span class="label">Wall clock</span><span class="value">{formatMs(wall)}</span>
          <span class="muted">{doc.app.finished ? 'finished' : 'did not finish'} · started {formatDate(start)}</span></div>
        <div class="kpi"><span class="label">Task time</span><span class="value">{formatMs(taskTimeMs)}</span>
          <span class="muted">{wall ? `${(taskTimeMs / wall).toFixed(1)} cores busy on average` : ''}</span></div>
        <div class="kpi"><span class="label">Before the first job</span>
          <span class="value">{firstJob !== null && start !== null ? formatMs(firstJob - start) : '–'}</span>
          <span class="muted">driver start-up and work before any job</span></div>
        <div class="kpi"><span class="label">Peak cores</span><span class="value">{doc.app.peakConcurrentCores}</span>
          <span class="muted">{doc.executors.filter((e) => e.executorId !== 'driver').length} executors over the run</span></div>
        <div class="kpi"><span class="label">Findings</span><span class="value">{doc.findings.length}</span>
          <span class="muted">Spark {doc.app.sparkVersion || 'version not logged'}</span></div>
      </section>
      <section class="panel">
        <h2>Cores allocated and busy</h2>
        <p class="muted">Busy: each running stage's task time over its window (the occupancy model); dotted lines: executors added or removed. Jobs beneath.</p>
        <Chart option={option} height={300} label="Cores allocated and cores busy over the run, with the jobs beneath" />
      </section>
      {doc.economics && <EconomicsPanel e={doc.economics} />}
      <section class="panel">
        <div class="row"><h2>Top findings</h2>
          <Link to={{ log, view: 'findings', args: [] }}>All findings</Link></div>
        {top.length === 0 ? <p>Nothing to fix: no finding in this run.</p> :
          top.map((f) => <FindingCard key={f.id} finding={f} />)}
      </section>
    </div>
  );
}
