// The page: a header (the log shown, its pages, the theme), then the page the address names.
import { useEffect, useState } from 'preact/hooks';
import { inlinedComparison, inlinedReport } from '../api';
import { currentRoute, onRouteChange, type Route, type View } from '../route';
import { actions, useStore } from '../store/store';
import type { AnalysisDocument } from '../types';
import { useIngest } from '../store/useIngest';
import { ErrorPage, ParseProgress } from './status';
import { FindingFilterProvider } from './FindingFilterContext';
import { Link } from './Link';
import { Applications, rememberLog } from './Applications';
import { Overview } from './Overview';
import { Board } from './Board';
import { StagePage } from './StagePage';
import { Timeline } from './Timeline';
import { PlanGraphPage } from './PlanGraph';
import { Environment } from './Environment';
import { StreamingPage } from './StreamingPage';
import { ConnectPage } from './ConnectPage';
import { ComparePage } from './ComparePage';
import { HistoryPage } from './HistoryPage';
import { FleetPage } from './FleetPage';

// Streaming and Connect: only for a log with Structured Streaming queries, Spark Connect operations.
const TABS: { view: View; label: string; shown?: (doc: AnalysisDocument | null) => boolean }[] = [
  { view: 'overview', label: 'Overview' },
  { view: 'findings', label: 'Findings' },
  { view: 'timeline', label: 'Timeline' },
  { view: 'stages', label: 'Stages' },
  { view: 'sql', label: 'SQL plans' },
  { view: 'streaming', label: 'Streaming', shown: (doc) => (doc?.streamingQueries.length ?? 0) > 0 },
  { view: 'connect', label: 'Connect', shown: (doc) => (doc?.connectOperations.length ?? 0) > 0 },
  { view: 'environment', label: 'Environment' },
];

function LogPage({ route }: { route: Route }) {
  const doc = useStore((s) => s.doc);
  const status = useStore((s) => s.status);
  const activeLog = useStore((s) => s.activeLog);
  const ingest = useIngest();
  useEffect(() => {
    if (route.log !== null && route.log !== activeLog) void ingest.startLoad(route.log);
  }, [route.log]);

  if (status === 'error') {
    return <ErrorPage onBack={() => { ingest.resetToDropZone(); history.pushState(null, '', '/');
                                      dispatchEvent(new PopStateEvent('popstate')); }} />;
  }
  if (!doc || activeLog !== route.log) return <ParseProgress />;
  switch (route.view) {
    case 'findings': return <Board doc={doc} />;
    case 'timeline': return <Timeline />;
    case 'stages': return <StagePage doc={doc} args={route.args} />;
    case 'sql': return <PlanGraphPage doc={doc} args={route.args} />;
    case 'streaming': return <StreamingPage doc={doc} args={route.args} />;
    case 'connect': return <ConnectPage doc={doc} args={route.args} />;
    case 'environment': return <Environment doc={doc} />;
    default: return <Overview />;
  }
}

export function App() {
  const [route, setRoute] = useState<Route>(currentRoute());
  const theme = useStore((s) => s.theme);
  const doc = useStore((s) => s.doc);
  const activeLog = useStore((s) => s.activeLog);
  useEffect(() => onRouteChange(() => setRoute(currentRoute())), []);
  useEffect(() => { document.documentElement.dataset.theme = theme; }, [theme]);
  useEffect(() => {
    document.title = doc && route.log ? `${doc.app.name || doc.app.id} · SparkForensics` : 'SparkForensics';
  }, [doc, route.log]);
  const report = inlinedReport() !== null || inlinedComparison() !== null;
  const shown = doc && activeLog === route.log ? doc : null;
  useEffect(() => {
    if (shown && activeLog && !report) {
      rememberLog({ log: activeLog, name: shown.app.name, appId: shown.app.id, openedAtMs: Date.now() });
    }
  }, [shown, activeLog]);

  return (
    <FindingFilterProvider fileId={route.log}>
      <a class="skip" href="#main">Skip to content</a>
      <header class="top">
        <div class="brand">
          {report ? <span>SparkForensics</span> : <Link to={{ log: null, view: 'apps', args: [] }}>SparkForensics</Link>}
          {shown && <span class="app-name" title={shown.app.id}>{shown.app.name || shown.app.id}
            <span class="muted"> · {shown.app.id}</span></span>}
        </div>
        {route.log !== null && (
          <nav aria-label="Pages of this application">
            {TABS.filter((tab) => !tab.shown || tab.shown(shown)).map((tab) => (
              <Link key={tab.view} to={{ log: route.log, view: tab.view, args: [] }} class="tab"
                    current={route.view === tab.view}>{tab.label}</Link>
            ))}
          </nav>
        )}
        {!report && (
          <nav aria-label="Across runs">
            <Link to={{ log: null, view: 'compare', args: [] }} class="tab" current={route.view === 'compare'}>Compare</Link>
            <Link to={{ log: null, view: 'history', args: [] }} class="tab" current={route.view === 'history'}>History</Link>
            <Link to={{ log: null, view: 'fleet', args: [] }} class="tab" current={route.view === 'fleet'}>Fleet</Link>
          </nav>)}
        <button type="button" class="theme" aria-label={`Switch to the ${theme === 'dark' ? 'light' : 'dark'} theme`}
                onClick={() => actions.setTheme(theme === 'dark' ? 'light' : 'dark')}>
          {theme === 'dark' ? '☀ Light' : '☾ Dark'}
        </button>
      </header>
      <main id="main">
        {route.view === 'compare' ? <ComparePage /> : route.view === 'history' ? <HistoryPage />
          : route.view === 'fleet' ? <FleetPage />
          : route.log === null ? <Applications /> : <LogPage route={route} />}
      </main>
    </FindingFilterProvider>
  );
}
