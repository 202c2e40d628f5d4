// Where the dashboard is: the log and the page, in the address bar. Served by `serve`, the page is
// the path (/logs/<log>/findings); in a report opened from file:// it is the hash (#/findings),
// the file's own path staying as it is. The finding filters live in the query (finding-filter.ts).
import { inlinedComparison, inlinedReport, REPORT_LOG } from './api';

// compare, history and fleet name no log: what they show is in the query (?base=&cand=, ?subject=, ?trend=).
export type View = 'apps' | 'overview' | 'findings' | 'timeline' | 'stages' | 'sql' | 'streaming' | 'connect' | 'environment' |
  'compare' |
  'history' | 'fleet';
type StoreView = 'compare' | 'history' | 'fleet';
const STORE_VIEWS: string[] = ['compare', 'history', 'fleet'];
export interface Route { log: string | null; view: View; args: string[] }

const VIEWS: View[] = ['overview', 'findings', 'timeline', 'stages', 'sql', 'streaming', 'connect', 'environment'];

function parseSegments(segments: string[], log: string | null): Route {
  const view = (VIEWS as string[]).includes(segments[0] ?? '') ? (segments[0] as View) : 'overview';
  return { log, view, args: segments.slice(1) };
}

export function currentRoute(): Route {
  if (inlinedComparison()) return { log: null, view: 'compare', args: [] };
  if (inlinedReport()) {
    const segments = location.hash.replace(/^#\/?/, '').split('/').filter(Boolean).map(decodeURIComponent);
    return parseSegments(segments, REPORT_LOG);
  }
  const segments = location.pathname.split('/').filter(Boolean).map(decodeURIComponent);
  if (STORE_VIEWS.includes(segments[0] ?? '')) return { log: null, view: segments[0] as StoreView, args: segments.slice(1) };
  if (segments[0] !== 'logs' || segments.length < 2) return { log: null, view: 'apps', args: [] };
  return parseSegments(segments.slice(2), segments[1]);
}

export function routeHref(route: Route, search = ''): string {
  const rest = route.view === 'apps' ? [] : [route.view, ...route.args].map(encodeURIComponent);
  if (inlinedComparison()) return `${search}#/`;
  if (inlinedReport()) return `${search}#/${rest.join('/')}`;
  if (STORE_VIEWS.includes(route.view)) return `/${rest.join('/')}${search}`;
  if (route.log === null || route.view === 'apps') return '/';
  return `/logs/${encodeURIComponent(route.log)}/${rest.join('/')}${search}`;
}

const listeners = new Set<() => void>();
export function onRouteChange(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}
window.addEventListener('popstate', () => listeners.forEach((l) => l()));
window.addEventListener('hashchange', () => listeners.forEach((l) => l()));

// A new history entry; the finding filters follow the page within one log and are dropped when
// the log changes (switching logs resets them).
export function navigate(route: Route): void {
  const sameLog = route.log === currentRoute().log && route.log !== null;
  const search = sameLog ? location.search : '';
  history.pushState(null, '', routeHref(route, search));
  listeners.forEach((l) => l());
}

// The compare, history and fleet pages keep what they show in the query: a new entry (shareable,
// Back returns to the previous choice) unless `replace`.
export function navigateQuery(view: StoreView, params: [string, string][], replace = false): void {
  const search = new URLSearchParams(params).toString();
  const href = routeHref({ log: null, view, args: [] }, search ? `?${search}` : '');
  if (replace) history.replaceState(null, '', href); else history.pushState(null, '', href);
  listeners.forEach((l) => l());
}
