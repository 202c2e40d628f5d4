// Figures as the text report prints them: durations, bytes, counts.

export function formatMs(ms: number | null | undefined): string {
  if (ms === null || ms === undefined || !Number.isFinite(ms)) return '–';
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 59950) return `${(ms / 1000).toFixed(1)} s`;
  const s = Math.round(ms / 1000);
  const m = Math.floor(s / 60);
  if (m < 60) return `${m}m ${String(s - m * 60).padStart(2, '0')}s`;
  const h = Math.floor(m / 60);
  return `${h}h ${String(m - h * 60).padStart(2, '0')}m`;
}

export function formatBytes(bytes: number | null | undefined): string {
  if (bytes === null || bytes === undefined || !Number.isFinite(bytes)) return '–';
  const units = ['B', 'KiB', 'MiB', 'GiB', 'TiB'];
  let v = bytes;
  let i = 0;
  while (v >= 1024 && i < units.length - 1) { v /= 1024; i++; }
  return i === 0 ? `${v} B` : `${v.toFixed(v < 10 ? 1 : 0)} ${units[i]}`;
}

export function formatCount(n: number | null | undefined): string {
  if (n === null || n === undefined || !Number.isFinite(n)) return '–';
  return Math.round(n).toLocaleString('en-US');
}

export function formatDate(ms: number | null | undefined): string {
  if (ms === null || ms === undefined) return '–';
  return new Date(ms).toISOString().replace('T', ' ').slice(0, 19) + ' UTC';
}

// A metric value by the unit in its name (docs/analysis-schema.md: Ms, Ns, Bytes).
export function formatMetric(name: string, value: number | null | undefined): string {
  if (/Bytes$/.test(name)) return formatBytes(value);
  if (/Ms$/.test(name)) return formatMs(value);
  if (/Ns$/.test(name)) return formatMs(value === null || value === undefined ? value : value / 1e6);
  return formatCount(value);
}

export function formatEvidence(value: number, unit: string): string {
  if (unit === 'ms') return formatMs(value);
  if (unit === 'bytes') return formatBytes(value);
  if (unit === 'ratio') return value.toFixed(2);
  if (unit === 'share' || unit === 'fraction') return `${(value * 100).toFixed(0)}%`;
  return Number.isInteger(value) ? formatCount(value) : value.toFixed(2);
}

export function recoverableText(wall: { lowMs: number; highMs: number } | null | undefined): string {
  if (!wall) return 'no wall-clock estimate';
  return `up to ${formatMs(wall.highMs)} recoverable (at least ${formatMs(wall.lowMs)})`;
}

// Money as the Overview writes a cost: two decimals, four below 1, then the currency.
export function formatMoney(amount: number, currency: string): string {
  return `${amount >= 1 ? amount.toFixed(2) : amount.toFixed(4)} ${currency}`;
}
