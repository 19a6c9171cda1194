import { useEffect, useState } from 'preact/hooks';
import { gql } from '../api.ts';
import { DeprecateForm, undeprecate } from '../components/deprecate-form.tsx';
import { decommissionCountdown, DeprecationBadge, type DeprecationView } from '../components/deprecation-badge.tsx';
import { ErrorBox } from '../components/error-box.tsx';
import { LoadFailed, Loading, NotFound } from '../components/page-states.tsx';
import { DownstreamSection } from '../components/impact-list.tsx';
import { LineageSection } from '../components/lineage.tsx';
import { ProfileChart, type ProfileView } from '../components/profile-chart.tsx';
import { SchemaTable, type FieldActions, type FieldView } from '../components/schema-table.tsx';
import { ChangeHistory } from '../components/change-history.tsx';
import { CurationAside } from '../components/curation-aside.tsx';
import { DescriptionEditor } from '../components/description-editor.tsx';
import { fetchAspects, type AspectValue } from '../aspects.ts';
import * as curation from '../curation.ts';
import { editsOf, ownershipTypeUrn, PRIVILEGES_FIELDS, type EditPrivileges } from '../curation.ts';
import { fieldEdits, referencedUrns } from '../editable-metadata.ts';
import { lineageHref } from '../entity-kinds.ts';
import { REF_FIELDS, refName, type EntityRefView } from '../entity-ref.ts';
import { datasetHref, datasetTitle, formatDate, formatDateTime } from '../format.ts';
import { entityRefs } from '../names.ts';
import { useLoaded } from '../use-loaded.ts';
import { useMutations } from '../use-mutations.ts';

const QUERY = `query dataset($urn: String!) {
  dataset(urn: $urn) {
    urn name platform { name }
    status { removed }
    properties { name description customProperties { key value } }
    ownership { owners { owner { ...ref } ownershipType { urn info { name } } } }
    tags { tags { tag { ...ref } } }
    glossaryTerms { terms { term { ...ref } } }
    domain { domain { ...ref } }
    deprecation { deprecated decommissionTime note actor actorEntity { ...ref } replacement { ...ref } }
    schemaMetadata { fields {
      fieldPath type nativeDataType description
      tags { tags { tag { ...ref } } } glossaryTerms { terms { term { ...ref } } }
      deprecation { deprecated note decommissionTime }
    } }
    datasetProfiles(limit: 100) { timestampMillis rowCount fieldProfiles { fieldPath nullCount nullProportion } }
    deprecationHistory(limit: 50) { version deprecated note decommissionTime replacement actor time }
    deprecatedUpstreams(depth: 3) { urn degree state note entity { ...ref } }
    privileges { ...edits }
  }
}
${REF_FIELDS}
${PRIVILEGES_FIELDS}`;

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
  ownership: { owners: Array<{ owner: EntityRefView; ownershipType: { urn: string; info: { name: string } | null } | null }> | null } | null;
  tags: { tags: Array<{ tag: EntityRefView }> | null } | null;
  glossaryTerms: { terms: Array<{ term: EntityRefView }> | null } | null;
  domain: { domain: EntityRefView } | null;
  deprecation: (DeprecationView & { actor: string | null; actorEntity: EntityRefView | null; replacement: EntityRefView | null }) | null;
  schemaMetadata: { fields: FieldView[] } | null;
  datasetProfiles: ProfileView[] | null;
  deprecationHistory: HistoryEntry[];
  privileges: Partial<EditPrivileges> | null;
  deprecatedUpstreams: Array<{ urn: string; degree: number; state: 'DEPRECATED' | 'OVERDUE'; note: string | null; entity: EntityRefView | null }>;
}

interface Loaded {
  dataset: DatasetView | null;
  aspects: Record<string, AspectValue>;
  names: Map<string, EntityRefView>;
}

/** A dataset's GraphQL view, its stored aspects (what people edited) and the names of what those edits refer to. */
async function load(urn: string): Promise<Loaded> {
  const [{ dataset }, aspects] = await Promise.all([gql<{ dataset: DatasetView | null }>(QUERY, { urn }), fetchAspects(urn)]);
  const stored = aspects ?? {};
  return { dataset, aspects: stored, names: await entityRefs(referencedUrns(stored)) };
}

const TABS: ReadonlyArray<readonly [tab: string, label: string]> = [
  ['overview', 'Overview'],
  ['history', 'Change history'],
];

/**
 * One dataset: what it is, who owns it, how it is classified, its schema, profiles, lineage and deprecation; its
 * change history on a tab of its own (#/dataset/<urn>?tab=history). What the caller may change is editable in place.
 */
export function DatasetPage({ urn, tab }: { urn: string; tab: string }) {
  const [editing, setEditing] = useState(false);
  const { error, setError, reload, run } = useMutations();

  const { value: loaded, error: loadError } = useLoaded(() => load(urn), [urn, reload]);

  const dataset = loaded?.dataset;
  useEffect(() => {
    if (dataset) document.title = `${datasetTitle(dataset)} · Almanac`;
  }, [dataset]);

  if (loadError && loaded === undefined) return <LoadFailed error={loadError} what="dataset" />;
  if (!loaded || dataset === undefined) return <Loading />;
  if (dataset === null) return <NotFound what={`No dataset ${urn}.`} />;

  const dep = dataset.deprecation;
  // What this caller may change on this dataset, as the server decides it (roles and policies on the dataset).
  const privileges = editsOf(dataset.privileges);
  // After a deprecation change: close the form and read the page again (a write that already happened).
  const refresh = () => {
    setEditing(false);
    void run(async () => undefined);
  };
  const owners = (dataset.ownership?.owners ?? []).map((o) => ({ owner: o.owner, typeUrn: ownershipTypeUrn(o.ownershipType?.urn, null) }));
  // Sorted by key: the stored map's order is not kept the same by every backend.
  const custom = [...(dataset.properties?.customProperties ?? [])].sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  const description = (loaded.aspects.editableDatasetProperties?.description as string | undefined) || dataset.properties?.description || null;
  const fieldActions: FieldActions = {
    privileges,
    edits: fieldEdits(loaded.aspects, loaded.names),
    describe: (t, text) => run(() => curation.updateDescription(t, text)),
    addTag: (t, u) => run(() => curation.addTag(t, u)),
    removeTag: (t, u) => run(() => curation.removeTag(t, u)),
    addTerm: (t, u) => run(() => curation.addTerm(t, u)),
    removeTerm: (t, u) => run(() => curation.removeTerm(t, u)),
  };
  const tabHref = (t: string) => `${datasetHref(dataset.urn)}${t === 'overview' ? '' : `?tab=${t}`}`;
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
      <nav class="tabs" aria-label="Dataset views">
        {TABS.map(([t, label]) => (
          <a href={tabHref(t)} aria-current={tab === t ? 'page' : undefined}>
            {label}
          </a>
        ))}
        <a href={lineageHref(dataset.urn)}>Lineage graph</a>
      </nav>
      <ErrorBox error={error} />
      {tab === 'history' ? (
        <ChangeHistory urn={dataset.urn} reload={reload} />
      ) : (
        <>
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
                    <a href={datasetHref(u.urn)}>{refName(u.entity, u.urn)}</a> is{' '}
                    {u.state === 'OVERDUE' ? 'past its decommission date' : 'deprecated'}
                    {u.degree > 1 ? ` (${u.degree} hops upstream)` : ''}
                    {u.note ? `: ${u.note}` : ''}
                  </li>
                ))}
              </ul>
            </section>
          )}
          {dep?.deprecated && <DownstreamSection urn={dataset.urn} />}
          {privileges.canEditDeprecation && (
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
          <div class="about">
            <section aria-labelledby="about-heading">
              <h2 id="about-heading">About</h2>
              <DescriptionEditor
                text={description}
                label="description"
                editable={privileges.canEditDescription}
                onSave={(text) => run(() => curation.updateDescription({ urn: dataset.urn }, text))}
              />
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
            <CurationAside
              urn={dataset.urn}
              owners={owners}
              tags={(dataset.tags?.tags ?? []).map((t) => t.tag)}
              terms={(dataset.glossaryTerms?.terms ?? []).map((t) => t.term)}
              domain={dataset.domain?.domain ?? null}
              privileges={privileges}
              run={run}
            />
          </div>
          <section aria-labelledby="schema-heading">
            <h2 id="schema-heading">Schema</h2>
            {dataset.schemaMetadata?.fields.length ? (
              <SchemaTable urn={dataset.urn} fields={dataset.schemaMetadata.fields} actions={fieldActions} />
            ) : (
              <p>No schema.</p>
            )}
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
        </>
      )}
    </main>
  );
}
