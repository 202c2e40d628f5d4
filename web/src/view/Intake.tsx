// The other ways in: an event log file, a rolling-log folder (eventlog_v2_* only), or an
// application of a Spark History Server fetched by `serve`. The History Server fields are kept
// in localStorage; a failure returns here with the disclosure still open, its values and advice.
import { useRef, useState } from 'preact/hooks';
import { ApiError } from '../api';
import { navigate } from '../route';
import { useIngest } from '../store/useIngest';
import { SHS_GUIDANCE, validateShs, type ShsErrors, type ShsFields } from './shs-request';

const KEYS: Record<keyof ShsFields, string> = {
  baseUrl: 'sparkforensics-shs-base-url', appId: 'sparkforensics-shs-app-id', attemptId: 'sparkforensics-shs-attempt-id' };

function stored(key: string): string {
  try { return window.localStorage.getItem(key) ?? ''; } catch { return ''; }
}
function store(key: string, value: string): void {
  try { window.localStorage.setItem(key, value); } catch { /* not kept */ }
}

function Chevron({ open }: { open: boolean }) {
  return <span aria-hidden="true" class="chevron">{open ? '▴' : '▾'}</span>;
}

export function Intake({ busy }: { busy: boolean }) {
  const ingest = useIngest();
  const fileInput = useRef<HTMLInputElement>(null);
  const [folderMessage, setFolderMessage] = useState<string | null>(null);
  const [shsOpen, setShsOpen] = useState(false);
  const [fields, setFields] = useState<ShsFields>(() => ({
    baseUrl: stored(KEYS.baseUrl), appId: stored(KEYS.appId), attemptId: stored(KEYS.attemptId) }));
  const [touched, setTouched] = useState<Partial<Record<keyof ShsFields, boolean>>>({});
  const [shsError, setShsError] = useState<{ code: string; message: string } | null>(null);
  const errors: ShsErrors = validateShs(fields);

  const opened = (log: string | null) => { if (log) navigate({ log, view: 'overview', args: [] }); };

  function setField(key: keyof ShsFields, value: string) {
    setFields({ ...fields, [key]: value });
    store(KEYS[key], value);
  }

  async function onFile(event: Event) {
    const input = event.target as HTMLInputElement;
    const file = input.files?.[0];
    input.value = '';
    if (!file) return;
    opened(await ingest.startUpload(file));
  }

  async function onFolder(event: Event) {
    const input = event.target as HTMLInputElement;
    const files = [...(input.files ?? [])];
    input.value = '';
    if (files.length === 0) return;
    const folder = (files[0] as File & { webkitRelativePath: string }).webkitRelativePath.split('/')[0] ?? '';
    if (!folder.startsWith('eventlog_v2_')) {
      setFolderMessage(`"${folder}" is not a rolling event log folder (eventlog_v2_…). Choose a single event log file instead.`);
      fileInput.current?.focus();
      return;
    }
    setFolderMessage(null);
    const parts = files.filter((f) => !f.name.startsWith('.'));
    opened(await ingest.startUploadFolder(folder, parts));
  }

  async function onFetch(event: Event) {
    event.preventDefault();
    setTouched({ baseUrl: true, appId: true, attemptId: true });
    if (Object.keys(errors).length > 0) return;
    setShsError(null);
    try {
      opened(await ingest.startLoadFromUrl(fields.baseUrl.trim(), fields.appId.trim(), fields.attemptId.trim()));
    } catch (error) {
      const e = error instanceof ApiError ? error : new ApiError(0, 'upstream-error', String(error));
      setShsError({ code: e.code, message: e.message });
      setShsOpen(true);
    }
  }

  const fieldError = (key: keyof ShsFields) => (touched[key] ? errors[key] : undefined);
  return (
    <section class="panel intake" aria-busy={busy}>
      <h2>Open an event log</h2>
      <p class="muted">Pick an application below, or bring a log of your own.</p>
      <div class="row">
        <label class="button">Choose file
          <input ref={fileInput} type="file" class="visually-hidden" onChange={onFile} disabled={busy}
                 data-testid="file-input" /></label>
        <label class="button">Choose rolling-log folder
          <input type="file" class="visually-hidden" onChange={onFolder} disabled={busy}
                 {...{ webkitdirectory: '', directory: '' }} /></label>
      </div>
      {folderMessage && <p role="alert" class="error">{folderMessage}</p>}
      <button type="button" class="disclosure" aria-expanded={shsOpen} aria-controls="shs-form"
              onClick={() => setShsOpen(!shsOpen)}>
        <Chevron open={shsOpen} /> Fetch from Spark History Server
      </button>
      {shsOpen && (
        <form id="shs-form" class="shs" onSubmit={onFetch} noValidate>
          <label>Base URL <input name="baseUrl" value={fields.baseUrl} placeholder="http://history-server:18080/"
                 aria-invalid={!!fieldError('baseUrl')} aria-describedby="shs-base-error"
                 onInput={(e) => setField('baseUrl', (e.target as HTMLInputElement).value)}
                 onBlur={() => setTouched({ ...touched, baseUrl: true })} /></label>
          <span id="shs-base-error" class="error">{fieldError('baseUrl')}</span>
          <label>Application ID <input name="appId" value={fields.appId} placeholder="application_1700000000000_0001"
                 aria-invalid={!!fieldError('appId')} aria-describedby="shs-app-error"
                 onInput={(e) => setField('appId', (e.target as HTMLInputElement).value)}
                 onBlur={() => setTouched({ ...touched, appId: true })} /></label>
          <span id="shs-app-error" class="error">{fieldError('appId')}</span>
          <label>Attempt ID (optional) <input name="attemptId" value={fields.attemptId}
                 aria-invalid={!!fieldError('attemptId')} aria-describedby="shs-attempt-error"
                 onInput={(e) => setField('attemptId', (e.target as HTMLInputElement).value)}
                 onBlur={() => setTouched({ ...touched, attemptId: true })} /></label>
          <span id="shs-attempt-error" class="error">{fieldError('attemptId')}</span>
          <button type="submit" disabled={busy}>Fetch and analyze</button>
          {shsError && (
            <div role="alert" class="error shs-error" data-code={shsError.code}>
              <strong>{shsError.code}</strong>: {SHS_GUIDANCE[shsError.code] ?? shsError.message}
            </div>
          )}
        </form>
      )}
    </section>
  );
}
