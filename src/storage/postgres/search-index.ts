import type pg from 'pg';
import type { SearchEntry } from '../ports/search-index.ts';
import { searchTextRows } from '../search-rows.ts';
import type { AspectIndexer, Json, SearchIndexBuild } from '../store.ts';
import { buildState, COMPLETE, firstCursor, nextCursor, SEARCH_BUILD_KEY, type BuildCursor } from '../search-build.ts';
import { docKeysAggSql, docKeySourcesSql, typeKeySql, VALUE_KEY_FIELDS } from '../search-keys.ts';
import { facetListAggSql } from './facet-lists.ts';
import { docNamesSql, docWordsSql } from './search-docs.ts';
import { atCommit, inTransaction, type CommitPart } from './transaction.ts';

/** One aspect's entries as the column arrays `unnest` reads: exact values, and one text row per field. */
function columns(urns: readonly string[], aspects: readonly string[], entries: ReadonlyArray<readonly SearchEntry[]>) {
  const f = {
    urn: [] as string[],
    aspect: [] as string[],
    field: [] as string[],
    value: [] as string[],
    folded: [] as string[],
    num: [] as Array<number | null>,
    isName: [] as boolean[],
  };
  const t = {
    urn: [] as string[],
    aspect: [] as string[],
    field: [] as string[],
    boost: [] as number[],
    byDefault: [] as boolean[],
    words: [] as string[],
  };
  entries.forEach((list, i) => {
    for (const e of list) {
      f.urn.push(urns[i]!);
      f.aspect.push(aspects[i]!);
      f.field.push(e.field);
      f.value.push(e.value);
      f.folded.push(e.folded);
      f.num.push(e.number ?? null);
      f.isName.push(e.isName);
    }
    for (const row of searchTextRows(list)) {
      t.urn.push(urns[i]!);
      t.aspect.push(aspects[i]!);
      t.field.push(row.field);
      t.boost.push(row.boost);
      t.byDefault.push(row.byDefault);
      t.words.push(row.words);
    }
  });
  return { f, t };
}

const INSERT_FIELDS = `INSERT INTO search_fields (urn, aspect, field, value, folded, num, is_name)
  SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::float8[], $7::boolean[])`;
/** What an aspect contributed before, deleted: the urns of the rows that went returned. */
const GONE = `gone_fields AS (DELETE FROM search_fields s USING keys k WHERE s.urn = k.urn AND s.aspect = k.aspect RETURNING s.urn),
            gone_text AS (DELETE FROM search_text s USING keys k WHERE s.urn = k.urn AND s.aspect = k.aspect RETURNING s.urn),`;
/** The collector of the urns whose keys a transaction writes at its commit. */
const KEYS = {};

/**
 * Writes the keys of `urns` again (storage/search-keys.ts) from their facet rows, values of VALUE_KEY_FIELDS and
 * soft-deletion flags as the transaction leaves them, with their entity types, their lists of facet values
 * (postgres/facet-lists.ts) and their document rows (postgres/search-docs.ts: also their names and the words of their
 * text rows): the last statement before the commit, joined with the change log's (postgres/transaction.ts).
 * A tsvector, a list or a document row unchanged is not written again (its GIN entries stay). Each entity's rows and type are read by its urn
 * (a LATERAL union and a scalar subquery: seeks whatever the statistics say): joined to the list of urns, they were
 * planned as scans of `search_facets`, `search_fields` and `entities` while the tables had no statistics (a new
 * database, a bulk load before autovacuum's first ANALYZE, a server without autovacuum), a scan of each table on
 * every commit (200 entities' keys: 100 ms at 5,000 entities, growing with the tables). Planned on every call:
 * prepared while the index was small, its reads stayed scans as the tables grew, until the next ANALYZE (a rebuild
 * at a million entities fell from 4,000 to under 1,000 aspects/s).
 */
const keysPart = (urns: string[]): CommitPart => ({
  with: (name, param) => `${name('keys')} AS (
      SELECT e.urn, e.entity_type, ${docKeysAggSql('e.entity_type')} AS keys, ${facetListAggSql(`x.kind = 'f'`)} AS facets,
             COALESCE(bool_or(x.kind = 'r'), false) AS removed
        FROM (SELECT urn, (SELECT entity_type FROM entities WHERE urn = n.urn) AS entity_type FROM unnest(${param(1)}::text[]) AS n(urn)) e
        LEFT JOIN LATERAL (${docKeySourcesSql('urn = e.urn')}) x ON true
       GROUP BY e.urn, e.entity_type),
    ${name('gone')} AS (DELETE FROM search_keys s USING ${name('keys')} k WHERE s.urn = k.urn AND (k.keys IS NULL OR k.entity_type IS NULL)),
    ${name('put')} AS (INSERT INTO search_keys (urn, entity_type, keys)
        SELECT urn, entity_type, array_to_tsvector(array_append(keys, ${typeKeySql('entity_type')})) FROM ${name('keys')}
         WHERE keys IS NOT NULL AND entity_type IS NOT NULL
      ON CONFLICT (urn) DO UPDATE SET keys = excluded.keys WHERE search_keys.keys IS DISTINCT FROM excluded.keys),
    ${name('lists_gone')} AS (DELETE FROM search_facet_lists s USING ${name('keys')} k
        WHERE s.urn = k.urn AND (k.facets IS NULL OR k.entity_type IS NULL)),
    ${name('lists_put')} AS (INSERT INTO search_facet_lists (urn, facets)
        SELECT urn, facets FROM ${name('keys')} WHERE facets IS NOT NULL AND entity_type IS NOT NULL
      ON CONFLICT (urn) DO UPDATE SET facets = excluded.facets WHERE search_facet_lists.facets IS DISTINCT FROM excluded.facets),
    ${name('docs')} AS (SELECT k.urn, k.entity_type, k.removed, k.facets, ${docNamesSql('k.urn')} AS names, ${docWordsSql('k.urn')} AS words
        FROM ${name('keys')} k),
    ${name('docs_gone')} AS (DELETE FROM search_docs s USING ${name('docs')} d
        WHERE s.urn = d.urn AND (d.words IS NULL OR d.entity_type IS NULL)),
    ${name('docs_put')} AS (INSERT INTO search_docs (urn, entity_type, removed, names, facets, words)
        SELECT urn, entity_type, removed, names, facets, words FROM ${name('docs')} WHERE words IS NOT NULL AND entity_type IS NOT NULL
      ON CONFLICT (urn) DO UPDATE SET removed = excluded.removed, names = excluded.names, facets = excluded.facets, words = excluded.words
        WHERE (search_docs.removed, search_docs.names, search_docs.facets, search_docs.words)
          IS DISTINCT FROM (excluded.removed, excluded.names, excluded.facets, excluded.words))`,
  values: [urns],
  planEachTime: true,
});

/** The advisory lock class of an entity's keys ("alky"). */
const KEYS_LOCK_CLASS = 0x616c6b79;

/**
 * The keys part of a transaction's last statement, after taking each urn's keys lock until the commit: an entity's
 * keys come from every aspect's facet rows, so two transactions writing different aspects of one entity would each
 * compute them from a snapshot without the other's, and the later commit would keep a stale set. Locked first (in
 * one order, so two batches cannot deadlock on them), the last statement's snapshot holds every earlier commit.
 */
async function lockedKeysPart(c: pg.ClientBase, urns: string[]): Promise<CommitPart[]> {
  const unique = [...new Set(urns)].sort();
  await c.query(`SELECT pg_advisory_xact_lock($1, h) FROM (SELECT DISTINCT hashtext(u) AS h FROM unnest($2::text[]) AS u ORDER BY 1) s`, [
    KEYS_LOCK_CLASS,
    unique,
  ]);
  return [keysPart(unique)];
}

/** The collector of the values of VALUE_KEY_FIELDS a transaction's entries hold, written at its commit. */
const KEY_VALUES = {};

type KeyValue = readonly [field: string, value: string, folded: string, num: number | null];

/** The values of VALUE_KEY_FIELDS among the items' entries. */
const keyValuesOf = (items: ReadonlyArray<{ entries: readonly SearchEntry[] }>): KeyValue[] =>
  items.flatMap((i) => i.entries.filter((e) => VALUE_KEY_FIELDS.has(e.field)).map((e): KeyValue => [e.field, e.value, e.folded, e.number ?? null]));

/**
 * Adds values of VALUE_KEY_FIELDS to search_key_values (migration 29), the distinct values a filter on those fields
 * reads before it asks the keys, in (field, value) order: two transactions adding the same new values wait for each
 * other in one order. A value known already is left as it is, without a lock on its row (which a DO UPDATE takes even
 * to change nothing, serializing every write of a common column name), unless `refresh` (the index's build, one batch
 * at a time: a release that folds values differently gives the known values their new form, as SQLite's build does).
 */
async function writeKeyValues(c: pg.ClientBase, values: readonly KeyValue[], refresh: boolean): Promise<void> {
  if (values.length === 0) return;
  const unique = new Map(values.map((v) => [`${v[0]}\u0001${v[1]}`, v]));
  const sorted = [...unique.values()].sort((a, b) => (a[0] === b[0] ? (a[1] < b[1] ? -1 : a[1] > b[1] ? 1 : 0) : a[0] < b[0] ? -1 : 1));
  await c.query(
    `INSERT INTO search_key_values (field, value, folded, num)
       SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::float8[])
     ON CONFLICT (field, value) ${
       refresh
         ? `DO UPDATE SET folded = excluded.folded, num = excluded.num
              WHERE (search_key_values.folded, search_key_values.num) IS DISTINCT FROM (excluded.folded, excluded.num)`
         : 'DO NOTHING'
     }`,
    [sorted.map((v) => v[0]), sorted.map((v) => v[1]), sorted.map((v) => v[2]), sorted.map((v) => v[3])],
  );
}

/**
 * Flushes a transaction's values of VALUE_KEY_FIELDS (writeKeyValues) before its last statement: that statement holds
 * the change log's head, and two batches taking the head and a new value's insert in opposite orders could deadlock.
 * Collected after the keys (every transaction takes the keys' locks, then value rows), so a write waiting on a value
 * the build changed (`refresh`) holds nothing the build still needs.
 */
const keyValuesPart =
  (refresh: boolean) =>
  async (c: pg.ClientBase, values: KeyValue[]): Promise<CommitPart[]> => {
    await writeKeyValues(c, values, refresh);
    return [];
  };

/** The collector of the values a batch of the index's build gives their current folded form (writeKeyValues' `refresh`). */
const REFRESHED_VALUES = {};

const INSERT_TEXT = `INSERT INTO search_text (urn, aspect, field, boost, by_default, words)
  SELECT * FROM unnest($8::text[], $9::text[], $10::text[], $11::real[], $12::boolean[], $13::text[])`;

/**
 * The search index of the PostgreSQL adapter: what each aspect's latest value contributes to its entity's document,
 * in `search_fields` (exact values) and `search_text` (words, under a GIN index of their tsvector). Written on the
 * transaction client of the aspect's write (the relationship part calls it where it indexes the same value).
 */
export class PostgresSearchIndex {
  constructor(
    private readonly pool: pg.Pool,
    private readonly indexer: AspectIndexer,
  ) {}

  /** Replaces what one aspect contributed with `entries`, in one statement. */
  async replace(c: pg.PoolClient, urn: string, aspect: string, entries: readonly SearchEntry[]): Promise<void> {
    await this.replaceMany(c, [{ urn, aspect, entries }]);
  }

  async forgetEntity(c: pg.PoolClient, urn: string): Promise<void> {
    await c.query(
      `WITH gone AS (DELETE FROM search_fields WHERE urn = $1), gone_lists AS (DELETE FROM search_facet_lists WHERE urn = $1),
            gone_keys AS (DELETE FROM search_keys WHERE urn = $1), gone_docs AS (DELETE FROM search_docs WHERE urn = $1)
       DELETE FROM search_text WHERE urn = $1`,
      [urn],
    );
  }

  /** Where the build of the index over stored aspects stands. */
  async buildState(): Promise<SearchIndexBuild> {
    const { rows } = await this.pool.query<{ value: string }>('SELECT value FROM settings WHERE key = $1', [SEARCH_BUILD_KEY]);
    return buildState(rows[0]?.value);
  }

  /** Starts the build over from the first stored aspect, on `c` (the migration's transaction, or one of its own). */
  async restartBuild(c: pg.PoolClient): Promise<SearchIndexBuild> {
    const { rows } = await c.query<{ n: string }>('SELECT count(*) AS n FROM aspects WHERE version = 0 AND aspect = ANY($1::text[])', [
      [...this.indexer.aspects],
    ]);
    const n = Number(rows[0]!.n);
    if (n === 0) {
      await c.query('DELETE FROM settings WHERE key = $1', [SEARCH_BUILD_KEY]);
      return COMPLETE;
    }
    const value = JSON.stringify(firstCursor(n));
    await c.query('INSERT INTO settings (key, value) VALUES ($1, $2) ON CONFLICT (key) DO UPDATE SET value = excluded.value', [
      SEARCH_BUILD_KEY,
      value,
    ]);
    return buildState(value);
  }

  /**
   * Indexes the next `size` stored aspects after the build's cursor and moves it, in one transaction. The cursor's row
   * is locked first, so processes sharing the database take batches in turn; the aspects read are locked against
   * writers until the batch commits, so an aspect written meanwhile is indexed by its write or after it, never beside it.
   */
  async continueBuild(size: number): Promise<SearchIndexBuild> {
    return inTransaction(this.pool, async (c) => {
      const { rows: state } = await c.query<{ value: string }>('SELECT value FROM settings WHERE key = $1 FOR UPDATE', [SEARCH_BUILD_KEY]);
      if (state[0] === undefined) return COMPLETE;
      const cursor = JSON.parse(state[0].value) as BuildCursor;
      const { rows } = await c.query<{ urn: string; entity_type: string; aspect: string; metadata: Json }>(
        `SELECT urn, entity_type, aspect, metadata FROM aspects
          WHERE version = 0 AND aspect = ANY($1::text[]) AND (urn, aspect) > ($2, $3)
          ORDER BY urn, aspect LIMIT $4 FOR SHARE`,
        [[...this.indexer.aspects], cursor.urn, cursor.aspect, size],
      );
      const items = rows.map((r) => ({
        urn: r.urn,
        aspect: r.aspect,
        entries: this.indexer.index(r.entity_type, r.urn, r.aspect, r.metadata).search ?? [],
      }));
      await this.replaceMany(c, items);
      atCommit(c, REFRESHED_VALUES, keyValuesOf(items), keyValuesPart(true));
      const next = nextCursor(cursor, size, rows);
      if (next === undefined) {
        await c.query('DELETE FROM settings WHERE key = $1', [SEARCH_BUILD_KEY]);
        return { complete: true, done: cursor.done + rows.length, total: cursor.total };
      }
      await c.query('UPDATE settings SET value = $1 WHERE key = $2', [JSON.stringify(next), SEARCH_BUILD_KEY]);
      return { complete: false, done: next.done, total: next.total };
    });
  }

  /**
   * Replaces what each aspect contributed with its entries, all in one statement. `created`: the aspects were created
   * in this transaction, so the index holds nothing of theirs (every removal of an aspect locks its latest value and
   * removes its entries in the same transaction) and their entries are only inserted: no delete to plan, which at
   * bulk-load sizes and without fresh statistics PostgreSQL would plan as a scan of the whole table.
   */
  async replaceMany(
    c: pg.PoolClient,
    items: ReadonlyArray<{ urn: string; aspect: string; entries: readonly SearchEntry[] }>,
    created = false,
  ): Promise<void> {
    if (items.length === 0) return;
    const { f, t } = columns(
      items.map((i) => i.urn),
      items.map((i) => i.aspect),
      items.map((i) => i.entries),
    );
    // The `keys` item stays when nothing reads it (`created`): it gives $14 and $15 their types.
    const { rows } = await c.query<{ urn: string }>(
      `WITH keys AS (SELECT * FROM unnest($14::text[], $15::text[]) AS k(urn, aspect)),
            ${created ? '' : GONE}
            fields AS (${INSERT_FIELDS}),
            text AS (${INSERT_TEXT})
       ${created ? 'SELECT NULL::text AS urn WHERE false' : 'SELECT urn FROM gone_fields UNION SELECT urn FROM gone_text'}`,
      [
        f.urn,
        f.aspect,
        f.field,
        f.value,
        f.folded,
        f.num,
        f.isName,
        t.urn,
        t.aspect,
        t.field,
        t.boost,
        t.byDefault,
        t.words,
        items.map((i) => i.urn),
        items.map((i) => i.aspect),
      ],
    );
    // Every urn whose rows went or came: its keys, its list of facet values and its document row
    // (postgres/search-docs.ts: its words, names and soft-deletion flag) are written again at the commit.
    const changed = new Set(rows.map((r) => r.urn));
    for (const i of items) if (i.entries.length > 0) changed.add(i.urn);
    const values = keyValuesOf(items);
    if (changed.size > 0) atCommit(c, KEYS, [...changed], lockedKeysPart);
    if (values.length > 0) atCommit(c, KEY_VALUES, values, keyValuesPart(false));
  }
}
