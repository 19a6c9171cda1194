import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { DEFAULT_QUERY_BOOSTS } from '../../src/catalog/search/search-entries.ts';
import { parseSearchQuery } from '../../src/catalog/search/search-query.ts';
import { openStore } from '../../src/storage/open-store.ts';
import { MAX_DOC_TERMS } from '../../src/storage/search-sql.ts';
import { registerFacetFunctions } from '../../src/storage/sqlite/facet-tally.ts';
import { DOC_FLAGS_MIGRATION } from '../../src/storage/sqlite/migrations.ts';
import { facetCountsSql } from '../../src/storage/sqlite/search.ts';
import type { SearchQuery, Store, WriteOp } from '../../src/storage/store.ts';
import { backends, createSqliteDatabase, execElsewhere, onConnection, type TestDatabase } from '../support/databases.ts';
import { useStore } from '../support/lifecycle.ts';
import { BEFORE_FACET_LISTS, POSTGRES_BEFORE_DOC_ROWS } from '../support/search-keys.ts';

// A word's matches ranked by name and by their fields' boosts, without the soft-deleted, after each kind of write, on
// both engines. Both read them from their document rows (SQLite's migration 29, sqlite/search-docs.ts; PostgreSQL's
// 31, postgres/search-docs.ts, which holds the words too), which the writes keep and the migrations fill in for a
// database from before them. Each entity's facet values are one list on both engines (migration 30: SQLite's document
// row, PostgreSQL's search_facet_lists), filled in the same way.

const ACTOR = 'urn:li:corpuser:test';
const urn = (name: string) => `urn:li:dataset:(urn:li:dataPlatform:hive,db.${name},PROD)`;
const op = (name: string, aspect: string, value: Record<string, unknown>): WriteOp => ({
  kind: 'aspect',
  entityType: 'dataset',
  urn: urn(name),
  aspect,
  value,
  systemMetadata: null,
});
const dataset = (key: string, name: string, description: string): WriteOp[] => [
  op(key, 'datasetKey', { platform: 'urn:li:dataPlatform:hive', name: `db.${key}`, origin: 'PROD' }),
  op(key, 'datasetProperties', { name, description }),
];
const write = (store: Store, ops: WriteOp[]) => store.aspects.write({ ops, actor: ACTOR, now: Date.now() });

const query = (text: string): SearchQuery => ({
  entityTypes: ['dataset'],
  query: text,
  parsed: parseSearchQuery(text),
  filter: [],
  includeSoftDeleted: false,
  sort: [],
});

/** The urns a word finds, in ranking order. */
const ranked = async (store: Store, text: string) =>
  (await store.search.search({ ...query(text), paging: { start: 0, count: 10 } })).hits.map((h) => h.urn);

/** Each document row's flag and names, by urn; on PostgreSQL its type, facet values and words too. */
const docRows = (db: TestDatabase) =>
  onConnection(db, {
    sqlite: (conn) => conn.prepare('SELECT urn, removed, names FROM search_docs ORDER BY urn').all(),
    postgres: async (client) =>
      (await client.query('SELECT urn, entity_type, removed, names, facets, words::text AS words FROM search_docs ORDER BY urn')).rows,
  });

/**
 * Each entity's list of its facet values as the engine keeps it, by urn: SQLite's document row's value numbers,
 * PostgreSQL's row of search_facet_lists (no row: no value).
 */
const facetLists = (db: TestDatabase) =>
  onConnection(db, {
    sqlite: (conn) => conn.prepare('SELECT urn, facets FROM search_docs ORDER BY urn').all() as Array<{ urn: string; facets: string }>,
    postgres: async (client) =>
      (await client.query<{ urn: string; facets: string }>(`SELECT urn, array_to_string(facets, ' ') AS facets FROM search_facet_lists ORDER BY urn`))
        .rows,
  });

/**
 * Four datasets the word `orders` finds: one named `orders` (exact), one `orders_daily` (prefix), one whose
 * description only holds the word, one named `orders_archive` and soft-deleted.
 */
async function seed(store: Store): Promise<void> {
  await write(store, [
    ...dataset('a', 'weekly_report', 'totals of orders'),
    ...dataset('b', 'orders_daily', 'daily'),
    ...dataset('c', 'orders', 'all of them'),
    ...dataset('d', 'orders_archive', 'old'),
    op('d', 'status', { removed: true }),
  ]);
}

/** seed's datasets, `a` tagged `pii` and `gold`, `b` tagged `pii`. */
async function seedTagged(store: Store): Promise<void> {
  await seed(store);
  await write(store, [
    op('a', 'globalTags', { tags: [{ tag: 'urn:li:tag:pii' }, { tag: 'urn:li:tag:gold' }] }),
    op('b', 'globalTags', { tags: [{ tag: 'urn:li:tag:pii' }] }),
  ]);
}

const EXPECTED = [urn('c'), urn('b'), urn('a')];

for (const backend of await backends()) {
  describe(`search on ${backend.name}: a word's matches ranked by name, the soft-deleted left out`, { skip: backend.skip }, () => {
    let store: Store;
    useStore(backend, (s) => {
      store = s;
    });

    it('follows renames, soft deletion and its undoing, and a deleted aspect', async () => {
      await seed(store);
      assert.deepEqual(await ranked(store, 'orders'), EXPECTED, 'exact name, then name prefix, then the rest; not the soft-deleted one');
      // A rename moves it between tiers; restoring the soft-deleted one brings it back, in its tier.
      await write(store, [op('c', 'datasetProperties', { name: 'all_orders', description: 'all of them' })]);
      await write(store, [op('d', 'status', { removed: false })]);
      assert.deepEqual(await ranked(store, 'orders'), [urn('b'), urn('d'), urn('c'), urn('a')], 'a name word over a description');
      await write(store, [op('a', 'datasetProperties', { name: 'orders', description: 'totals of orders' })]);
      await write(store, [op('b', 'status', { removed: true })]);
      assert.deepEqual(await ranked(store, 'orders'), [urn('a'), urn('d'), urn('c')]);
      // Deleting the aspect that named it leaves the key's name (`db.a`): no longer a name match, and no longer a
      // match at all (its description went with it).
      await store.aspects.deleteAspect(urn('a'), 'datasetProperties');
      assert.deepEqual(await ranked(store, 'orders'), [urn('d'), urn('c')]);
    });
  });
}

for (const backend of await backends()) {
  describe(`search on ${backend.name}: a word's matches ranked by their best field's boost, phrases within one field`, { skip: backend.skip }, () => {
    let store: Store;
    let db: TestDatabase;
    useStore(backend, (s, d) => {
      store = s;
      db = d;
    });

    if (backend.name === 'postgres') {
      it('keeps a word under each boost of the registry as a search asks for it', async () => {
        // The document rows write `real`'s text of a boost; a search asks with JavaScript's (postgres/search-docs.ts).
        const written = await onConnection<string[]>(db, {
          sqlite: () => {
            throw new Error('PostgreSQL only');
          },
          postgres: async (client) =>
            (
              await client.query<{ w: string }>(`SELECT search_doc_words('w', b)::text AS w FROM unnest($1::real[]) b`, [DEFAULT_QUERY_BOOSTS])
            ).rows.map((r) => r.w),
        });
        assert.deepEqual(
          written,
          DEFAULT_QUERY_BOOSTS.map((b) => `'${String(b)}~w':2`),
        );
      });
    }

    it('ranks a name word over a description word over a tag, ties by urn, and reads a phrase within one field only', async () => {
      await write(store, [
        // Urn order is the reverse of rank order, so only the boosts can put them right.
        ...dataset('a_tag', 'first', 'nothing here'),
        op('a_tag', 'globalTags', { tags: [{ tag: 'urn:li:tag:kappa' }] }),
        ...dataset('b_desc', 'second', 'the kappa totals'),
        ...dataset('c_name', 'daily_kappa_totals', 'nothing here'),
        // A description word and a name word: the name's boost ranks it.
        ...dataset('d_both', 'kappa_of_d', 'kappa again'),
        // The phrase "gamma delta": across two fields on one (a custom property's value ends one, the description, the
        // next field of the aspect, starts with the other), within the description on the other.
        ...dataset('e_across', 'third', 'delta things'),
        op('e_across', 'datasetProperties', { name: 'third', description: 'delta things', customProperties: { k: 'gamma' } }),
        ...dataset('f_within', 'fourth', 'gamma delta inside'),
        // "sigma tau": sigma in both descriptions; tau in g's description, in h's name (h ranks by the second word).
        ...dataset('g_sigma', 'fifth', 'sigma tau'),
        ...dataset('h_sigma', 'tau_named', 'sigma'),
      ]);
      // d_both and c_name: name words (d_both's name starts with the word: the prefix tier first).
      assert.deepEqual(await ranked(store, 'kappa'), [urn('d_both'), urn('c_name'), urn('b_desc'), urn('a_tag')]);
      // A phrase past PostgreSQL's 16,383rd position of the entity (17,000 description words before its field
      // paths, 340 of them `id`: past 256 positions of one word too) is still found, and only in its order. (Within
      // one field, PostgreSQL's full-text rows have always kept positions up to 16,383 alone.)
      const letters = (i: number): string => (i < 26 ? '' : letters(Math.floor(i / 26) - 1)) + String.fromCharCode(97 + (i % 26));
      const filler = Array.from({ length: 17_000 }, (_, i) => (i % 50 === 0 ? 'id' : `w${letters(i)}`)).join(' ');
      await write(store, [
        ...dataset('i_wide', 'sixth', filler),
        op('i_wide', 'schemaMetadata', {
          schemaName: 's',
          platform: 'urn:li:dataPlatform:hive',
          version: 0,
          hash: '',
          platformSchema: { 'com.linkedin.schema.OtherSchema': { rawSchema: '' } },
          fields: [{ fieldPath: 'customer_id', nativeDataType: 'int', type: { type: { 'com.linkedin.schema.NumberType': {} } } }],
        }),
      ]);
      assert.deepEqual(await ranked(store, 'customer_id'), [urn('i_wide')]);
      assert.deepEqual(await ranked(store, '"id customer"'), [], 'the phrase checked in its field, in order');
      assert.deepEqual(await ranked(store, 'sixth customer_id'), [urn('i_wide')]);
      // A word longer than any the index keeps finds nothing (PostgreSQL's tsquery would refuse it).
      assert.deepEqual(await ranked(store, 'q'.repeat(2100)), []);
      // A description of 480,000 bytes is written (past what PostgreSQL's document row takes of one field) and the
      // entity is still found by its other words.
      await write(store, dataset('j_huge', 'seventh_huge', 'lorem ipsum '.repeat(40_000)));
      assert.deepEqual(await ranked(store, 'seventh_huge'), [urn('j_huge')]);
      // Several words: each must be there, the boosts of each one's best field added.
      assert.deepEqual(await ranked(store, 'kappa totals'), [urn('c_name'), urn('b_desc')]);
      assert.deepEqual(await ranked(store, 'first kappa'), [urn('a_tag')]);
      assert.deepEqual(await ranked(store, 'sigma tau'), [urn('h_sigma'), urn('g_sigma')]);
      // As many words as the document rows read, and one more (PostgreSQL reads its full-text rows then): the same answer.
      for (const n of [MAX_DOC_TERMS, MAX_DOC_TERMS + 1]) {
        assert.deepEqual(
          await ranked(store, ['sigma', ...Array<string>(n - 1).fill('tau')].join(' ')),
          [urn('h_sigma'), urn('g_sigma')],
          `${n} words`,
        );
      }
      assert.deepEqual(await ranked(store, 'kappa "with gamma"'), []);
      assert.deepEqual(await ranked(store, '"gamma delta"'), [urn('f_within')]);
      assert.deepEqual(await ranked(store, 'gamma'), [urn('e_across'), urn('f_within')]);
    });
  });
}

/**
 * SQL that puts a database back as the release before its document rows held what a word's matches read: SQLite's
 * before migration 29 (no flag, no names), PostgreSQL's before 31 (no document rows).
 */
const BEFORE_DOC_ROWS = {
  sqlite: `ALTER TABLE search_docs DROP COLUMN removed; ALTER TABLE search_docs DROP COLUMN names;
    DELETE FROM schema_migrations WHERE version = ${DOC_FLAGS_MIGRATION};`,
  postgres: POSTGRES_BEFORE_DOC_ROWS,
} as const;

for (const backend of await backends()) {
  describe(`search on ${backend.name}: a database from before the document rows held what a word's matches read`, { skip: backend.skip }, () => {
    it('is filled in by the migration from the rows already indexed, as the writes fill it', async () => {
      const db = await backend.create();
      try {
        let store = await openStore(db.config);
        await seedTagged(store);
        await store.database.close();
        const written = await docRows(db);
        assert.equal(written.length, 4, 'a row for each dataset');
        await execElsewhere(db, BEFORE_DOC_ROWS[db.config.kind]);
        store = await openStore(db.config);
        try {
          assert.deepEqual(await ranked(store, 'orders'), EXPECTED);
        } finally {
          await store.database.close();
        }
        assert.deepEqual(await docRows(db), written);
      } finally {
        await db.drop();
      }
    });
  });
}

for (const backend of await backends()) {
  describe(`search on ${backend.name}: a database from before each entity's facet values were one list`, { skip: backend.skip }, () => {
    it('is filled in by the migration from the facet rows, and the facets count as before', async () => {
      const db = await backend.create();
      try {
        let store = await openStore(db.config);
        await seedTagged(store);
        await write(store, [op('b', 'dataPlatformInstance', { platform: 'urn:li:dataPlatform:hive' })]);
        const facets = async () => {
          const counts = await store.search.facets({ ...query('orders'), includeSoftDeleted: true }, ['tags', 'platform', 'origin']);
          return Object.fromEntries([...counts].map(([field, values]) => [field, Object.fromEntries(values)]));
        };
        const expected = {
          tags: { 'urn:li:tag:pii': 2, 'urn:li:tag:gold': 1 },
          platform: { 'urn:li:dataPlatform:hive': 4 },
          origin: { PROD: 4 },
        };
        assert.deepEqual(await facets(), expected);
        await store.database.close();
        const written = await facetLists(db);
        assert.equal(written.filter((r) => r.facets !== '').length, 4, 'every dataset lists its values');
        await execElsewhere(db, BEFORE_FACET_LISTS[db.config.kind]);
        store = await openStore(db.config);
        try {
          assert.deepEqual(await facets(), expected);
        } finally {
          await store.database.close();
        }
        assert.deepEqual(await facetLists(db), written, 'the migration lists what the writes listed');
      } finally {
        await db.drop();
      }
    });
  });
}

describe('search on sqlite: facet lists counted joined, or one by one past the joined bound', () => {
  it('gives the same counts both ways, from the lists carried in the matches or sought by document number', async () => {
    const db = await createSqliteDatabase();
    try {
      const store = await openStore(db.config);
      await seedTagged(store);
      await store.database.close();
      const counts = (carried: boolean, maxJoined?: number) =>
        onConnection(db, {
          sqlite: (conn) => {
            registerFacetFunctions(conn);
            const params: unknown[] = [];
            const sql = facetCountsSql(params, ['tags', 'platform'], maxJoined);
            const m = `SELECT id AS doc, ${carried ? 'facets' : 'NULL'} AS facets FROM search_docs`;
            const rows = conn.prepare(`WITH m AS (${m}) ${sql}`).all({ p1: params[0] }) as Array<{ field: string; value: string; n: number }>;
            return rows.map((r) => `${r.field} ${r.value} ${r.n}`).sort();
          },
          postgres: () => Promise.reject(new Error('SQLite only')),
        });
      const expected = ['platform urn:li:dataPlatform:hive 4', 'tags urn:li:tag:gold 1', 'tags urn:li:tag:pii 2'];
      for (const carried of [true, false]) {
        assert.deepEqual(await counts(carried), expected, `joined, carried: ${carried}`);
        assert.deepEqual(await counts(carried, 0), expected, `one by one, carried: ${carried}`);
      }
    } finally {
      await db.drop();
    }
  });
});
