// SQL executions and their plans as laid-out graphs (dagre): each operator a box with its main
// metric, shaded by the chosen metric as a heat map, the stages that ran it; AQE's initial plan
// beside the final one; a search that highlights matching operators.
import dagre from '@dagrejs/dagre';
import { useMemo, useState } from 'preact/hooks';
import { formatBytes, formatCount, formatMs } from '../format';
import { currentRoute } from '../route';
import { useStore } from '../store/store';
import type { AnalysisDocument, PlanNode, SqlExecution } from '../types';
import { Link } from './Link';

export const NODE_W = 190;
export const NODE_H = 46;

type Heat = 'time' | 'rows' | 'size';
const HEATS: { key: Heat; label: string }[] = [
  { key: 'time', label: 'time' }, { key: 'rows', label: 'output rows' }, { key: 'size', label: 'bytes' }];

function heatValue(node: PlanNode, heat: Heat): number {
  let total = 0;
  for (const m of node.metrics) {
    if (m.value === null) continue;
    if (heat === 'time' && (m.metricType === 'timing' || m.metricType === 'nsTiming')) {
      total += m.metricType === 'nsTiming' ? m.value / 1e6 : m.value;
    } else if (heat === 'rows' && m.name === 'number of output rows') total += m.value;
    else if (heat === 'size' && m.metricType === 'size') total += m.value;
  }
  return total;
}

function heatText(value: number, heat: Heat): string {
  return heat === 'time' ? formatMs(value) : heat === 'size' ? formatBytes(value) : formatCount(value);
}

export interface LaidOut<T> { nodes: { node: T; x: number; y: number }[]; edges: { points: { x: number; y: number }[] }[];
                               width: number; height: number }
type Laid = LaidOut<PlanNode>;

// Any plan's nodes (preorder ids, children by id) laid out bottom to top; the compare page's plan
// diff draws with it too.
export function layoutPlan<T extends { nodeId: number; children: number[] }>(plan: T[]): LaidOut<T> {
  const g = new dagre.graphlib.Graph();
  g.setGraph({ rankdir: 'BT', nodesep: 24, ranksep: 36, marginx: 8, marginy: 8 });
  g.setDefaultEdgeLabel(() => ({}));
  for (const n of plan) g.setNode(String(n.nodeId), { width: NODE_W, height: NODE_H });
  for (const n of plan) for (const c of n.children) if (plan[c]) g.setEdge(String(c), String(n.nodeId));
  dagre.layout(g);
  const graph = g.graph();
  return {
    nodes: plan.map((node) => { const p = g.node(String(node.nodeId)); return { node, x: p.x, y: p.y }; }),
    edges: g.edges().map((e) => ({ points: g.edge(e).points ?? [] })),
    width: graph.width ?? 0, height: graph.height ?? 0,
  };
}

function PlanSvg({ plan, title, heat, search, selected, onSelect }:
  { plan: PlanNode[]; title: string; heat: Heat; search: string; selected: number | null; onSelect: (id: number) => void }) {
  const laid: Laid = useMemo(() => layoutPlan(plan), [plan]);
  const max = Math.max(1, ...plan.map((n) => heatValue(n, heat)));
  const needle = search.trim().toLowerCase();
  return (
    <figure class="plan">
      <figcaption>{title}</figcaption>
      <div class="plan-scroll" tabIndex={0} role="region" aria-label={`${title}: scroll to see the whole graph`}>
        <svg width={laid.width} height={laid.height} role="group" aria-label={title}>
          <defs><marker id="arrow" viewBox="0 0 10 10" refX="10" refY="5" markerWidth="6" markerHeight="6" orient="auto">
            <path d="M0,0 L10,5 L0,10 z" class="edge-head" /></marker></defs>
          {laid.edges.map((e, i) => (
            <polyline key={i} class="edge" marker-end="url(#arrow)" points={e.points.map((p) => `${p.x},${p.y}`).join(' ')} />))}
          {laid.nodes.map(({ node, x, y }) => {
            const value = heatValue(node, heat);
            const share = value / max;
            const match = needle !== '' && (node.nodeName.toLowerCase().includes(needle) || node.simpleString.toLowerCase().includes(needle));
            return (
              <g key={node.nodeId} transform={`translate(${x - NODE_W / 2},${y - NODE_H / 2})`} class={`node${match ? ' match' : ''}${selected === node.nodeId ? ' selected' : ''}`}
                 tabindex={0} role="button" aria-label={`${node.nodeName}, ${heatText(value, heat)}`} data-node={node.nodeId}
                 onClick={() => onSelect(node.nodeId)} onKeyDown={(e) => { if (e.key === 'Enter' || e.key === ' ') { e.preventDefault(); onSelect(node.nodeId); } }}>
                <rect width={NODE_W} height={NODE_H} rx={4} style={{ fill: `hsla(12, 85%, 55%, ${0.08 + 0.8 * share})` }} />
                <text x={8} y={18} class="node-name">{node.nodeName.length > 26 ? `${node.nodeName.slice(0, 25)}…` : node.nodeName}</text>
                <text x={8} y={36} class="node-metric">{value > 0 ? heatText(value, heat) : ''}
                  {node.stageIds.length > 0 ? `  · stage ${node.stageIds.slice(0, 3).join(',')}` : ''}</text>
              </g>
            );
          })}
        </svg>
      </div>
    </figure>
  );
}

function ExecutionGraph({ execution }: { execution: SqlExecution }) {
  const [heat, setHeat] = useState<Heat>('time');
  const [search, setSearch] = useState('');
  const [selected, setSelected] = useState<number | null>(null);
  const log = currentRoute().log;
  const initial = execution.earlierPlans[0]?.nodes;
  const node = selected !== null ? execution.plan[selected] : undefined;
  return (
    <section class="panel">
      <h2>SQL execution {execution.executionId} <span class="muted">· {formatMs(execution.durationMs)}</span></h2>
      <p class="muted">{execution.description}</p>
      <div class="row">
        <label>Shade by <select value={heat} onChange={(e) => setHeat((e.target as HTMLSelectElement).value as Heat)}>
          {HEATS.map((h) => <option key={h.key} value={h.key}>{h.label}</option>)}</select></label>
        <label class="search">Find an operator <input type="search" value={search}
               onInput={(e) => setSearch((e.target as HTMLInputElement).value)} placeholder="e.g. Exchange" /></label>
      </div>
      {execution.plan.length === 0 ? <p class="muted">The log holds no plan for this execution.</p> : (
        <div class={initial ? 'plans side-by-side' : 'plans'}>
          {initial && <PlanSvg plan={initial} title="Initial plan (before adaptive execution)" heat={heat} search={search}
                               selected={null} onSelect={() => undefined} />}
          <PlanSvg plan={execution.plan} title={initial ? `Final plan (${execution.adaptiveUpdates} AQE updates)` : 'Plan'}
                   heat={heat} search={search} selected={selected} onSelect={setSelected} />
        </div>
      )}
      {node && (
        <div class="node-detail" aria-live="polite">
          <h3>{node.nodeName}</h3>
          <p><code>{node.simpleString}</code></p>
          {node.stageIds.length > 0 && <p>Ran in stages {node.stageIds.map((s) => (
            <Link key={s} class="chip" to={{ log, view: 'stages', args: [String(s)] }}>{s}</Link>))}</p>}
          <table class="grid compact"><thead><tr><th>metric</th><th>value</th></tr></thead>
            <tbody>{node.metrics.map((m) => <tr key={m.accumulatorId}><td>{m.name}</td>
              <td>{m.value === null ? '–' : m.metricType === 'size' ? formatBytes(m.value) : m.metricType === 'timing' ? formatMs(m.value)
                   : m.metricType === 'nsTiming' ? formatMs(m.value / 1e6) : formatCount(m.value)}</td></tr>)}</tbody></table>
        </div>
      )}
    </section>
  );
}

export function PlanGraphPage({ doc, args }: { doc: AnalysisDocument; args: string[] }) {
  const log = currentRoute().log;
  useStore((s) => s.modelResetCount);
  if (args.length >= 1) {
    const execution = doc.sql.find((x) => String(x.executionId) === args[0]);
    if (!execution) return <section class="panel"><p role="alert">No SQL execution {args[0]} in this application.</p></section>;
    return <ExecutionGraph execution={execution} />;
  }
  const sorted = [...doc.sql].sort((a, b) => (b.durationMs ?? -1) - (a.durationMs ?? -1));
  return (
    <section class="panel">
      <h2>SQL executions <span class="muted">· longest first</span></h2>
      {sorted.length === 0 ? <p class="muted">This application ran no SQL.</p> : (
        <table class="grid">
          <thead><tr><th>execution</th><th>description</th><th>duration</th><th>operators</th><th>AQE updates</th><th>stages</th></tr></thead>
          <tbody>{sorted.slice(0, 500).map((x) => (
            <tr key={x.executionId}>
              <td><Link to={{ log, view: 'sql', args: [String(x.executionId)] }}>{x.executionId}</Link></td>
              <td class="name">{x.description}</td><td>{formatMs(x.durationMs)}</td><td>{x.plan.length}</td>
              <td>{x.adaptiveUpdates}</td><td>{x.stageIds.length}</td></tr>))}</tbody>
        </table>
      )}
    </section>
  );
}
