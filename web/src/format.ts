// Figures as the library words them (src/common/units.cpp; money as report::format_money), so the
// dashboard and the text, Markdown and HTML reports say the same: tests/golden/figure_words.json is
// checked against both (web/tests/figure_words.mjs here, FigureWords.* in C++). A figure that is
// missing is "–".

const pad2 = (n: number): string => String(n).padStart(2, '0');

export function formatMs(ms: number | null | undefined): string {
  if (ms === null || ms === undefined || !Number.isFinite(ms)) return '–';
  const v = Math.round(ms);
  if (v < 0) return `-${formatMs(-v)}`;
  if (v < 1000) return `${v} ms`;
  if (v < 60000) return `${(v / 1000).toFixed(1)}s`;
  const seconds = Math.floor(v / 1000);
  if (seconds < 3600) return `${Math.floor(seconds / 60)}m ${pad2(seconds % 60)}s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 24 * 60) return `${Math.floor(minutes / 60)}h ${pad2(minutes % 60)}m`;
  return `${Math.floor(minutes / (24 * 60))}d ${pad2(Math.floor(minutes / 60) % 24)}h`;
}

export function formatBytes(bytes: number | null | undefined): string {
  if (bytes === null || bytes === undefined || !Number.isFinite(bytes)) return '–';
  const b = Math.round(bytes);
  if (b < 0) return `-${formatBytes(-b)}`;
  if (b < 1024) return `${b} B`;
  const units = ['B', 'KiB', 'MiB', 'GiB', 'TiB', 'PiB'];
  let v = b;
  let i = 0;
  while (v >= 1024 && i < units.length - 1) { v /= 1024; i++; }
  return `${v.toFixed(v < 10 ? 2 : v < 100 ? 1 : 0)} ${units[i]}`;
}

// A share (0.123) as a percentage with one decimal ("12.3%").
export function formatPercent(fraction: number | null | undefined): string {
  if (fraction === null || fraction === undefined || !Number.isFinite(fraction)) return '–';
  return `${(fraction * 100).toFixed(1)}%`;
}

export function formatCount(n: number | null | undefined): string {
  if (n === null || n === undefined || !Number.isFinite(n)) return '–';
  return Math.round(n).toLocaleString('en-US');
}

// Rows per second, as the text report words them (report/streaming_text.cpp: "1234/s").
export function formatRate(rowsPerSecond: number | null | undefined): string {
  if (rowsPerSecond === null || rowsPerSecond === undefined || !Number.isFinite(rowsPerSecond)) return '–';
  return `${rowsPerSecond.toFixed(0)}/s`;
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
  if (unit === 'share' || unit === 'fraction') return formatPercent(value);
  return Number.isInteger(value) ? formatCount(value) : value.toFixed(2);
}

export function recoverableText(wall: { lowMs: number; highMs: number } | null | undefined): string {
  if (!wall) return 'no wall-clock estimate';
  return `up to ${formatMs(wall.highMs)} recoverable (at least ${formatMs(wall.lowMs)})`;
}

// Money: two decimals, four below 1 (in either direction), then the currency.
export function formatMoney(amount: number, currency: string): string {
  return `${Math.abs(amount) >= 1 ? amount.toFixed(2) : amount.toFixed(4)} ${currency}`;
}
