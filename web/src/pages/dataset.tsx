import { useEffect, useState } from 'preact/hooks';
import { gql } from '../api.ts';
import { DeprecateForm, undeprecate } from '../components/deprecate-form.tsx';
import { decommissionCountdown, DeprecationBadge, type DeprecationView } from '../components/deprecation-badge.tsx';
import { ErrorBox } from '../components/error-box.tsx';
import { DownstreamSection } from '../components/impact-list.tsx';
import { LineageSection } from '../components/lineage.tsx';
import { ProfileChart, type ProfileView } from '../components/profile-chart.tsx';
import { RefLinks } from '../components/ref-links.tsx';
import { SchemaTable, type FieldView } from '../components/schema-table.tsx';
import { REF_FIELDS, refName, type EntityRefView } from '../entity-ref.ts';
import { datasetHref, datasetTitle, formatDate, formatDateTime } from '../format.ts';
import { canDeprecate, type Me } from '../me.ts';

const QUERY = `query dataset($urn: String!) {
  dataset(urn: $urn) {
    urn name platform { name }
    status { removed }
    properties { name description customProperties { key value } }
    ownership { owners { owner { ...ref } ownershipType { info { name } } } }
    tags { tags { tag { ...ref } } }
    glossaryTerms { terms { term { ...ref } } }
    domain { domain { ...ref } }
    deprecation { deprecated decommissionTime note actor actorEntity { ...ref } replacement { ...ref } }
    schemaMetadata { fields { fieldPath type nativeDataType description tags { tags { tag { ...ref } } } deprecation { deprecated note decommissionTime } } }
    datasetProfiles(limit: 100) { timestampMillis rowCount fieldProfiles { fieldPath nullCount nullProportion } }
    deprecationHistory(limit: 50) { version deprecated note decommissionTime replacement actor time }
    deprecatedUpstreams(depth: 3) { urn degree state note entity { ...ref } }
  }
}
${REF_FIELDS}`;

interface HistoryEntry extends DeprecationView {
  replacement: string | null;
  version: number;
  time: number;
}

interface DatasetView {
  urn: string;
  name: string;
  platform: { name: string };
  status: { removed: boolean } | null;
  properties: { name: string | null; description: string | null; customProperties: Array<{ key: string; value: string | null }> | null } | null;
  ownership: { owners: Array<{ owner: EntityRefView; ownershipType: { info: { name: string } | null } | null }> | null } | null;
  tags: { tags: Array<{ tag: EntityRefView }> | null } | null;
  glossaryTerms: { terms: Array<{ term: EntityRefView }> | null } | null;
  domain: { domain: EntityRefView } | null;
  deprecation: (DeprecationView & { actor: string | null; actorEntity: EntityRefView | null; replacement: EntityRefView | null }) | null;
  schemaMetadata: { fields: FieldView[] } | null;
  datasetProfiles: ProfileView[] | null;
  deprecationHistory: HistoryEntry[];
  deprecatedUpstreams: Array<{ urn: string; degree: number; state: 'DEPRECATED' | 'OVERDUE'; note: string | null; entity: EntityRefView | null }>;
}

/** One dataset: what it is, who owns it, how it is classified, its schema, profiles, lineage and deprecation. */
export function DatasetPage({ urn, me }: { urn: string; me: Me | null }) {
  const [dataset, setDataset] = useState<DatasetView | null | undefined>(undefined);
  const [error, setError] = useState<unknown>(null);
  const [editing, setEditing] = useState(false);
  const [reload, setReload] = useState(0);

  useEffect(() => {
    let live = true;
    gql<{ dataset: DatasetView | null }>(QUERY, { urn }).then(
      (d) => live && setDataset(d.dataset),
      (e: unknown) => live && setError(e),
    );
    return () => {
      live = false;
    };
  }, [urn, reload]);

  useEffect(() => {
    if (dataset) document.title = `${datasetTitle(dataset)} · Almanac`;
  }, [dataset]);

  if (error && dataset === undefined)
    return (
      <main>
        <ErrorBox error={error} />
      </main>
    );
  if (dataset === undefined) return <main aria-busy="true">Loading…</main>;
  if (dataset === null)
    return (
      <main>
        <h1>Not found</h1>
        <p>No dataset {urn}.</p>
      </main>
    );

  const dep = dataset.deprecation;
  const refresh = () => {
    setEditing(false);
    setReload(reload + 1);
  };
  const owners = dataset.ownership?.owners ?? [];
  // Sorted by key: the stored map's order is not kept the same by every backend.
  const custom = [...(dataset.properties?.customProperties ?? [])].sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  return (
    <main>
      <p class="crumbs">
        <a href="#/datasets">Datasets</a> / {dataset.platform.name} / {dataset.name}
      </p>
      <h1>
        {datasetTitle(dataset)} <DeprecationBadge deprecation={dep} />
        {dataset.status?.removed && <span class="badge badge-removed">Soft-deleted</span>}
      </h1>
      <p class="urn">{dataset.urn}</p>
      {dep?.deprecated && (
        <section class="banner" role="status" aria-label="Deprecation">
          <strong>This dataset is deprecated.</strong> {dep.note}
          <dl>
            <dt>Decommission date</dt>
            <dd>
              {formatDate(dep.decommissionTime)}
              {dep.decommissionTime != null && ` (${decommissionCountdown(dep.decommissionTime)})`}
            </dd>
            <dt>Replacement</dt>
            <dd>{dep.replacement ? <a href={datasetHref(dep.replacement.urn)}>{refName(dep.replacement, dep.replacement.urn)}</a> : '—'}</dd>
            <dt>Deprecated by</dt>
            <dd>
              {dep.actorEntity ? <span title={dep.actorEntity.urn}>{refName(dep.actorEntity)}</span> : (dep.actor ?? '—')}{' '}
              {dataset.deprecationHistory[0] ? `on ${formatDateTime(dataset.deprecationHistory[0].time)}` : ''}
            </dd>
          </dl>
        </section>
      )}
      {dataset.deprecatedUpstreams.length > 0 && (
        <section class="banner warn" role="alert" aria-label="Deprecated upstream">
          <strong>It depends on deprecated data.</strong>
          <ul>
            {dataset.deprecatedUpstreams.map((u) => (
              <li>
                <a href={datasetHref(u.urn)}>{refName(u.entity, u.urn)}</a> is {u.state === 'OVERDUE' ? 'past its decommission date' : 'deprecated'}
                {u.degree > 1 ? ` (${u.degree} hops upstream)` : ''}
                {u.note ? `: ${u.note}` : ''}
              </li>
            ))}
          </ul>
        </section>
      )}
      {dep?.deprecated && <DownstreamSection urn={dataset.urn} />}
      {canDeprecate(me) && (
        <div class="toolbar">
          {dep?.deprecated ? (
            <button onClick={() => undeprecate([dataset.urn]).then(refresh, setError)}>Undeprecate</button>
          ) : (
            <button class="primary" onClick={() => setEditing(true)}>
              Deprecate
            </button>
          )}
        </div>
      )}
      {editing && <DeprecateForm urns={[dataset.urn]} onDone={refresh} onCancel={() => setEditing(false)} />}
      <ErrorBox error={error} />
      <div class="about">
        <section aria-labelledby="about-heading">
          <h2 id="about-heading">About</h2>
          <p class="description">{dataset.properties?.description || 'No description.'}</p>
          {custom.length > 0 && (
            <>
              <h3>Custom properties</h3>
              <dl class="props" aria-label="Custom properties">
                {custom.map((c) => (
                  <>
                    <dt>{c.key}</dt>
                    <dd>{c.value ?? '—'}</dd>
                  </>
                ))}
              </dl>
            </>
          )}
        </section>
        <aside aria-label="Ownership and classification">
          <h2>Owners</h2>
          <RefLinks refs={owners.map((o) => o.owner)} field="owners" label="Owners" empty="No owners." />
          <h2>Tags</h2>
          <RefLinks refs={(dataset.tags?.tags ?? []).map((t) => t.tag)} field="tags" label="Tags" empty="No tags." />
          <h2>Glossary terms</h2>
          <RefLinks refs={(dataset.glossaryTerms?.terms ?? []).map((t) => t.term)} field="glossaryTerms" label="Glossary terms" empty="No terms." />
          <h2>Domain</h2>
          <RefLinks refs={dataset.domain ? [dataset.domain.domain] : []} field="domains" label="Domain" empty="No domain." />
        </aside>
      </div>
      <section aria-labelledby="schema-heading">
        <h2 id="schema-heading">Schema</h2>
        {dataset.schemaMetadata?.fields.length ? <SchemaTable fields={dataset.schemaMetadata.fields} /> : <p>No schema.</p>}
      </section>
      <section aria-labelledby="profile-heading">
        <h2 id="profile-heading">Profile statistics</h2>
        <ProfileChart profiles={dataset.datasetProfiles ?? []} />
      </section>
      <LineageSection urn={dataset.urn} />
      <section aria-labelledby="history-heading">
        <h2 id="history-heading">Deprecation history</h2>
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
