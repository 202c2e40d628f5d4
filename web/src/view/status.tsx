// A parse in progress (with its ETA) and a log that could not be read.
import { inlinedReport } from '../api';
import { formatBytes, formatCount, formatMs } from '../format';
import { useStore } from '../store/store';

export function ParseProgress() {
  const parse = useStore((s) => s.parse);
  const done = parse?.bytesDone ?? 0;
  const total = parse?.bytesTotal ?? 0;
  const pct = total > 0 ? Math.min(100, Math.round((done / total) * 100)) : 0;
  const what = parse?.state === 'fetching' ? 'Downloading from the History Server' :
    parse?.state === 'queued' ? 'Waiting for a free reader' : 'Reading the event log';
  return (
    <section class="panel progress" aria-live="polite">
      <h2>{what}…</h2>
      <progress max={100} value={pct} aria-label="Progress of the read" />
      <p class="muted">
        {pct}% · {formatBytes(done)} of {total > 0 ? formatBytes(total) : 'unknown'} · {formatCount(parse?.lines ?? 0)} lines
        {parse?.etaMs !== null && parse?.etaMs !== undefined ? ` · about ${formatMs(parse.etaMs)} left` : ''}
      </p>
    </section>
  );
}

export function ErrorPage({ onBack }: { onBack: () => void }) {
  const message = useStore((s) => s.errorMessage);
  const code = useStore((s) => s.errorCode);
  return (
    <section class="panel error-page" role="alert">
      <h2>This could not be read as a Spark event log</h2>
      <p><code>{message}</code></p>
      <p class="muted">Error code: {code}</p>
      {!inlinedReport() && <button type="button" onClick={onBack}>Back to the applications</button>}
    </section>
  );
}
