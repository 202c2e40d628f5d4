// One finding: its band, figure, evidence, what to change and the settings to set.
import { formatEvidence, recoverableText } from '../format';
import type { Finding } from '../types';
import { BandBadge } from './badges';
import { Link } from './Link';
import { currentRoute } from '../route';

export function FindingCard({ finding }: { finding: Finding }) {
  const log = currentRoute().log;
  return (
    <article class="finding" data-finding-id={finding.id}>
      <header>
        <BandBadge band={finding.impactBand} />
        <h4>{finding.title}</h4>
      </header>
      <p class="figure">{recoverableText(finding.impactEstimate.wallClock)}
        <span class="muted"> · {finding.impactEstimate.basis}, {finding.confidence} confidence · {finding.type}
          {finding.rule ? `/${finding.rule}` : ''}</span></p>
      <p>{finding.explanation}</p>
      <p><strong>What to change: </strong>{finding.recommendation}</p>
      {finding.validationRequired && <p class="muted">Check first: {finding.validationRequired}</p>}
      {finding.settings.length > 0 && (
        <table class="grid compact">
          <caption>Spark settings</caption>
          <thead><tr><th>setting</th><th>now</th><th>suggested</th></tr></thead>
          <tbody>{finding.settings.map((s) => (
            <tr key={s.key}><td><code>{s.key}</code></td><td>{s.currentValue || <span class="muted">not set</span>}</td>
              <td>{s.suggestedValue || <span class="muted">–</span>}</td></tr>))}</tbody>
        </table>
      )}
      {(finding.alsoAnswers ?? []).length > 0 && (
        <details class="also-answers">
          <summary>The same fix also answers {finding.alsoAnswers!.length} more</summary>
          <ul>{finding.alsoAnswers!.map((a) => (
            <li key={a.finding.id} data-finding-id={a.finding.id}>
              <BandBadge band={a.finding.impactBand} /> {a.finding.title}
              <span class="muted"> · {a.finding.type}{a.finding.rule ? `/${a.finding.rule}` : ''}: {a.why}</span>
            </li>))}</ul>
        </details>
      )}
      <details>
        <summary>Evidence</summary>
        <ul class="evidence">{finding.evidence.map((e) => <li key={e.name}>{e.name}: {formatEvidence(e.value, e.unit)}</li>)}</ul>
      </details>
      {finding.stageAttempts.length > 0 && (
        <p class="stages">Stages: {finding.stageAttempts.slice(0, 20).map((s) => (
          <Link key={`${s.stageId}.${s.attemptId}`} to={{ log, view: 'stages', args: [String(s.stageId), String(s.attemptId)] }}
                class="chip">{s.stageId}.{s.attemptId}</Link>))}
          {finding.stageAttempts.length > 20 && <span class="muted"> and {finding.stageAttempts.length - 20} more</span>}
        </p>
      )}
    </article>
  );
}
