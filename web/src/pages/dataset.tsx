import { useEffect, useState } from 'preact/hooks';
import { gql } from '../api.ts';
import { DeprecateForm, undeprecate } from '../components/deprecate-form.tsx';
import { DeprecationBadge, type DeprecationView } from '../components/deprecation-badge.tsx';
import { ErrorBox } from '../components/error-box.tsx';
import { datasetHref, formatDate, formatDateTime } from '../format.ts';
import { canDeprecate, type Me } from '../me.ts';

const QUERY = `query dataset($urn: String!) {
  dataset(urn: $urn) {
    urn name platform { name }
    properties { name description }
    deprecation { deprecated decommissionTime note actor replacement { urn } }
    schemaMetadata { fields { fieldPath nativeDataType deprecation { deprecated note decommissionTime } } }
    deprecationHistory(limit: 50) { version deprecated note decommissionTime replacement actor time }
  }
}`;

interface HistoryEntry extends DeprecationView {
  replacement: string | null;
  version: number;
  time: number;
}

interface DatasetView {
  urn: string;
  name: string;
  platform: { name: string };
  properties: { name: string | null; description: string | null } | null;
  deprecation: (DeprecationView & { actor: string | null; replacement: { urn: string } | null }) | null;
  schemaMetadata: { fields: Array<{ fieldPath: string; nativeDataType: string; deprecation: DeprecationView | null }> } | null;
  deprecationHistory: HistoryEntry[];
}

/** One dataset: properties, schema fields, the deprecation banner and its history. */
export function DatasetPage({ urn, me }: { urn: string; me: Me | null }) {
  const [dataset, setDataset] = useState<DatasetView | null | undefined>(undefined);
  const [error, setError] = useState<unknown>(null);
  const [editing, setEditing] = useState(false);
  const [reload, setReload] = useState(0);

  useEffect(() => {
    gql<{ dataset: DatasetView | null }>(QUERY, { urn }).then((d) => setDataset(d.dataset), setError);
  }, [urn, reload]);

  if (error && dataset === undefined) return <main><ErrorBox error={error} /></main>;
  if (dataset === undefined) return <main aria-busy="true">Loading…</main>;
  if (dataset === null) return <main><h1>Not found</h1><p>No dataset {urn}.</p></main>;

  const dep = dataset.deprecation;
  const refresh = () => {
    setEditing(false);
    setReload(reload + 1);
  };
  return (
    <main>
      <p class="crumbs"><a href="#/datasets">Datasets</a> / {dataset.platform.name}</p>
      <h1>
        {dataset.properties?.name ?? dataset.name} <DeprecationBadge deprecation={dep} />
      </h1>
      <p class="urn">{dataset.urn}</p>
      {dep?.deprecated && (
        <section class="banner" role="status" aria-label="Deprecation">
          <strong>This dataset is deprecated.</strong> {dep.note}
          <dl>
            <dt>Decommission date</dt>
            <dd>{formatDate(dep.decommissionTime)}</dd>
            <dt>Replacement</dt>
            <dd>{dep.replacement ? <a href={datasetHref(dep.replacement.urn)}>{dep.replacement.urn}</a> : '—'}</dd>
            <dt>Deprecated by</dt>
            <dd>{dep.actor ?? '—'} {dataset.deprecationHistory[0] ? `on ${formatDateTime(dataset.deprecationHistory[0].time)}` : ''}</dd>
          </dl>
        </section>
      )}
      {canDeprecate(me) && (
        <div class="toolbar">
          {dep?.deprecated ? (
            <button onClick={() => undeprecate([dataset.urn]).then(refresh, setError)}>Undeprecate</button>
          ) : (
            <button class="danger" onClick={() => setEditing(true)}>
              Deprecate
            </button>
          )}
        </div>
      )}
      {editing && <DeprecateForm urns={[dataset.urn]} onDone={refresh} onCancel={() => setEditing(false)} />}
      <ErrorBox error={error} />
      <section>
        <h2>Properties</h2>
        <p>{dataset.properties?.description ?? 'No description.'}</p>
      </section>
      <section>
        <h2>Schema</h2>
        {dataset.schemaMetadata?.fields.length ? (
          <table>
            <thead>
              <tr><th scope="col">Field</th><th scope="col">Type</th><th scope="col">Status</th></tr>
            </thead>
            <tbody>
              {dataset.schemaMetadata.fields.map((f) => (
                <tr>
                  <td>{f.fieldPath}</td>
                  <td>{f.nativeDataType}</td>
                  <td><DeprecationBadge deprecation={f.deprecation} /></td>
                </tr>
              ))}
            </tbody>
          </table>
        ) : (
          <p>No schema.</p>
        )}
      </section>
      <section>
        <h2>Deprecation history</h2>
        {dataset.deprecationHistory.length === 0 ? (
          <p>Never deprecated.</p>
        ) : (
          <ol class="timeline">
            {dataset.deprecationHistory.map((h) => (
              <li>
                <time>{formatDateTime(h.time)}</time> {h.actor}: {h.deprecated ? 'deprecated' : 'undeprecated'}
                {h.note ? ` — “${h.note}”` : ''}
                {h.decommissionTime != null ? `, decommission ${formatDate(h.decommissionTime)}` : ''}
              </li>
            ))}
          </ol>
        )}
      </section>
    </main>
  );
}
