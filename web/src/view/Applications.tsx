// The first page: the applications (searched and paged by the server: the logs uploaded or
// downloaded while it runs, marked as such, then --log-dir's), the logs this browser opened
// recently, and the other ways in (a file, a rolling-log folder, a Spark History Server).
import { useEffect, useState } from 'preact/hooks';
import { api, ApiError } from '../api';
import { navigate } from '../route';
import { formatDate, formatMs } from '../format';
import type { ApplicationRow } from '../types';
import { useStore } from '../store/store';
import { Intake } from './Intake';
import { BandCounts } from './badges';
import { ErrorPage, ParseProgress } from './status';
import { useIngest } from '../store/useIngest';

const PAGE = 50;

interface Recent { log: string; name: string; appId: string; openedAtMs: number }
const RECENT_KEY = 'sparkforensics-recent-logs';

export function recentLogs(): Recent[] {
  try { return JSON.parse(window.localStorage.getItem(RECENT_KEY) ?? '[]') as Recent[]; } catch { return []; }
}

export function rememberLog(entry: Recent): void {
  try {
    const list = [entry, ...recentLogs().filter((r) => r.log !== entry.log)].slice(0, 10);
    window.localStorage.setItem(RECENT_KEY, JSON.stringify(list));
  } catch { /* not kept */ }
}

function open(log: string) { navigate({ log, view: 'overview', args: [] }); }

// A log the server keeps for this session only: said so beside its id.
function SourceBadge({ row }: { row: ApplicationRow }) {
  if (row.source === 'log-dir') return null;
  const [label, how] = row.source === 'upload' ? ['uploaded', 'Uploaded'] : ['downloaded', 'Downloaded from a History Server'];
  return <span class="source" data-source={row.source} title={`${how} as ${row.fileName}`}>{label}</span>;
}

export function Applications() {
  const [query, setQuery] = useState('');
  const [offset, setOffset] = useState(0);
  const [rows, setRows] = useState<ApplicationRow[] | null>(null);
  const [total, setTotal] = useState(0);
  const [error, setError] = useState<string | null>(null);
  const status = useStore((s) => s.status);
  const ingest = useIngest();

  useEffect(() => {
    let live = true;
    const timer = setTimeout(() => {
      api.applications(offset, PAGE, query).then((answer) => {
        if (!live) return;
        setRows(answer.applications);
        setTotal(answer.total);
        setError(null);
      }, (e: ApiError) => live && setError(e.message));
    }, query ? 200 : 0);
    return () => { live = false; clearTimeout(timer); };
  }, [query, offset]);

  const recent = recentLogs();
  return (
    <div class="apps">
      <Intake busy={status === 'parsing'} />
      {status === 'parsing' && <ParseProgress />}
      {status === 'error' && <ErrorPage onBack={() => ingest.resetToDropZone()} />}
      {recent.length > 0 && (
        <section class="panel">
          <h2>Recent</h2>
          <ul class="recent">
            {recent.map((r) => (
              <li key={r.log}><a href={`/logs/${encodeURIComponent(r.log)}/overview`}
                                 onClick={(e) => { e.preventDefault(); open(r.log); }}>{r.name || r.appId}</a>
                <span class="muted"> {r.appId} · opened {formatDate(r.openedAtMs)}</span></li>
            ))}
          </ul>
        </section>
      )}
      <section class="panel">
        <div class="row">
          <h2>Applications</h2>
          <label class="search">Search <input type="search" value={query} placeholder="id, name or user"
                 onInput={(e) => { setQuery((e.target as HTMLInputElement).value); setOffset(0); }} /></label>
        </div>
        {error && <p role="alert" class="error">{error}</p>}
        {rows === null ? <p class="muted">Loading…</p> : rows.length === 0 ? (
          <p class="muted">{query ? 'No application matches.' : 'No event logs in the log directory, and none uploaded.'}</p>
        ) : (
          <table class="grid">
            <thead><tr><th>Application</th><th>Name</th><th>User</th><th>Started</th><th>Duration</th>
              <th>Status</th><th>Top recoverable</th><th>Findings</th></tr></thead>
            <tbody>
              {rows.map((r) => (
                <tr key={r.log}>
                  <td><a href={`/logs/${encodeURIComponent(r.log)}/overview`}
                         onClick={(e) => { e.preventDefault(); open(r.log); }}>{r.appId}</a>
                    {r.attemptId && <span class="muted"> (attempt {r.attemptId})</span>}<SourceBadge row={r} /></td>
                  <td>{r.name}</td><td>{r.user}</td><td>{formatDate(r.startTimeMs)}</td>
                  <td>{formatMs(r.durationMs)}</td><td>{r.completed ? 'completed' : 'running'}</td>
                  <td>{r.analysis?.topRecoverableMs ? `${formatMs(r.analysis.topRecoverableMs.high)} (${r.analysis.topType})`
                       : r.analysis ? 'nothing to fix first' : <span class="muted">not analyzed yet</span>}</td>
                  <td>{r.analysis ? <BandCounts counts={r.analysis.bandCounts} /> : '–'}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
        {total > PAGE && (
          <div class="pager">
            <button type="button" disabled={offset === 0} onClick={() => setOffset(Math.max(0, offset - PAGE))}>Previous</button>
            <span>{offset + 1}–{Math.min(total, offset + PAGE)} of {total}</span>
            <button type="button" disabled={offset + PAGE >= total} onClick={() => setOffset(offset + PAGE)}>Next</button>
          </div>
        )}
      </section>
    </div>
  );
}
