import { useEffect } from 'preact/hooks';
import { gql } from '../api.ts';
import { asList, asString, asStrings, fetchAspects, type AspectValue } from '../aspects.ts';
import { ChangeHistory } from '../components/change-history.tsx';
import { CurationAside } from '../components/curation-aside.tsx';
import { DeprecationBadge, type DeprecationView } from '../components/deprecation-badge.tsx';
import { DescriptionEditor } from '../components/description-editor.tsx';
import { ErrorBox } from '../components/error-box.tsx';
import { LoadFailed, Loading, NotFound } from '../components/page-states.tsx';
import * as curation from '../curation.ts';
import { editsOf, NO_EDITS, PRIVILEGES_FIELDS, type EditPrivileges } from '../curation.ts';
import { annotationsOf, descriptionOf, referencedUrns } from '../editable-metadata.ts';
import { entityHref, lineageHref, LINEAGE_TYPES, singular } from '../entity-kinds.ts';
import { REF_FIELDS, refName, type EntityRefView } from '../entity-ref.ts';
import { entityRefs } from '../names.ts';
import { useLoaded } from '../use-loaded.ts';
import { useMutations } from '../use-mutations.ts';
import { searchHref } from './search.tsx';

const QUERY = `query entityPage($urn: String!) {
  entity(urn: $urn) {
    ...ref
    ... on Dashboard { platform { name } deprecation { deprecated note decommissionTime } privileges { ...edits } }
    ... on Chart { platform { name } deprecation { deprecated note decommissionTime } privileges { ...edits } }
    ... on DataFlow { platform { name } deprecation { deprecated note decommissionTime } privileges { ...edits } }
    ... on DataJob { jobPlatform: platform { name } deprecation { deprecated note decommissionTime } privileges { ...edits } }
    ... on Container { deprecation { deprecated note decommissionTime } privileges { ...edits } }
    ... on GlossaryTerm { deprecation { deprecated note decommissionTime } privileges { ...edits } }
    ... on GlossaryNode { privileges { ...edits } }
    ... on Domain { privileges { ...edits } }
    ... on DataProduct { privileges { ...edits } }
    ... on CorpUser { privileges { ...edits } }
    ... on CorpGroup { privileges { ...edits } }
    ... on MLModel { platform { name } deprecation { deprecated note decommissionTime } privileges { ...edits } }
  }
}
${REF_FIELDS}
${PRIVILEGES_FIELDS}`;

type EntityView = EntityRefView & {
  platform?: { name: string } | null;
  jobPlatform?: { name: string } | null;
  deprecation?: DeprecationView | null;
  privileges?: Partial<EditPrivileges> | null;
};

/** The types people curate (owners, tags, terms, domain) through DataHub's mutations, on this page. */
const CURATED = new Set(['DASHBOARD', 'CHART', 'DATA_FLOW', 'DATA_JOB', 'CONTAINER', 'GLOSSARY_TERM', 'DATA_PRODUCT', 'MLMODEL', 'DOMAIN']);

/** Where to find what uses this tag, term, domain, owner or container: the search page filtered by it. */
const USED_BY: Readonly<Record<string, readonly [field: string, label: string]>> = {
  TAG: ['tags', 'Everything tagged with it'],
  GLOSSARY_TERM: ['glossaryTerms', 'Everything it classifies'],
  DOMAIN: ['domains', 'Everything in this domain'],
  CORP_USER: ['owners', 'Everything they own'],
  CORP_GROUP: ['owners', 'Everything it owns'],
  CONTAINER: ['container', 'Everything inside it'],
};

/** Related entities each type's aspects name, with what to call them. */
function relatedOf(type: string, urn: string, a: Readonly<Record<string, AspectValue>>): Array<readonly [label: string, urns: string[]]> {
  const edges = (v: unknown) => asList(v).flatMap((e) => asString(e.destinationUrn) ?? []);
  const lists: Array<readonly [string, string[]]> = [];
  if (type === 'DASHBOARD') {
    lists.push(['Charts', [...asStrings(a.dashboardInfo?.charts), ...edges(a.dashboardInfo?.chartEdges)]]);
    lists.push(['Datasets', [...asStrings(a.dashboardInfo?.datasets), ...edges(a.dashboardInfo?.datasetEdges)]]);
  }
  if (type === 'CHART') lists.push(['Reads from', [...asStrings(a.chartInfo?.inputs), ...edges(a.chartInfo?.inputEdges)]]);
  if (type === 'DATA_JOB') {
    const flow = /^urn:li:dataJob:\((urn:li:dataFlow:\(.*\)),[^,]*\)$/.exec(urn)?.[1];
    if (flow) lists.push(['Pipeline', [flow]]);
    lists.push(['Reads', [...asStrings(a.dataJobInputOutput?.inputDatasets), ...edges(a.dataJobInputOutput?.inputDatasetEdges)]]);
    lists.push(['Writes', [...asStrings(a.dataJobInputOutput?.outputDatasets), ...edges(a.dataJobInputOutput?.outputDatasetEdges)]]);
  }
  if (type === 'CORP_USER') lists.push(['Groups', asStrings(a.groupMembership?.groups)]);
  if (type === 'GLOSSARY_TERM')
    lists.push(['Term group', asString(a.glossaryTermInfo?.parentNode) ? [asString(a.glossaryTermInfo?.parentNode)!] : []]);
  const parent = asString(a.container?.container);
  if (parent) lists.push(['Inside', [parent]]);
  return lists.filter(([, urns]) => urns.length > 0).map(([label, urns]) => [label, [...new Set(urns)]] as const);
}

/** The plain facts worth a line: a person's email and title, a term's source, a page's external link, ... */
function factsOf(a: Readonly<Record<string, AspectValue>>): Array<readonly [string, string]> {
  const facts: Array<readonly [string, string]> = [];
  const user = a.corpUserInfo ?? a.corpUserEditableInfo;
  if (user) {
    for (const [k, label] of [
      ['email', 'Email'],
      ['title', 'Title'],
      ['departmentName', 'Department'],
    ] as const)
      if (asString(user[k])) facts.push([label, asString(user[k])!]);
  }
  if (asString(a.glossaryTermInfo?.termSource)) facts.push(['Source', asString(a.glossaryTermInfo?.termSource)!]);
  for (const [name, v] of Object.entries(a))
    if (/(Info|Properties)$/.test(name) && asString(v.externalUrl)) facts.push(['External link', asString(v.externalUrl)!]);
  return facts;
}

/** Custom properties, from whichever of the entity's aspects holds them. */
function customOf(a: Readonly<Record<string, AspectValue>>): Array<[string, string]> {
  for (const v of Object.values(a)) {
    const c = v.customProperties;
    if (c && typeof c === 'object' && !Array.isArray(c))
      return Object.entries(c as Record<string, unknown>)
        .map(([k, x]) => [k, String(x)] as [string, string])
        .sort();
  }
  return [];
}

interface Loaded {
  entity: EntityView | null;
  aspects: Record<string, AspectValue> | null;
  names: Map<string, EntityRefView>;
}

async function load(urn: string): Promise<Loaded> {
  const [{ entity }, aspects] = await Promise.all([gql<{ entity: EntityView | null }>(QUERY, { urn }), fetchAspects(urn)]);
  const related = entity && aspects ? relatedOf(entity.type, urn, aspects).flatMap(([, urns]) => urns) : [];
  return { entity, aspects, names: await entityRefs([...referencedUrns(aspects ?? {}), ...related]) };
}

/**
 * Any entity other than a dataset (dashboards, charts, pipelines, tasks, containers, glossary terms, tags, domains,
 * users, groups, ...): what is stored for it, what it links to, its lineage where it has one, and curation of what
 * people curate on it. Its change history is a tab (#/entity/<urn>?tab=history).
 */
export function EntityPage({ urn, tab }: { urn: string; tab: string }) {
  const { error, reload, run } = useMutations();

  const { value: loaded, error: loadError } = useLoaded(() => load(urn), [urn, reload]);
  const entity = loaded?.entity;
  useEffect(() => {
    if (entity) document.title = `${refName(entity)} · Almanac`;
  }, [entity]);

  if (loadError && !loaded) return <LoadFailed error={loadError} what="entity" />;
  if (!loaded) return <Loading />;
  if (!entity || !loaded.aspects) return <NotFound what={`Nothing is stored for ${urn}.`} />;

  const aspects = loaded.aspects;
  // What this caller may change on it, as the server decides it (roles and policies on this entity).
  const privileges = CURATED.has(entity.type) ? editsOf(entity.privileges) : NO_EDITS;
  const annotations = annotationsOf(aspects, loaded.names);
  const platform = entity.platform?.name ?? entity.jobPlatform?.name;
  const custom = customOf(aspects);
  const facts = factsOf(aspects);
  const usedBy = USED_BY[entity.type];
  const base = entityHref(urn);
  return (
    <main>
      <p class="crumbs">
        <a href={searchHref({ type: entity.type })}>{singular(entity.type)}</a>
        {platform ? ` / ${platform}` : ''}
      </p>
      <h1>
        {refName(entity)} <span class="badge badge-type">{singular(entity.type)}</span> <DeprecationBadge deprecation={entity.deprecation ?? null} />
        {aspects.status?.removed === true && <span class="badge badge-removed">Soft-deleted</span>}
      </h1>
      <p class="urn">{urn}</p>
      <nav class="tabs" aria-label="Entity views">
        <a href={base} aria-current={tab !== 'history' ? 'page' : undefined}>
          Overview
        </a>
        <a href={`${base}?tab=history`} aria-current={tab === 'history' ? 'page' : undefined}>
          Change history
        </a>
        {LINEAGE_TYPES.includes(entity.type) && <a href={lineageHref(urn)}>Lineage graph</a>}
      </nav>
      <ErrorBox error={error} />
      {tab === 'history' ? (
        <ChangeHistory urn={urn} reload={reload} />
      ) : (
        <>
          {entity.deprecation?.deprecated && (
            <section class="banner" role="status" aria-label="Deprecation">
              <strong>This {singular(entity.type).toLowerCase()} is deprecated.</strong> {entity.deprecation.note}
            </section>
          )}
          <div class="about">
            <section aria-labelledby="about-heading">
              <h2 id="about-heading">About</h2>
              <DescriptionEditor
                text={descriptionOf(aspects)}
                label="description"
                editable={privileges.canEditDescription}
                onSave={(text) => run(() => curation.updateDescription({ urn }, text))}
              />
              {facts.length > 0 && (
                <dl class="props" aria-label="Details">
                  {facts.map(([k, v]) => (
                    <>
                      <dt>{k}</dt>
                      <dd>{/^https?:/.test(v) ? <a href={v}>{v}</a> : v}</dd>
                    </>
                  ))}
                </dl>
              )}
              {custom.length > 0 && (
                <>
                  <h3>Custom properties</h3>
                  <dl class="props" aria-label="Custom properties">
                    {custom.map(([k, v]) => (
                      <>
                        <dt>{k}</dt>
                        <dd>{v}</dd>
                      </>
                    ))}
                  </dl>
                </>
              )}
              {relatedOf(entity.type, urn, aspects).map(([label, urns]) => (
                <>
                  <h3>{label}</h3>
                  <ul class="related" aria-label={label}>
                    {urns.map((u) => (
                      <li>
                        <a href={entityHref(u)}>{refName(loaded.names.get(u), u)}</a>
                      </li>
                    ))}
                  </ul>
                </>
              ))}
              {usedBy && (
                <p>
                  <a href={searchHref({ [usedBy[0]]: urn })}>{usedBy[1]}</a>
                </p>
              )}
            </section>
            <CurationAside urn={urn} {...annotations} privileges={privileges} run={run} />
          </div>
          <details class="aspects">
            <summary>Stored aspects ({Object.keys(aspects).length})</summary>
            {Object.entries(aspects)
              .sort(([a], [b]) => (a < b ? -1 : 1))
              .map(([name, value]) => (
                <>
                  <h3>{name}</h3>
                  <pre>{JSON.stringify(value, null, 2)}</pre>
                </>
              ))}
          </details>
        </>
      )}
    </main>
  );
}
