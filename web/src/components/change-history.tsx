import { useEffect, useState } from 'preact/hooks';
import { gql } from '../api.ts';
import { formatDateTime } from '../format.ts';
import { ErrorBox } from './error-box.tsx';

const TIMELINE = `query history($input: GetTimelineInput!) {
  getTimeline(input: $input) {
    changeTransactions { timestampMillis lastSemanticVersion actor changes { category operation modifier description } }
  }
}`;

interface Transaction {
  timestampMillis: number;
  lastSemanticVersion: string;
  actor: string | null;
  changes: Array<{ category: string | null; operation: string | null; modifier: string | null; description: string | null }> | null;
}

const CATEGORY_LABELS: Readonly<Record<string, string>> = {
  DOCUMENTATION: 'Documentation',
  GLOSSARY_TERM: 'Glossary term',
  OWNERSHIP: 'Owner',
  TECHNICAL_SCHEMA: 'Schema',
  TAG: 'Tag',
  DOMAIN: 'Domain',
};

/**
 * What changed and who changed it, newest first: DataHub's timeline (getTimeline) of the entity, every kept version
 * against the one before. `reload` re-reads it after an edit on the same page.
 */
export function ChangeHistory({ urn, reload }: { urn: string; reload: number }) {
  const [transactions, setTransactions] = useState<Transaction[] | null>(null);
  const [error, setError] = useState<unknown>(null);
  useEffect(() => {
    let live = true;
    gql<{ getTimeline: { changeTransactions: Transaction[] } | null }>(TIMELINE, { input: { urn } }).then(
      (d) => {
        if (!live) return;
        setTransactions([...(d.getTimeline?.changeTransactions ?? [])].reverse());
        setError(null);
      },
      (e: unknown) => live && setError(e),
    );
    return () => {
      live = false;
    };
  }, [urn, reload]);
  return (
    <section aria-labelledby="changes-heading">
      <h2 id="changes-heading">Change history</h2>
      <ErrorBox error={error} />
      {transactions === null && !error && <p aria-busy="true">Loading…</p>}
      {transactions?.length === 0 && <p class="muted">No changes recorded yet.</p>}
      {transactions && transactions.length > 0 && (
        <ol class="timeline changes" aria-label="Changes">
          {transactions.map((t) => (
            <li>
              <time>{formatDateTime(t.timestampMillis)}</time> <span class="muted">{t.actor ?? 'unknown'}</span>{' '}
              <span class="muted small">v{t.lastSemanticVersion}</span>
              <ul>
                {(t.changes ?? []).map((c) => (
                  <li>
                    <span class="badge badge-type">{CATEGORY_LABELS[c.category ?? ''] ?? c.category}</span> {c.description}
                  </li>
                ))}
              </ul>
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}
