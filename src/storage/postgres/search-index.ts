import type pg from 'pg';
import type { SearchEntry } from '../ports/search-index.ts';
import { searchTextRows } from '../search-rows.ts';
import type { AspectIndexer, Json } from '../store.ts';

const BACKFILL_PAGE = 1000;

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
const INSERT_TEXT = `INSERT INTO search_text (urn, aspect, field, boost, by_default, words)
  SELECT * FROM unnest($8::text[], $9::text[], $10::text[], $11::real[], $12::boolean[], $13::text[])`;

/**
 * The search index of the PostgreSQL adapter: what each aspect's latest value contributes to its entity's document,
 * in `search_fields` (exact values) and `search_text` (words, under a GIN index of their tsvector). Written on the
 * transaction client of the aspect's write (the relationship part calls it where it indexes the same value).
 */
export class PostgresSearchIndex {
  /** Replaces what one aspect contributed with `entries`, in one statement. */
  async replace(c: pg.PoolClient, urn: string, aspect: string, entries: readonly SearchEntry[]): Promise<void> {
    const { f, t } = columns([urn], [aspect], [entries]);
    await c.query(
      `WITH gone_fields AS (DELETE FROM search_fields WHERE urn = $14 AND aspect = $15),
            gone_text AS (DELETE FROM search_text WHERE urn = $14 AND aspect = $15),
            fields AS (${INSERT_FIELDS})
       ${INSERT_TEXT}`,
      [f.urn, f.aspect, f.field, f.value, f.folded, f.num, f.isName, t.urn, t.aspect, t.field, t.boost, t.byDefault, t.words, urn, aspect],
    );
  }

  async forgetEntity(c: pg.PoolClient, urn: string): Promise<void> {
    await c.query('WITH gone AS (DELETE FROM search_fields WHERE urn = $1) DELETE FROM search_text WHERE urn = $1', [urn]);
  }

  /** Indexes every stored latest aspect value, a page at a time, into tables that hold none yet. */
  async backfill(c: pg.PoolClient, indexer: AspectIndexer): Promise<void> {
    const aspects = [...indexer.aspects];
    let after = ['', ''];
    for (;;) {
      const page = await c.query<{ urn: string; entity_type: string; aspect: string; metadata: Json }>(
        `SELECT urn, entity_type, aspect, metadata FROM aspects
          WHERE version = 0 AND aspect = ANY($1::text[]) AND (urn, aspect) > ($2, $3)
          ORDER BY urn, aspect LIMIT ${BACKFILL_PAGE}`,
        [aspects, ...after],
      );
      const rows = page.rows;
      const { f, t } = columns(
        rows.map((r) => r.urn),
        rows.map((r) => r.aspect),
        rows.map((r) => indexer.index(r.entity_type, r.urn, r.aspect, r.metadata).search ?? []),
      );
      await c.query(`WITH fields AS (${INSERT_FIELDS}) ${INSERT_TEXT}`, [
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
      ]);
      if (rows.length < BACKFILL_PAGE) break;
      after = [rows.at(-1)!.urn, rows.at(-1)!.aspect];
    }
    await c.query('ANALYZE search_fields');
    await c.query('ANALYZE search_text');
  }
}
