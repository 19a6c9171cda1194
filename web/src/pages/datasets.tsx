import { useEffect, useState } from 'preact/hooks';
import { gql } from '../api.ts';
import { DeprecateForm, undeprecate } from '../components/deprecate-form.tsx';
import { DeprecationBadge, type DeprecationView } from '../components/deprecation-badge.tsx';
import { ErrorBox } from '../components/error-box.tsx';
import { datasetHref, formatCount } from '../format.ts';
import { canDeprecate, type Me } from '../me.ts';

const SEARCH = `query search($input: SearchInput!) {
  search(input: $input) {
    start count total
    searchResults { entity { urn ... on Dataset { name platform { name } deprecation { deprecated note decommissionTime } } } }
    facets { field aggregations { value count } }
  }
}`;

interface Row {
  urn: string;
  name: string;
  platform: { name: string };
  deprecation: DeprecationView | null;
}

interface SearchResult {
  total: number;
  searchResults: Array<{ entity: Row }>;
  facets: Array<{ field: string; aggregations: Array<{ value: string; count: number }> }>;
}

const PAGE = 25;

/** The datasets list: search by name, filter by platform and deprecation, deprecate one or many. */
export function DatasetsPage({ me }: { me: Me | null }) {
  const [query, setQuery] = useState('');
  const [platform, setPlatform] = useState('');
  const [deprecatedOnly, setDeprecatedOnly] = useState(false);
  const [start, setStart] = useState(0);
  const [result, setResult] = useState<SearchResult | null>(null);
  const [selected, setSelected] = useState<Set<string>>(new Set());
  const [deprecating, setDeprecating] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const [reload, setReload] = useState(0);

  useEffect(() => {
    const filters = [
      ...(platform ? [{ field: 'platform', values: [platform] }] : []),
      ...(deprecatedOnly ? [{ field: 'deprecated', values: ['true'] }] : []),
    ];
    gql<{ search: SearchResult }>(SEARCH, { input: { type: 'DATASET', query: query || '*', start, count: PAGE, filters } })
      .then((d) => {
        setResult(d.search);
        setError(null);
      })
      .catch(setError);
  }, [query, platform, deprecatedOnly, start, reload]);

  const rows = result?.searchResults.map((r) => r.entity) ?? [];
  const platforms = result?.facets.find((f) => f.field === 'platform')?.aggregations ?? [];
  const editable = canDeprecate(me);
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
    <main>
      <h1>Datasets</h1>
      <div class="toolbar" role="search">
        <input
          type="search"
          aria-label="Search datasets by name"
          placeholder="Search by name"
          value={query}
          onInput={(e) => {
            setQuery((e.target as HTMLInputElement).value);
            setStart(0);
          }}
        />
        <select aria-label="Platform" value={platform} onChange={(e) => setPlatform((e.target as HTMLSelectElement).value)}>
          <option value="">All platforms</option>
          {platforms.map((p) => (
            <option value={p.value}>
              {p.value} ({p.count})
            </option>
          ))}
        </select>
        <label class="inline">
          <input type="checkbox" checked={deprecatedOnly} onChange={(e) => setDeprecatedOnly((e.target as HTMLInputElement).checked)} />
          Deprecated only
        </label>
      </div>
      {editable && selected.size > 0 && (
        <div class="toolbar selection">
          <span>{selected.size} selected</span>
          <button class="danger" onClick={() => setDeprecating(true)}>
            Deprecate selected
          </button>
          <button onClick={() => undeprecate([...selected]).then(done, setError)}>Undeprecate selected</button>
        </div>
      )}
      {deprecating && <DeprecateForm urns={[...selected]} onDone={done} onCancel={() => setDeprecating(false)} />}
      <ErrorBox error={error} />
      <datalist id="replacement-options">
        {rows.map((r) => (
          <option value={r.urn} />
        ))}
      </datalist>
      <table class="datasets">
        <thead>
          <tr>
            {editable && <th scope="col"><span class="sr-only">Select</span></th>}
            <th scope="col">Name</th>
            <th scope="col">Platform</th>
            <th scope="col">Status</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((r) => (
            <tr data-urn={r.urn}>
              {editable && (
                <td>
                  <input type="checkbox" aria-label={`Select ${r.name}`} checked={selected.has(r.urn)} onChange={() => toggle(r.urn)} />
                </td>
              )}
              <td>
                <a href={datasetHref(r.urn)}>{r.name}</a>
              </td>
              <td>{r.platform.name}</td>
              <td>
                <DeprecationBadge deprecation={r.deprecation} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {result && (
        <nav class="pager" aria-label="Pages">
          <button disabled={start === 0} onClick={() => setStart(Math.max(0, start - PAGE))}>
            Previous
          </button>
          <span>
            {result.total === 0 ? 'No datasets' : `${start + 1}–${Math.min(start + PAGE, result.total)} of ${formatCount(result.total)}`}
          </span>
          <button disabled={start + PAGE >= result.total} onClick={() => setStart(start + PAGE)}>
            Next
          </button>
        </nav>
      )}
    </main>
  );
}
