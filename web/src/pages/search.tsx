import { useEffect, useState } from 'preact/hooks';
import { gql } from '../api.ts';
import { ErrorBox } from '../components/error-box.tsx';
import { FacetSelect, type Facet } from '../components/facet-select.tsx';
import { Pager } from '../components/pager.tsx';
import { SearchField } from '../components/search-field.tsx';
import { REF_FIELDS, refName, type EntityRefView } from '../entity-ref.ts';
import { entityHref, singular, TYPE_LABELS, typeLabel } from '../entity-kinds.ts';
import { formatCount } from '../format.ts';
import { chosenFrom, FACET_SELECTS, orFiltersOf } from '../search-filters.ts';
import { replaceOwnAddress } from '../own-address.ts';

/** What a result shows besides its name: where it lives, what it says about itself, whether it is deprecated. */
const SUMMARY_FIELDS = `fragment summary on Entity {
  ... on Dataset { platform { name } properties { description } deprecation { deprecated } }
  ... on Dashboard { platform { name } properties { description } deprecation { deprecated } }
  ... on Chart { platform { name } properties { description } deprecation { deprecated } }
  ... on DataFlow { platform { name } properties { description } deprecation { deprecated } }
  ... on DataJob { jobPlatform: platform { name } properties { description } deprecation { deprecated } }
  ... on Container { properties { description } deprecation { deprecated } }
  ... on GlossaryTerm { properties { description } deprecation { deprecated } }
  ... on Tag { properties { description } }
  ... on Domain { properties { description } }
  ... on CorpUser { properties { email title } }
  ... on CorpGroup { properties { description } }
}`;

const SEARCH = `query searchAll($input: SearchAcrossEntitiesInput!, $types: AggregateAcrossEntitiesInput!) {
  searchAcrossEntities(input: $input) {
    start count total
    searchResults { entity { ...ref ...summary } }
    facets { field displayName aggregations { value count entity { ...ref } } }
  }
  aggregateAcrossEntities(input: $types) { facets { field aggregations { value count } } }
}
${REF_FIELDS}
${SUMMARY_FIELDS}`;

type Hit = EntityRefView & {
  platform?: { name: string } | null;
  jobPlatform?: { name: string } | null;
  properties?: {
    description?: string | null;
    email?: string | null;
    title?: string | null;
    name?: string | null;
    displayName?: string | null;
  } | null;
  deprecation?: { deprecated: boolean } | null;
};

interface Answer {
  searchAcrossEntities: { total: number; searchResults: Array<{ entity: Hit }>; facets: Facet[] };
  aggregateAcrossEntities: { facets: Array<{ field: string; aggregations: Array<{ value: string; count: number }> }> };
}

/** Every filter the address may carry: the selects', and a container's contents (linked from its page). */
const FILTERS: readonly string[] = [...FACET_SELECTS.map(([f]) => f), 'container'];

const PAGE = 20;

/** The search page's address: the query, the type and every filter, so a link shares the same results. */
export const searchHref = (params: Record<string, string>): string => {
  const qs = new URLSearchParams(Object.entries(params).filter(([, v]) => v)).toString();
  return `#/search${qs ? `?${qs}` : ''}`;
};

/** Search across every entity type the catalog holds: one box, a bar of types with their counts, facets, pages. */
export function SearchPage({ initial }: { initial: URLSearchParams }) {
  const [query, setQuery] = useState(initial.get('query') ?? '');
  const [type, setType] = useState(initial.get('type') ?? '');
  const [chosen, setChosen] = useState<Record<string, string>>(chosenFrom(initial, FILTERS));
  const [deprecatedOnly, setDeprecatedOnly] = useState(initial.get('deprecated') === 'true');
  const [start, setStart] = useState(Number(initial.get('start') ?? 0) || 0);
  const [answer, setAnswer] = useState<Answer | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [loading, setLoading] = useState(true);

  useEffect(() => {
    document.title = `${query ? `${query} · ` : ''}Search · Almanac`;
  }, [query]);

  useEffect(() => {
    const hash = searchHref({ query, type, ...chosen, deprecated: deprecatedOnly ? 'true' : '', start: start ? String(start) : '' });
    replaceOwnAddress(hash);
  }, [query, type, chosen, deprecatedOnly, start]);

  useEffect(() => {
    const orFilters = orFiltersOf(chosen, deprecatedOnly);
    const text = query.trim() || '*';
    let live = true;
    setLoading(true);
    const timer = setTimeout(
      () => {
        gql<Answer>(SEARCH, {
          input: { query: text, start, count: PAGE, orFilters, ...(type ? { types: [type] } : {}) },
          // The type bar counts every type under the same query and filters, whichever type is chosen.
          types: { query: text, orFilters, facets: ['_entityType'] },
        })
          .then((d) => {
            if (!live) return;
            setAnswer(d);
            setError(null);
          })
          .catch((e: unknown) => live && setError(e))
          .finally(() => live && setLoading(false));
      },
      query ? 200 : 0,
    );
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [query, type, chosen, deprecatedOnly, start]);

  const result = answer?.searchAcrossEntities;
  const facet = (field: string) => result?.facets.find((f) => f.field === field);
  const typeCounts = answer?.aggregateAcrossEntities.facets.find((f) => f.field === '_entityType')?.aggregations ?? [];
  const allCount = typeCounts.reduce((n, a) => n + a.count, 0);
  const order = Object.keys(TYPE_LABELS);
  const types = [...typeCounts].sort((a, b) => order.indexOf(a.value) - order.indexOf(b.value));
  const restart = () => setStart(0);
  const choose = (field: string, value: string) => {
    setChosen({ ...chosen, [field]: value });
    restart();
  };
  const chooseType = (value: string) => {
    setType(value);
    restart();
  };

  return (
    <main class="wide">
      <h1>Search</h1>
      <SearchField
        label="Search everything"
        placeholder="Datasets, dashboards, charts, pipelines, people, terms…"
        value={query}
        onChange={(q) => {
          setQuery(q);
          restart();
        }}
      />
      <nav class="type-bar" aria-label="Entity types">
        <button aria-pressed={type === ''} onClick={() => chooseType('')}>
          All <span class="count">{formatCount(allCount)}</span>
        </button>
        {types.map((t) => (
          <button aria-pressed={type === t.value} onClick={() => chooseType(t.value)}>
            {typeLabel(t.value)} <span class="count">{formatCount(t.count)}</span>
          </button>
        ))}
      </nav>
      <div class="browse">
        <form class="facets" aria-label="Filters" onSubmit={(e) => e.preventDefault()}>
          {FACET_SELECTS.map(([field, label]) => (
            <FacetSelect facet={facet(field)} label={label} value={chosen[field] ?? ''} onChange={(v) => choose(field, v)} />
          ))}
          {chosen.container && (
            <p>
              Inside one container{' '}
              <button type="button" onClick={() => choose('container', '')}>
                Clear
              </button>
            </p>
          )}
          <label class="inline">
            <input
              type="checkbox"
              checked={deprecatedOnly}
              onChange={(e) => {
                setDeprecatedOnly((e.target as HTMLInputElement).checked);
                restart();
              }}
            />
            Deprecated only
          </label>
        </form>
        <div class="results" aria-busy={loading}>
          <ErrorBox error={error} />
          {error && <p class="muted">Check the query and filters, or try again: the search did not run.</p>}
          {result && result.total === 0 && !loading && (
            <p class="empty">
              Nothing matches{query ? ` “${query}”` : ''}
              {type ? ` among ${typeLabel(type).toLowerCase()}` : ''}. Try fewer words, another type or fewer filters.
            </p>
          )}
          <ol class="search-results" aria-label="Results">
            {result?.searchResults.map(({ entity: e }) => {
              const platform = e.platform?.name ?? e.jobPlatform?.name;
              const about = e.properties?.description ?? [e.properties?.title, e.properties?.email].filter(Boolean).join(' · ');
              return (
                <li data-urn={e.urn}>
                  <a href={entityHref(e.urn)} class="name">
                    {refName(e)}
                  </a>{' '}
                  <span class="badge badge-type">{singular(e.type)}</span>
                  {platform && <span class="muted"> {platform}</span>}
                  {e.deprecation?.deprecated && <span class="badge badge-deprecated">Deprecated</span>}
                  {about && <p class="muted small">{about}</p>}
                </li>
              );
            })}
          </ol>
          {result && result.total > 0 && <Pager start={start} size={PAGE} total={result.total} none="" onStart={setStart} />}
        </div>
      </div>
    </main>
  );
}
