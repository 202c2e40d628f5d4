// The dashboard's shared state: one zustand store (zustand/vanilla), read through useStore.
// useIngest is its only writer while a log is read; the finding filter lives apart, in the URL
// (view/finding-filter.ts).
import { createStore } from 'zustand/vanilla';
import { useEffect, useState } from 'preact/hooks';
import type { AnalysisDocument, ParseStatus, TimelineDocument } from '../types';

export type Theme = 'light' | 'dark';
export type Status = 'idle' | 'parsing' | 'ready' | 'error';

export interface LoadedDocuments { analysis: AnalysisDocument; timeline: TimelineDocument }

export interface DashboardState {
  doc: AnalysisDocument | null;
  timeline: TimelineDocument | null;
  activeLog: string | null;
  status: Status;
  parse: ParseStatus | null;
  errorMessage: string | null;
  errorCode: string | null;
  theme: Theme;
  skippedLines: number;
  // Logs already read in this tab: switching back to one is instant. Gone on reload.
  sessionCache: Map<string, LoadedDocuments>;
  modelResetCount: number;
}

function initialTheme(): Theme {
  try {
    const saved = window.localStorage.getItem('sparkforensics-theme');
    if (saved === 'light' || saved === 'dark') return saved;
  } catch { /* storage unavailable: the system's preference */ }
  return window.matchMedia?.('(prefers-color-scheme: dark)').matches ? 'dark' : 'light';
}

export const store = createStore<DashboardState>(() => ({
  doc: null,
  timeline: null,
  activeLog: null,
  status: 'idle',
  parse: null,
  errorMessage: null,
  errorCode: null,
  theme: initialTheme(),
  skippedLines: 0,
  sessionCache: new Map(),
  modelResetCount: 0,
}));

export const actions = {
  resetModel(): void {
    store.setState((s) => ({ doc: null, timeline: null, activeLog: null, skippedLines: 0, parse: null,
                             errorMessage: null, errorCode: null, modelResetCount: s.modelResetCount + 1 }));
  },
  setParse(parse: ParseStatus | null): void { store.setState({ parse }); },
  setStatus(status: Status): void { store.setState({ status }); },
  setError(code: string, message: string): void {
    store.setState({ status: 'error', errorCode: code, errorMessage: message });
  },
  setDocuments(log: string, documents: LoadedDocuments): void {
    store.setState((s) => {
      const sessionCache = new Map(s.sessionCache);
      sessionCache.set(log, documents);
      return { doc: documents.analysis, timeline: documents.timeline, activeLog: log, status: 'ready',
               skippedLines: documents.analysis.diagnostics.skippedLines, sessionCache, parse: null };
    });
  },
  setTheme(theme: Theme): void {
    try { window.localStorage.setItem('sparkforensics-theme', theme); } catch { /* not kept */ }
    store.setState({ theme });
  },
};

// The selected slice of the store; re-renders when it changes (compared with Object.is).
export function useStore<T>(select: (state: DashboardState) => T): T {
  const [value, setValue] = useState(() => select(store.getState()));
  useEffect(() => {
    setValue(select(store.getState()));
    return store.subscribe((state) => setValue(() => select(state)));
  }, []);
  return value;
}
