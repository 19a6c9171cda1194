import type { PortImpl } from '../compose-store.ts';
import { SearchScan } from '../search-scan.ts';
import type { AspectReads, DatasetSearchPage, DatasetSearchQuery, SearchDocuments, SearchPort } from '../store.ts';
import type { StatementCache } from './statements.ts';

/** Entity search by scan (storage/search-scan.ts), and the console's dataset listing in SQLite's SQL. */
export class SqliteSearch extends SearchScan implements PortImpl<SearchPort> {
  constructor(
    aspects: Pick<PortImpl<AspectReads>, 'listEntityUrns' | 'getEntities'>,
    documents: SearchDocuments,
    private readonly statements: StatementCache,
  ) {
    super(aspects, documents);
  }

  searchDatasets(query: DatasetSearchQuery): DatasetSearchPage {
    return searchDatasets(this.statements, query);
  }
}

/** Datasets with their platform (from the urn) and deprecated flag (from the latest deprecation aspect). */
const MATCHES = `
  WITH d AS (
    SELECT e.urn,
           substr(e.urn, 37, instr(substr(e.urn, 37), ',') - 1) AS platform,
           COALESCE(json_extract(a.metadata, '$.deprecated'), 0) AS deprecated
      FROM entities e
      LEFT JOIN aspects a ON a.urn = e.urn AND a.aspect = 'deprecation' AND a.version = 0
     WHERE e.entity_type = 'dataset' AND (@text IS NULL OR instr(lower(e.urn), lower(@text)) > 0)
  )`;
const FILTERED = `(@platform IS NULL OR platform = @platform) AND (@deprecated IS NULL OR deprecated = @deprecated)`;

function searchDatasets(statements: StatementCache, q: DatasetSearchQuery): DatasetSearchPage {
  const params = { text: q.text ?? null, platform: q.platform ?? null, deprecated: q.deprecated === undefined ? null : Number(q.deprecated) };
  const total = (statements.get(`${MATCHES} SELECT COUNT(*) AS n FROM d WHERE ${FILTERED}`).get(params) as { n: number }).n;
  const urns = (
    statements
      .get(`${MATCHES} SELECT urn FROM d WHERE ${FILTERED} ORDER BY urn LIMIT @count OFFSET @start`)
      .all({ ...params, count: q.count, start: q.start }) as Array<{
      urn: string;
    }>
  ).map((r) => r.urn);
  const facet = { text: params.text, platform: null, deprecated: null };
  const platformCounts = statements
    .get(`${MATCHES} SELECT platform AS value, COUNT(*) AS count FROM d GROUP BY platform ORDER BY count DESC, value`)
    .all(facet) as Array<{
    value: string;
    count: number;
  }>;
  const deprecatedCounts = (
    statements
      .get(`${MATCHES} SELECT deprecated AS value, COUNT(*) AS count FROM d GROUP BY deprecated ORDER BY deprecated DESC`)
      .all(facet) as Array<{
      value: number;
      count: number;
    }>
  ).map((r) => ({ value: r.value ? ('true' as const) : ('false' as const), count: r.count }));
  return { total, urns, platformCounts, deprecatedCounts };
}
