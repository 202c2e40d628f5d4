// The plan diff of an aligned pair of SQL executions: the two final plans side by side, each
// operator marked as the server's diff_plans found it (same, changed, removed, added). Served:
// GET compare/plan; a `compare --format html` page carries the diffs of its pairs.
import { useEffect, useMemo, useState } from 'preact/hooks';
import { api, ApiError, inlinedComparison } from '../api';
import { formatMs } from '../format';
import type { DiffNode, NodeChange, PlanDiff } from '../types';
import { layoutPlan, NODE_H, NODE_W } from './PlanGraph';

const CHANGE_TEXT: Record<NodeChange, string> = {
  same: 'same', changed: 'changed', removed: 'only in the baseline', added: 'only in the candidate' };

function DiffSvg({ nodes, title, selected, onSelect }:
  { nodes: DiffNode[]; title: string; selected: number | null; onSelect: (id: number) => void }) {
  const laid = useMemo(() => layoutPlan(nodes), [nodes]);
  return (
    <figure class="plan">
      <figcaption>{title}</figcaption>
      <div class="plan-scroll" tabIndex={0} role="region" aria-label={`${title}: scroll to see the whole graph`}>
        <svg width={laid.width} height={laid.height} role="group" aria-label={title}>
          {laid.edges.map((e, i) => (
            <polyline key={i} class="edge" points={e.points.map((p) => `${p.x},${p.y}`).join(' ')} />))}
          {laid.nodes.map(({ node, x, y }) => (
            <g key={node.nodeId} transform={`translate(${x - NODE_W / 2},${y - NODE_H / 2})`}
               class={`node diff-${node.change}${selected === node.nodeId ? ' selected' : ''}`} data-change={node.change}
               tabindex={0} role="button" aria-label={`${node.nodeName}: ${CHANGE_TEXT[node.change]}`}
               onClick={() => onSelect(node.nodeId)}
               onKeyDown={(e) => { if (e.key === 'Enter' || e.key === ' ') { e.preventDefault(); onSelect(node.nodeId); } }}>
              <rect width={NODE_W} height={NODE_H} rx={4} />
              <text x={8} y={18} class="node-name">{node.nodeName.length > 26 ? `${node.nodeName.slice(0, 25)}…` : node.nodeName}</text>
              <text x={8} y={36} class="node-metric">{node.change === 'same' ? '' : CHANGE_TEXT[node.change]}</text>
            </g>))}
        </svg>
      </div>
    </figure>
  );
}

export function PlanDiffView({ base, cand, baseExecution, candExecution }:
  { base: string | null; cand: string | null; baseExecution: number; candExecution: number }) {
  const inlined = inlinedComparison();
  const [doc, setDoc] = useState<PlanDiff | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [selected, setSelected] = useState<{ side: 'baseline' | 'candidate'; id: number } | null>(null);

  useEffect(() => {
    setDoc(null);
    setError(null);
    setSelected(null);
    if (inlined) {
      const found = inlined.planDiffs.find((d) => d.baselineExecutionId === baseExecution && d.candidateExecutionId === candExecution);
      if (found) setDoc(found); else setError('This page does not carry the plan diff of that pair (compare --format html keeps the first 200).');
      return undefined;
    }
    if (!base || !cand) return undefined;
    let live = true;
    api.planDiff(base, cand, baseExecution, candExecution).then((d) => live && setDoc(d),
      (e: ApiError) => live && setError(e.message));
    return () => { live = false; };
  }, [base, cand, baseExecution, candExecution]);

  if (error) return <section class="panel" role="alert"><p class="error">{error}</p></section>;
  if (!doc) return <section class="panel" aria-live="polite"><p>Diffing the plans…</p></section>;
  const node = selected ? doc[selected.side].nodes[selected.id] : undefined;
  const other = node && node.counterpart !== null
    ? doc[selected!.side === 'baseline' ? 'candidate' : 'baseline'].nodes[node.counterpart] : undefined;
  return (
    <section class="panel plan-diff" aria-labelledby="plan-diff-title">
      <h2 id="plan-diff-title">Plan diff: execution {doc.baselineExecutionId} → {doc.candidateExecutionId}</h2>
      <p class="muted">{doc.description} · {formatMs(doc.baseline.durationMs)} → {formatMs(doc.candidate.durationMs)}</p>
      <p class="legend">
        <span class="diff-key diff-changed">{doc.counts.changed} changed</span>
        <span class="diff-key diff-removed">{doc.counts.removed} only in the baseline</span>
        <span class="diff-key diff-added">{doc.counts.added} only in the candidate</span>
        <span class="diff-key diff-same">{doc.counts.same} the same</span>
      </p>
      <div class="plans side-by-side">
        <DiffSvg nodes={doc.baseline.nodes} title={`Baseline, execution ${doc.baselineExecutionId}`}
                 selected={selected?.side === 'baseline' ? selected.id : null} onSelect={(id) => setSelected({ side: 'baseline', id })} />
        <DiffSvg nodes={doc.candidate.nodes} title={`Candidate, execution ${doc.candidateExecutionId}`}
                 selected={selected?.side === 'candidate' ? selected.id : null} onSelect={(id) => setSelected({ side: 'candidate', id })} />
      </div>
      {node && (
        <div class="node-detail" aria-live="polite">
          <h3>{node.nodeName} <span class="muted">· {CHANGE_TEXT[node.change]}</span></h3>
          <p><code>{node.simpleString}</code></p>
          {other && other.simpleString !== node.simpleString && <p>The other side: <code>{other.simpleString}</code></p>}
        </div>)}
    </section>
  );
}
