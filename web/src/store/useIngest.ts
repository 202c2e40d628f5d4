// Reading a log into the store: the only writer during a parse. Components call these actions
// and read the store; none of them talks to the API about a parse itself.
import { api, ApiError, inlinedReport, REPORT_LOG } from '../api';
import { actions, store } from './store';
import type { ParseStatus } from '../types';

const POLL_MS = 200;
let generation = 0;  // a newer load makes an older one's answers stale

// Polls a parse until it is done or failed, reporting each state; stops early when `live` says
// the answer is no longer wanted. The compare page's slots read logs with it too.
export async function pollParse(first: ParseStatus, onProgress: (status: ParseStatus) => void,
                                live: () => boolean): Promise<ParseStatus> {
  let status = first;
  while (status.state !== 'done' && status.state !== 'failed') {
    if (!live()) return status;
    onProgress(status);
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    status = await api.parse(status.id);
  }
  return status;
}

async function waitForParse(first: ParseStatus, mine: number): Promise<ParseStatus> {
  return pollParse(first, (status) => actions.setParse(status), () => mine === generation);
}

async function finishLoad(first: ParseStatus, mine: number): Promise<string | null> {
  const status = await waitForParse(first, mine);
  if (mine !== generation) return null;
  if (status.state === 'failed' || !status.log) {
    throw new ApiError(422, status.error?.code ?? 'failed', status.error?.message ?? 'the log could not be read');
  }
  const [analysis, timeline] = await Promise.all([api.analysis(status.log), api.timeline(status.log)]);
  if (mine !== generation) return null;
  actions.setDocuments(status.log, { analysis, timeline });
  return status.log;
}

// Refused before a byte is sent: the server would answer 413 (serve --max-upload-bytes).
export async function checkSize(bytes: number): Promise<void> {
  const limits = await api.limits();
  if (bytes > limits.maxUploadBytes) {
    throw new ApiError(413, 'too-large', `The file is ${Math.ceil(bytes / 2 ** 20)} MiB; this server takes uploads of ` +
      `at most ${Math.floor(limits.maxUploadBytes / 2 ** 20)} MiB (serve --max-upload-bytes). Put the log in the log ` +
      'directory instead.');
  }
}

function failed(error: unknown): null {
  const e = error instanceof ApiError ? error : new ApiError(0, 'internal', String(error));
  actions.setError(e.code, e.message);
  return null;
}

export function useIngest() {
  return {
    // Opens a log (the list's, an upload's, a fetched one): from this tab's cache when it was
    // read before, otherwise parsed by the server with its progress shown. The log's id, or null.
    async startLoad(log: string): Promise<string | null> {
      const mine = ++generation;
      const report = inlinedReport();
      if (report) {
        actions.setDocuments(REPORT_LOG, report);
        return REPORT_LOG;
      }
      const cached = store.getState().sessionCache.get(log);
      if (cached) {
        actions.setDocuments(log, cached);
        return log;
      }
      actions.resetModel();
      actions.setStatus('parsing');
      try {
        return await finishLoad(await api.startParse(log), mine);
      } catch (error) {
        return mine === generation ? failed(error) : null;
      }
    },
    // One event log file, uploaded then parsed.
    async startUpload(file: File): Promise<string | null> {
      const mine = ++generation;
      actions.resetModel();
      actions.setStatus('parsing');
      try {
        await checkSize(file.size);
        const uploaded = await api.upload(file, file.name);
        return await finishLoad(await api.startParse(uploaded.log), mine);
      } catch (error) {
        return mine === generation ? failed(error) : null;
      }
    },
    // A rolling log folder (eventlog_v2_*), its files uploaded one by one into one upload.
    async startUploadFolder(folder: string, files: File[]): Promise<string | null> {
      const mine = ++generation;
      actions.resetModel();
      actions.setStatus('parsing');
      try {
        await checkSize(files.reduce((sum, f) => sum + f.size, 0));
        let upload: string | null = null;
        let log = '';
        for (const file of files) {
          if (file.size === 0) continue;  // the appstatus_ marker: its name is all it says
          const answer = await api.upload(file, file.name, { name: folder, upload });
          upload = answer.upload;
          log = answer.log;
        }
        return await finishLoad(await api.startParse(log), mine);
      } catch (error) {
        return mine === generation ? failed(error) : null;
      }
    },
    // An application of a Spark History Server, downloaded by `serve`. A failure with one of
    // the History Server's stable codes is thrown back to the intake form, which stays open
    // with its values; the model returns to idle.
    async startLoadFromUrl(baseUrl: string, appId: string, attemptId: string): Promise<string | null> {
      const mine = ++generation;
      actions.resetModel();
      actions.setStatus('parsing');
      try {
        return await finishLoad(await api.historyServer(baseUrl, appId, attemptId), mine);
      } catch (error) {
        if (mine === generation) {
          actions.resetModel();
          actions.setStatus('idle');
        }
        throw error;
      }
    },
    resetToDropZone(): void {
      ++generation;
      actions.resetModel();
      actions.setStatus('idle');
    },
  };
}
