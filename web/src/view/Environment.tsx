// The application's properties (redacted as the model was built), the settings that findings
// refer to highlighted with those findings.
import { useMemo, useState } from 'preact/hooks';
import type { AnalysisDocument } from '../types';

const SECTIONS: { key: 'sparkProperties' | 'hadoopProperties' | 'systemProperties' | 'jvmInformation'; title: string }[] = [
  { key: 'sparkProperties', title: 'Spark properties' }, { key: 'hadoopProperties', title: 'Hadoop properties' },
  { key: 'systemProperties', title: 'System properties' }, { key: 'jvmInformation', title: 'JVM' }];

export function Environment({ doc }: { doc: AnalysisDocument }) {
  const [search, setSearch] = useState('');
  const referred = useMemo(() => {
    const map = new Map<string, { finding: string; suggested: string }[]>();
    for (const f of doc.findings) for (const s of f.settings) {
      map.set(s.key, [...(map.get(s.key) ?? []), { finding: f.title, suggested: s.suggestedValue }]);
    }
    return map;
  }, [doc]);
  const needle = search.trim().toLowerCase();
  return (
    <div class="environment">
      <section class="panel">
        <div class="row"><h2>Environment</h2>
          <label class="search">Filter <input type="search" value={search} onInput={(e) => setSearch((e.target as HTMLInputElement).value)} /></label></div>
        <p class="muted">Secrets are redacted. Highlighted: settings a finding suggests changing.</p>
        {referred.size > 0 && (
          <ul class="plain">{[...referred].map(([key, refs]) => (
            <li key={key}><code>{key}</code> = {doc.environment.sparkProperties[key] ?? <span class="muted">not set</span>}
              {' → '}{refs.map((r) => r.suggested).filter(Boolean).join(' / ') || 'see the finding'}
              <span class="muted"> ({refs.map((r) => r.finding).join('; ')})</span></li>))}</ul>
        )}
      </section>
      {SECTIONS.map(({ key, title }) => {
        const entries = Object.entries(doc.environment[key] ?? {})
          .filter(([k, v]) => !needle || k.toLowerCase().includes(needle) || v.toLowerCase().includes(needle));
        return (
          <section key={key} class="panel">
            <h3>{title} <span class="muted">· {entries.length}</span></h3>
            <table class="grid compact props">
              <thead><tr><th>name</th><th>value</th></tr></thead>
              <tbody>{entries.map(([k, v]) => (
                <tr key={k} class={referred.has(k) ? 'referred' : undefined}>
                  <td><code>{k}</code>{referred.has(k) && <span class="badge">in a finding</span>}</td><td class="value">{v}</td></tr>))}</tbody>
            </table>
          </section>
        );
      })}
    </div>
  );
}
