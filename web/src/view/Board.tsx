// The findings board: "Fix these first" as the rollup groups it (time, then resource-cost
// projection, then count tiers), each group expandable to its findings, a page at a time; the
// filters by impact band, type and stage live in the URL (finding-filter.ts).
import { useMemo, useState } from 'preact/hooks';
import { formatMs } from '../format';
import { IMPACT_BANDS, type AnalysisDocument, type Finding, type RollupGroup } from '../types';
import { BandCounts } from './badges';
import { filterFindings, isFiltered } from './finding-filter';
import { FindingCard } from './FindingCard';
import { useFindingFilter } from './FindingFilterContext';

const PAGE = 20;
const TIERS: { tier: RollupGroup['tier']; title: string; hint: string }[] = [
  { tier: 'time', title: 'Recoverable wall-clock', hint: 'time the run could save, capped at the stages\' windows' },
  { tier: 'resource', title: 'Resource-cost projection', hint: 'cost with no wall-clock figure: core-hours, memory' },
  { tier: 'count', title: 'Count', hint: 'worth knowing, no figure' },
];

function groupFigure(group: RollupGroup): string {
  if (group.tier === 'time' && group.recoverableMs) {
    return `up to ${formatMs(group.recoverableMs.high)} (at least ${formatMs(group.recoverableMs.low)})`;
  }
  if (group.tier === 'resource' && group.total !== undefined) return `${group.total.toFixed(1)} ${group.unit ?? ''}`;
  return '';
}

function Group({ group, findings }: { group: RollupGroup; findings: Finding[] }) {
  const [open, setOpen] = useState(false);
  const [page, setPage] = useState(0);
  const id = `group-${group.tier}-${group.type}`;
  const shown = findings.slice(page * PAGE, page * PAGE + PAGE);
  return (
    <li class="group">
      <button type="button" class="group-head" aria-expanded={open} aria-controls={id} onClick={() => setOpen(!open)}>
        <span aria-hidden="true" class="chevron">{open ? '▴' : '▾'}</span>
        <span class="group-type">{group.type}</span>
        <span class="group-figure">{groupFigure(group)}</span>
        {group.fixFirst && <span class="fix-first">fix first</span>}
        <span class="muted">{findings.length} finding{findings.length === 1 ? '' : 's'}</span>
        <BandCounts counts={group.bandCounts} />
      </button>
      {open && (
        <div id={id} class="group-body">
          {shown.map((f) => <FindingCard key={f.id} finding={f} />)}
          {findings.length > PAGE && (
            <div class="pager">
              <button type="button" disabled={page === 0} onClick={() => setPage(page - 1)}>Previous</button>
              <span>{page * PAGE + 1}–{Math.min(findings.length, page * PAGE + PAGE)} of {findings.length}</span>
              <button type="button" disabled={(page + 1) * PAGE >= findings.length} onClick={() => setPage(page + 1)}>Next</button>
            </div>
          )}
        </div>
      )}
    </li>
  );
}

function Chip({ pressed, onClick, children, label }:
  { pressed: boolean; onClick: () => void; children: preact.ComponentChildren; label?: string }) {
  return <button type="button" class="chip" aria-pressed={pressed} aria-label={label} onClick={onClick}>{children}</button>;
}

export function Board({ doc }: { doc: AnalysisDocument }) {
  const { selection, toggle, clear } = useFindingFilter();
  const filtered = useMemo(() => filterFindings(doc.findings, selection), [doc, selection]);
  const byId = useMemo(() => new Map(filtered.map((f) => [f.id, f])), [filtered]);
  const types = useMemo(() => [...new Set(doc.findings.map((f) => f.type))].sort(), [doc]);
  const stages = useMemo(() => [...new Set(doc.findings.flatMap((f) => f.stageIds))].sort((a, b) => a - b), [doc]);
  const bands = IMPACT_BANDS.filter((b) => doc.findings.some((f) => f.impactBand === b));

  return (
    <div class="board">
      <section class="panel filters" aria-label="Filter the findings">
        <div class="filter-row"><span class="filter-label" id="f-impact">Impact</span>
          <div role="group" aria-labelledby="f-impact">
            {bands.map((b) => <Chip key={b} pressed={selection.impact.has(b)} onClick={() => toggle('impact', b)}>
              <span class={`band band-${b}`}>{b}</span></Chip>)}
          </div></div>
        <div class="filter-row"><span class="filter-label" id="f-type">Type</span>
          <div role="group" aria-labelledby="f-type">
            {types.map((t) => <Chip key={t} pressed={selection.type.has(t)} onClick={() => toggle('type', t)}>{t}</Chip>)}
          </div></div>
        {stages.length > 0 && (
          <div class="filter-row"><label class="filter-label" for="f-stage">Stage</label>
            <select id="f-stage" value="" onChange={(e) => {
              const value = (e.target as HTMLSelectElement).value;
              if (value) toggle('stage', value);
            }}>
              <option value="">add a stage…</option>
              {stages.map((s) => <option key={s} value={String(s)}>stage {s}</option>)}
            </select>
            {[...selection.stage].map((s) => (
              <Chip key={s} pressed={true} label={`Remove the filter on stage ${s}`} onClick={() => toggle('stage', s)}>
                stage {s} ×</Chip>))}
          </div>
        )}
        <p class="muted" aria-live="polite">
          {isFiltered(selection) ? <>Showing {filtered.length} of {doc.findings.length} findings.{' '}
            <button type="button" class="link" onClick={clear}>Clear the filters</button></>
            : `${doc.findings.length} findings.`}
        </p>
      </section>
      <section class="panel">
        <h2>Fix these first</h2>
        {doc.findings.length === 0 && <p>No finding: nothing in this run wastes enough to be worth changing.</p>}
        {TIERS.map(({ tier, title, hint }) => {
          const groups = doc.rollup.filter((g) => g.tier === tier)
            .map((g) => ({ group: g, findings: g.findingIds.map((id) => byId.get(id)).filter((f): f is Finding => !!f) }))
            .filter((g) => g.findings.length > 0);
          if (groups.length === 0) return null;
          return (
            <section key={tier} class="tier">
              <h3>{title} <span class="muted">· {hint}</span></h3>
              <ul class="groups">{groups.map(({ group, findings }) =>
                <Group key={`${group.tier}/${group.type}`} group={group} findings={findings} />)}</ul>
            </section>
          );
        })}
      </section>
    </div>
  );
}
