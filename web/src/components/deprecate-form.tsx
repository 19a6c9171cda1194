import { useState } from 'preact/hooks';
import { gql } from '../api.ts';
import { refName, type EntityRefView } from '../entity-ref.ts';
import { useEscape } from '../use-escape.ts';
import { EntityPicker } from './entity-picker.tsx';
import { ErrorBox } from './error-box.tsx';
import { ImpactTable, useImpact } from './impact-list.tsx';

const MUTATION = `mutation batch($input: BatchUpdateDeprecationInput!) { batchUpdateDeprecation(input: $input) }`;

/**
 * Deprecates (or undeprecates) the given datasets in one batchUpdateDeprecation call. The replacement is picked by
 * name (autocomplete over datasets); Escape closes the form unchanged.
 */
export function DeprecateForm({ urns, onDone, onCancel }: { urns: readonly string[]; onDone: () => void; onCancel: () => void }) {
  const [note, setNote] = useState('');
  const [date, setDate] = useState('');
  const [replacement, setReplacement] = useState<EntityRefView | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  // Shown before the user confirms: who is downstream of what is about to be deprecated.
  const { impact, error: impactError } = useImpact(urns);
  useEscape(true, onCancel);

  const submit = async (e: Event) => {
    e.preventDefault();
    setBusy(true);
    setError(null);
    try {
      await gql(MUTATION, {
        input: {
          deprecated: true,
          note,
          decommissionTime: date ? Date.parse(`${date}T00:00:00Z`) : null,
          replacement: replacement?.urn ?? null,
          resources: urns.map((resourceUrn) => ({ resourceUrn })),
        },
      });
      onDone();
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  };

  return (
    <form class="panel deprecate-form" onSubmit={submit} aria-label="Deprecate datasets">
      <h3>
        Deprecate {urns.length} dataset{urns.length === 1 ? '' : 's'}
      </h3>
      <label>
        Note
        <textarea value={note} onInput={(e) => setNote((e.target as HTMLTextAreaElement).value)} placeholder="Why, and what to use instead" />
      </label>
      <label>
        Decommission date
        <input type="date" value={date} onInput={(e) => setDate((e.target as HTMLInputElement).value)} />
      </label>
      <div class="field">
        <span id="replacement-label">Replacement</span>
        {replacement ? (
          <p class="chosen">
            <span title={replacement.urn}>{refName(replacement)}</span>{' '}
            <button type="button" class="link-button" onClick={() => setReplacement(null)}>
              Change
            </button>
          </p>
        ) : (
          <EntityPicker
            label="Replacement dataset"
            types={['DATASET']}
            placeholder="Type a word of its name…"
            onPick={(e) => setReplacement(urns.includes(e.urn) ? null : e)}
          />
        )}
      </div>
      <section aria-label="Impact">
        {impact ? (
          <ImpactTable impact={impact} caption="Downstream, who will see the deprecation" />
        ) : (
          !impactError && <p aria-busy="true">Walking lineage…</p>
        )}
        <ErrorBox error={impactError} />
      </section>
      <ErrorBox error={error} />
      <div class="actions">
        <button type="submit" class="primary" disabled={busy}>
          Deprecate
        </button>
        <button type="button" onClick={onCancel}>
          Cancel
        </button>
      </div>
    </form>
  );
}

/** Marks the given datasets as no longer deprecated. */
export async function undeprecate(urns: readonly string[]): Promise<void> {
  await gql(MUTATION, { input: { deprecated: false, resources: urns.map((resourceUrn) => ({ resourceUrn })) } });
}
