import { IMPACT_BANDS, type ImpactBand } from '../types';

export function BandBadge({ band }: { band: ImpactBand }) {
  return <span class={`band band-${band}`}>{band}</span>;
}

export function BandCounts({ counts }: { counts: Partial<Record<ImpactBand, number>> }) {
  const shown = IMPACT_BANDS.filter((b) => (counts[b] ?? 0) > 0);
  if (shown.length === 0) return <span class="muted">none</span>;
  return <span class="band-counts">{shown.map((b) => <span key={b} class={`band band-${b}`}>{counts[b]} {b}</span>)}</span>;
}

// A streaming run's or a Connect operation's status, as Spark words it: failed in red, running marked.
export function RunStatus({ status }: { status: string }) {
  return <span class={status === 'FAILED' ? 'error' : status === 'RUNNING' ? 'badge' : ''}>{status}</span>;
}
