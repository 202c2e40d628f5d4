// The board-wide finding filter: impact bands, finding types and stages, three sets. It lives
// in the URL query (impact=, type=, stage=, comma-separated) and nowhere else: seeded from it
// on mount and on Back/Forward, written back with replaceState (filtering adds no history),
// never persisted, so a reload without parameters is the unfiltered board.
import type { Finding } from '../types';

export interface FilterSelection { impact: Set<string>; type: Set<string>; stage: Set<string> }
export type FilterKey = keyof FilterSelection;
export const FILTER_KEYS: FilterKey[] = ['impact', 'type', 'stage'];

export function emptySelection(): FilterSelection {
  return { impact: new Set(), type: new Set(), stage: new Set() };
}

export function selectionFromSearch(search: string): FilterSelection {
  const params = new URLSearchParams(search);
  const out = emptySelection();
  for (const key of FILTER_KEYS) {
    for (const value of (params.get(key) ?? '').split(',')) if (value) out[key].add(value);
  }
  return out;
}

// `search` with the filter parameters replaced by `selection` (other parameters kept).
export function searchWithSelection(search: string, selection: FilterSelection): string {
  const params = new URLSearchParams(search);
  for (const key of FILTER_KEYS) {
    const values = [...selection[key]].sort();
    if (values.length > 0) params.set(key, values.join(',')); else params.delete(key);
  }
  const text = params.toString().replace(/%2C/g, ',');
  return text ? `?${text}` : '';
}

export function isFiltered(selection: FilterSelection): boolean {
  return FILTER_KEYS.some((key) => selection[key].size > 0);
}

export function filterFindings(findings: Finding[], selection: FilterSelection): Finding[] {
  return findings.filter((f) =>
    (selection.impact.size === 0 || selection.impact.has(f.impactBand)) &&
    (selection.type.size === 0 || selection.type.has(f.type)) &&
    (selection.stage.size === 0 || f.stageIds.some((id) => selection.stage.has(String(id)))));
}
