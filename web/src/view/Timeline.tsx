// Jobs and stages as a Gantt chart over the application's wall clock, stages coloured by their
// gate (the share of their window that was their own: occupancy model), executor lanes beneath.
// Zoom with the wheel or the slider; hover for figures. One custom series per kind of row, drawn
// on canvas, so thousands of stages stay interactive.
import { useMemo } from 'preact/hooks';
import { formatMs } from '../format';
import { navigate, currentRoute } from '../route';
import { useStore } from '../store/store';
import type { AnalysisDocument, TimelineDocument } from '../types';
import { Chart, type ChartOption } from './charts';

// 0: shared its window entirely (blue) .. 1: ran alone (orange), mixed in RGB.
function gateColor(gate: number): string {
  const g = Math.max(0, Math.min(1, gate));
  const mix = (a: number, b: number) => Math.round(a + (b - a) * g);
  return `rgb(${mix(0x4a, 0xe8)}, ${mix(0x90, 0x74)}, ${mix(0xd9, 0x2a)})`;
}

interface Row { label: string; kind: 'job' | 'stage' | 'executor'; startS: number; endS: number; color: string; tip: string;
                stage?: [number, number] }

function rowsOf(doc: AnalysisDocument, timeline: TimelineDocument): Row[] {
  const start = doc.app.startTimeMs ?? 0;
  const end = doc.app.endTimeMs ?? doc.app.startTimeMs ?? 0;
  const s = (ms: number | null) => ((ms ?? end) - start) / 1000;
  const rows: Row[] = [];
  for (const j of doc.jobs) {
    if (j.submissionTimeMs === null) continue;
    rows.push({ label: `job ${j.jobId}`, kind: 'job', startS: s(j.submissionTimeMs), endS: s(j.completionTimeMs),
                color: j.status === 'FAILED' ? '#d9534f' : '#7a869a', tip: `job ${j.jobId} ${j.status}: ${formatMs(j.durationMs)}<br>${j.name}` });
  }
  const gates = new Map(timeline.stages.map((t) => [`${t.stageId}.${t.attemptId}`, t]));
  for (const st of doc.stages) {
    if (st.submissionTimeMs === null) continue;
    const g = gates.get(`${st.stageId}.${st.attemptId}`);
    rows.push({ label: `stage ${st.stageId}.${st.attemptId}`, kind: 'stage', startS: s(st.submissionTimeMs),
                endS: s(st.completionTimeMs), color: g ? gateColor(g.gate) : '#999', stage: [st.stageId, st.attemptId],
                tip: `stage ${st.stageId}.${st.attemptId} ${st.status}: ${formatMs(st.durationMs)}` +
                     (g ? `<br>gate ${(g.gate * 100).toFixed(0)}% · ${g.coreWeight.toFixed(1)} cores busy of ${g.windowCores.toFixed(0)}` : '') +
                     `<br>${st.name}` });
  }
  for (const e of doc.executors) {
    if (e.executorId === 'driver' || e.addTimeMs === null) continue;
    rows.push({ label: `executor ${e.executorId}`, kind: 'executor', startS: s(e.addTimeMs), endS: s(e.removeTimeMs),
                color: '#9a8fd8', tip: `executor ${e.executorId} on ${e.host}: ${e.totalCores} cores` +
                (e.removeReason ? `<br>removed: ${e.removeReason}` : '') });
  }
  return rows;
}

export function Timeline() {
  const doc = useStore((s) => s.doc)!;
  const timeline = useStore((s) => s.timeline)!;
  const rows = useMemo(() => rowsOf(doc, timeline), [doc, timeline]);
  const option: ChartOption = useMemo(() => ({
    tooltip: { trigger: 'item', formatter: (p: any) => rows[p.dataIndex]?.tip ?? '' },
    grid: { left: 110, right: 30, top: 10, bottom: 60 },
    xAxis: { type: 'value', name: 's', min: 0 },
    yAxis: { type: 'category', inverse: true, data: rows.map((r) => r.label),
             axisLabel: { interval: rows.length > 60 ? 'auto' : 0 } },
    dataZoom: [{ type: 'slider', xAxisIndex: 0, bottom: 10 }, { type: 'inside', xAxisIndex: 0 },
               { type: 'slider', yAxisIndex: 0, right: 0, show: rows.length > 60 },
               { type: 'inside', yAxisIndex: 0, zoomOnMouseWheel: false, moveOnMouseWheel: true }],
    series: [{
      type: 'custom', encode: { x: [1, 2], y: 0 },
      data: rows.map((r, i) => ({ value: [i, r.startS, Math.max(r.endS, r.startS)], itemStyle: { color: r.color } })),
      renderItem: (_params: unknown, api: any) => {
        const from = api.coord([api.value(1), api.value(0)]);
        const to = api.coord([api.value(2), api.value(0)]);
        const h = Math.max(2, api.size([0, 1])[1] * 0.7);
        return { type: 'rect', shape: { x: from[0], y: from[1] - h / 2, width: Math.max(1, to[0] - from[0]), height: h },
                 style: api.style() };
      },
    }],
  }), [rows]);
  const log = currentRoute().log;
  const height = Math.min(900, Math.max(260, rows.length * 18 + 90));
  return (
    <section class="panel">
      <h2>Timeline</h2>
      <p class="muted">Stages coloured by their gate: orange ran alone, blue shared its window with other stages. Click a stage to open it.</p>
      <Chart option={option} height={height}
             label={`Gantt chart of ${doc.jobs.length} jobs, ${doc.stages.length} stages and the executors over the run`}
             onItemClick={(i) => { const r = rows[i]; if (r?.stage) navigate({ log, view: 'stages', args: r.stage.map(String) }); }} />
      <ul class="visually-hidden">{rows.slice(0, 200).map((r) => <li key={r.label}>{r.label}: {r.startS.toFixed(1)} s to {r.endS.toFixed(1)} s</li>)}</ul>
    </section>
  );
}
