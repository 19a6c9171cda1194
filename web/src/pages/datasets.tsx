import { useEffect, useState } from 'preact/hooks';
import { gql } from '../api.ts';
import { DeprecateForm, undeprecate } from '../components/deprecate-form.tsx';
import { DeprecationBadge, type DeprecationView } from '../components/deprecation-badge.tsx';
import { ErrorBox } from '../components/error-box.tsx';
import { FacetSelect, type Facet } from '../components/facet-select.tsx';
import { Pager } from '../components/pager.tsx';
import { SearchField } from '../components/search-field.tsx';
import { RefLinks } from '../components/ref-links.tsx';
import { REF_FIELDS, type EntityRefView } from '../entity-ref.ts';
import { datasetHref, datasetTitle } from '../format.ts';
import { canDeprecate, type Me } from '../me.ts';
import { chosenFrom, FACET_SELECTS, orFiltersOf } from '../search-filters.ts';
import { replaceOwnAddress } from '../own-address.ts';

const SEARCH = `query datasets($input: SearchAcrossEntitiesInput!) {
  searchAcrossEntities(input: $input) {
    start count total
    searchResults { entity { urn ... on Dataset {
      name platform { name }
      properties { name description }
      status { removed }
      deprecation { deprecated note decommissionTime }
      ownership { owners { owner { ...ref } } }
      tags { tags { tag { ...ref } } }
    } } }
    facets { field displayName aggregations { value count entity { ...ref } } }
  }
}
${REF_FIELDS}`;

interface Row {
  urn: string;
  name: string;
  platform: { name: string };
  properties: { name: string | null; description: string | null } | null;
  status: { removed: boolean } | null;
  deprecation: DeprecationView | null;
  ownership: { owners: Array<{ owner: EntityRefView }> | null } | null;
  tags: { tags: Array<{ tag: EntityRefView }> | null } | null;
}

interface SearchResult {
  total: number;
  searchResults: Array<{ entity: Row }>;
  facets: Facet[];
}

/** The search pages' facets, and Almanac's deprecation state: ACTIVE, DEPRECATED or OVERDUE (past its decommission date). */
const FACETS: ReadonlyArray<readonly [field: string, label: string]> = [...FACET_SELECTS, ['deprecationState', 'Deprecation']];

const PAGE = 25;

/** The datasets list: search, facets (platform, owner, tag, term, domain, deprecated), soft-deleted on request; deprecate one or many. */
export function DatasetsPage({ me, initial }: { me: Me | null; initial: URLSearchParams }) {
  const [query, setQuery] = useState(initial.get('query') ?? '');
  const [chosen, setChosen] = useState<Record<string, string>>(
    chosenFrom(
      initial,
      FACETS.map(([f]) => f),
    ),
  );
  const [deprecatedOnly, setDeprecatedOnly] = useState(initial.get('deprecated') === 'true');
  const [showRemoved, setShowRemoved] = useState(false);
  const [start, setStart] = useState(0);
  const [result, setResult] = useState<SearchResult | null>(null);
  const [selected, setSelected] = useState<Set<string>>(new Set());
  const [deprecating, setDeprecating] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const [reload, setReload] = useState(0);

  useEffect(() => {
    document.title = 'Datasets · Almanac';
  }, []);

  // The address keeps the search and filters, so Back from a dataset returns to the same list and a link can share it.
  useEffect(() => {
    const params = new URLSearchParams(Object.entries(chosen).filter(([, v]) => v));
    if (query) params.set('query', query);
    if (deprecatedOnly) params.set('deprecated', 'true');
    const qs = params.toString();
    const hash = `#/datasets${qs ? `?${qs}` : ''}`;
    replaceOwnAddress(hash, { isDefault: true });
  }, [query, chosen, deprecatedOnly]);

  useEffect(() => {
    const input = {
      types: ['DATASET'],
      query: query || '*',
      start,
      count: PAGE,
      orFilters: orFiltersOf(chosen, deprecatedOnly),
      searchFlags: { includeSoftDeleted: showRemoved },
    };
    // Typing sends one search per pause, and an answer to an older search never replaces a newer one.
    let live = true;
    const timer = setTimeout(
      () => {
        gql<{ searchAcrossEntities: SearchResult }>(SEARCH, { input })
          .then((d) => {
            if (!live) return;
            setResult(d.searchAcrossEntities);
            setError(null);
          })
          .catch((e: unknown) => live && setError(e));
      },
      query ? 200 : 0,
    );
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [query, chosen, deprecatedOnly, showRemoved, start, reload]);

  const rows = result?.searchResults.map((r) => r.entity) ?? [];
  const facet = (field: string) => result?.facets.find((f) => f.field === field);
  const deprecatedCount = facet('deprecated')?.aggregations.find((a) => a.value === 'true')?.count ?? 0;
  const editable = canDeprecate(me);
  const choose = (field: string, value: string) => {
    setChosen({ ...chosen, [field]: value });
    setStart(0);
  };
  const toggle = (urn: string) => {
    const next = new Set(selected);
    if (next.has(urn)) next.delete(urn);
    else next.add(urn);
    setSelected(next);
  };
  const done = () => {
    setDeprecating(false);
    setSelected(new Set());
    setReload(reload + 1);
  };

  return (
    <main class="wide">
      <h1>Datasets</h1>
      <SearchField
        label="Search datasets"
        placeholder="Search by name, description, field, tag…"
        value={query}
        onChange={(q) => {
          setQuery(q);
          setStart(0);
        }}
      />
      <div class="browse">
        <form class="facets" aria-label="Filters" onSubmit={(e) => e.preventDefault()}>
          {FACETS.map(([field, label]) => (
            <FacetSelect facet={facet(field)} label={label} value={chosen[field] ?? ''} onChange={(v) => choose(field, v)} />
          ))}
          <label class="inline">
            <input
              type="checkbox"
              checked={deprecatedOnly}
              onChange={(e) => {
                setDeprecatedOnly((e.target as HTMLInputElement).checked);
                setStart(0);
              }}
            />
            Deprecated only{result && !deprecatedOnly ? ` (${deprecatedCount})` : ''}
          </label>
          <label class="inline">
            <input
              type="checkbox"
              checked={showRemoved}
              onChange={(e) => {
                setShowRemoved((e.target as HTMLInputElement).checked);
                setStart(0);
              }}
            />
            Show soft-deleted
          </label>
        </form>
        <div class="results">
          {editable && selected.size > 0 && (
            <div class="toolbar selection">
              <span>{selected.size} selected</span>
              <button class="primary" onClick={() => setDeprecating(true)}>
                Deprecate selected
              </button>
              <button onClick={() => undeprecate([...selected]).then(done, setError)}>Undeprecate selected</button>
            </div>
          )}
          {deprecating && <DeprecateForm urns={[...selected]} onDone={done} onCancel={() => setDeprecating(false)} />}
          <ErrorBox error={error} />
          <table class="datasets">
            <thead>
              <tr>
                {editable && (
                  <th scope="col">
                    <span class="sr-only">Select</span>
                  </th>
                )}
                <th scope="col">Name</th>
                <th scope="col">Platform</th>
                <th scope="col" class="secondary">
                  Description
                </th>
                <th scope="col" class="secondary">
                  Owners
                </th>
                <th scope="col" class="secondary">
                  Tags
                </th>
                <th scope="col">Status</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((r) => (
                <tr data-urn={r.urn} class={r.status?.removed ? 'removed' : undefined}>
                  {editable && (
                    <td>
                      <input type="checkbox" aria-label={`Select ${datasetTitle(r)}`} checked={selected.has(r.urn)} onChange={() => toggle(r.urn)} />
                    </td>
                  )}
                  <td class="name">
                    <a href={datasetHref(r.urn)}>{datasetTitle(r)}</a>
                    {datasetTitle(r) !== r.name && <div class="muted small">{r.name}</div>}
                  </td>
                  <td>{r.platform.name}</td>
                  <td class="secondary description">{r.properties?.description ?? ''}</td>
                  <td class="secondary">
                    <RefLinks refs={(r.ownership?.owners ?? []).map((o) => o.owner)} field="owners" label={`Owners of ${datasetTitle(r)}`} />
                  </td>
                  <td class="secondary">
                    <RefLinks refs={(r.tags?.tags ?? []).map((t) => t.tag)} field="tags" label={`Tags of ${datasetTitle(r)}`} />
                  </td>
                  <td>
                    {r.status?.removed && <span class="badge badge-removed">Soft-deleted</span>}
                    <DeprecationBadge deprecation={r.deprecation} countdown />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
          {result && <Pager start={start} size={PAGE} total={result.total} none="No datasets" onStart={setStart} />}
        </div>
      </div>
    </main>
  );
}
