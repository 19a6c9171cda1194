import type pg from 'pg';
import type { PortImpl } from '../compose-store.ts';
import { SearchScan } from '../search-scan.ts';
import type { AspectReads, DatasetSearchPage, DatasetSearchQuery, SearchDocuments, SearchPort } from '../store.ts';

/** Entity search by scan (storage/search-scan.ts), and the console's dataset listing in PostgreSQL's SQL. */
export class PostgresSearch extends SearchScan implements PortImpl<SearchPort> {
  constructor(
    aspects: Pick<PortImpl<AspectReads>, 'listEntityUrns' | 'getEntities'>,
    documents: SearchDocuments,
    private readonly pool: pg.Pool,
  ) {
    super(aspects, documents);
  }

  searchDatasets(query: DatasetSearchQuery): Promise<DatasetSearchPage> {
    return searchDatasets(this.pool, query);
  }
}

/** Datasets with their platform (from the urn) and deprecated flag (from the latest deprecation aspect). */
const MATCHES = `
  WITH d AS (
    SELECT e.urn,
           split_part(substr(e.urn, 37), ',', 1) AS platform,
           COALESCE((a.metadata->>'deprecated')::boolean, false) AS deprecated
      FROM entities e
      LEFT JOIN aspects a ON a.urn = e.urn AND a.aspect = 'deprecation' AND a.version = 0
     WHERE e.entity_type = 'dataset' AND ($1::text IS NULL OR strpos(lower(e.urn), lower($1)) > 0)
  )`;
const FILTERED = `($2::text IS NULL OR platform = $2) AND ($3::boolean IS NULL OR deprecated = $3)`;

async function searchDatasets(pool: pg.Pool, q: DatasetSearchQuery): Promise<DatasetSearchPage> {
  const params = [q.text ?? null, q.platform ?? null, q.deprecated ?? null];
  const [total, page, platforms, deprecated] = await Promise.all([
    pool.query<{ n: number }>(`${MATCHES} SELECT COUNT(*)::bigint AS n FROM d WHERE ${FILTERED}`, params),
    pool.query<{ urn: string }>(`${MATCHES} SELECT urn FROM d WHERE ${FILTERED} ORDER BY urn LIMIT $4 OFFSET $5`, [...params, q.count, q.start]),
    pool.query<{ value: string; count: number }>(
      `${MATCHES} SELECT platform AS value, COUNT(*)::bigint AS count FROM d GROUP BY platform ORDER BY count DESC, value`,
      [params[0]],
    ),
    pool.query<{ value: boolean; count: number }>(
      `${MATCHES} SELECT deprecated AS value, COUNT(*)::bigint AS count FROM d GROUP BY deprecated ORDER BY deprecated DESC`,
      [params[0]],
    ),
  ]);
  return {
    total: total.rows[0]!.n,
    urns: page.rows.map((r) => r.urn),
    platformCounts: platforms.rows,
    deprecatedCounts: deprecated.rows.map((r) => ({ value: r.value ? ('true' as const) : ('false' as const), count: r.count })),
  };
}
