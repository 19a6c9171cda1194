import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { openStore } from '../../src/storage/open-store.ts';
import {
  TYPE_KEYS_MIGRATION as POSTGRES_TYPE_KEYS_MIGRATION,
  VALUE_KEYS_MIGRATION as POSTGRES_VALUE_KEYS_MIGRATION,
} from '../../src/storage/postgres/migrations.ts';
import { TYPE_KEYS_MIGRATION as SQLITE_TYPE_KEYS_MIGRATION } from '../../src/storage/sqlite/migrations.ts';
import type { SearchFilter, Store } from '../../src/storage/store.ts';
import { backends, execElsewhere, type TestDatabase } from '../support/databases.ts';
import { BEFORE_FACET_LISTS, storedKeys } from '../support/search-keys.ts';
import { useStore } from '../support/lifecycle.ts';

// A filter the search keys answer alone (issue 31): the asked entity types are part of the keys' expression, so the
// total is the engine's own full-text count and never counts an entity of another type or a soft-deleted one; the
// page is the same entities in the same order whatever way the engine finds them.

const ACTOR = 'urn:li:corpuser:test';
const SNOWFLAKE = 'urn:li:dataPlatform:snowflake';
const PII = { field: 'tags', values: ['urn:li:tag:pii'] };

const dataset = (name: string, platform = SNOWFLAKE) => `urn:li:dataset:(${platform},${name},PROD)`;
const chart = (id: string) => `urn:li:chart:(looker,${id})`;

/** Snowflake datasets tagged pii (one of them soft-deleted), a hive one, an untagged one, and two tagged charts. */
const TAGGED_DATASETS = ['d.one', 'd.two', 'd.three'].map((n) => dataset(n));
const GONE = dataset('d.gone');
const HIVE = dataset('h.one', 'urn:li:dataPlatform:hive');
const UNTAGGED = dataset('d.plain');
const CHARTS = [chart('c1'), chart('c2')];

async function load(store: Store): Promise<void> {
  const op = (entityType: string, urn: string, aspect: string, value: Record<string, unknown>) =>
    ({ kind: 'aspect', entityType, urn, aspect, value, systemMetadata: null }) as const;
  const tags = { tags: [{ tag: 'urn:li:tag:pii' }] };
  const ops = [];
  for (const urn of [...TAGGED_DATASETS, GONE, HIVE, UNTAGGED]) {
    const platform = urn === HIVE ? 'urn:li:dataPlatform:hive' : SNOWFLAKE;
    ops.push(op('dataset', urn, 'datasetKey', { platform, name: urn.split(',')[1], origin: 'PROD' }));
    if (urn !== UNTAGGED) ops.push(op('dataset', urn, 'globalTags', tags));
  }
  ops.push(op('dataset', GONE, 'status', { removed: true }));
  for (const urn of CHARTS) ops.push(op('chart', urn, 'globalTags', tags));
  await store.aspects.write({ ops, actor: ACTOR, now: Date.now() });
}

const find = (store: Store, entityTypes: string[], filter: SearchFilter, start = 0, count = 10, includeSoftDeleted = false) =>
  store.search.search({ entityTypes, filter, includeSoftDeleted, sort: [], paging: { start, count }, withTotal: true });

/** The answers every engine gives over the corpus above, whatever the keys' state. */
async function assertAnswers(store: Store): Promise<void> {
  const snowflakePii: SearchFilter = [[PII, { field: 'platform', values: [SNOWFLAKE] }]];
  const datasets = await find(store, ['dataset'], snowflakePii);
  assert.equal(datasets.total, 3, 'the tagged snowflake datasets, not the soft-deleted one');
  assert.deepEqual(
    datasets.hits.map((h) => h.urn),
    [...TAGGED_DATASETS].sort(),
  );
  assert.equal((await find(store, ['dataset'], snowflakePii, 0, 10, true)).total, 4, 'the soft-deleted one when asked');

  const tagged = await find(store, ['chart'], [[PII]]);
  assert.equal(tagged.total, 2, 'only the charts');
  assert.deepEqual(
    tagged.hits.map((h) => h.entityType),
    ['chart', 'chart'],
  );

  // Two types: counted together, paged in the order the types were asked, then by urn.
  const both = await find(store, ['chart', 'dataset'], [[PII]]);
  assert.equal(both.total, 6);
  assert.deepEqual(
    both.hits.map((h) => h.urn),
    [...[...CHARTS].sort(), ...[...TAGGED_DATASETS, HIVE].sort()],
  );
  // A page from the middle, and an OR of two groups.
  const second = await find(store, ['chart', 'dataset'], [[PII]], 2, 2);
  assert.deepEqual(
    second.hits.map((h) => h.urn),
    [...TAGGED_DATASETS, HIVE].sort().slice(0, 2),
  );
  assert.equal(second.total, 6);
  const either: SearchFilter = [[{ field: 'platform', values: ['urn:li:dataPlatform:hive'] }], [{ field: 'platform', values: [SNOWFLAKE] }]];
  assert.equal((await find(store, ['dataset'], either)).total, 5, 'every dataset but the soft-deleted one');
  assert.equal((await find(store, ['chart'], either)).total, 0, 'no chart has a platform');
  // A group without a facet value (the soft-deletion flag alone) selects the asked types by their own key.
  const removed: SearchFilter = [[{ field: 'removed', values: ['true'] }]];
  assert.deepEqual(
    (await find(store, ['dataset'], removed)).hits.map((h) => h.urn),
    [GONE],
  );
  assert.equal((await find(store, ['chart'], removed)).total, 0);
}

for (const backend of await backends()) {
  describe(`search keys answer a filter with its types: ${backend.name}`, { skip: backend.skip }, () => {
    let store: Store;
    useStore(backend, (s) => {
      store = s;
    });

    it('counts and pages only the asked types, soft-deleted entities left out unless asked', async () => {
      await load(store);
      await assertAnswers(store);
    });

    it('pages a filter in urn order from its first value, and reads every match when that value has too many entities before the page', async () => {
      await load(store);
      // Page by page, one at a time: the same order as all at once.
      const snowflakePii: SearchFilter = [[{ field: 'platform', values: [SNOWFLAKE] }, PII]];
      const pages = [];
      for (let start = 0; start < 4; start++) pages.push(...(await find(store, ['dataset'], snowflakePii, start, 1)).hits.map((h) => h.urn));
      assert.deepEqual(pages, [...TAGGED_DATASETS].sort());
      // A criterion the keys cannot answer (a tag containing a text), no total asked: walked the same way.
      const contains: SearchFilter = [
        [
          { field: 'platform', values: [SNOWFLAKE] },
          { field: 'tags', condition: 'CONTAIN', values: ['pii'] },
        ],
      ];
      const page = await store.search.search({
        entityTypes: ['dataset'],
        filter: contains,
        includeSoftDeleted: false,
        sort: [],
        paging: { start: 1, count: 5 },
      });
      assert.deepEqual(
        page.hits.map((h) => h.urn),
        [...TAGGED_DATASETS].sort().slice(1),
      );
      assert.equal(page.total, undefined);

      // Seventy hive datasets, only the last two (in urn order) tagged rare: the first value's entities hold the page
      // far past what a walk reads for one row, so every match is read instead.
      const names = Array.from({ length: 70 }, (_, i) => `bulk.t${String(i).padStart(3, '0')}`);
      const hive = 'urn:li:dataPlatform:hive';
      const rare = names.slice(-2).map((n) => dataset(n, hive));
      await store.aspects.write({
        ops: names.flatMap((n) => {
          const urn = dataset(n, hive);
          const key = {
            kind: 'aspect',
            entityType: 'dataset',
            urn,
            aspect: 'datasetKey',
            value: { platform: hive, name: n, origin: 'PROD' },
            systemMetadata: null,
          } as const;
          const tags = { tags: [{ tag: rare.includes(urn) ? 'urn:li:tag:rare' : 'urn:li:tag:common' }] };
          return [key, { kind: 'aspect', entityType: 'dataset', urn, aspect: 'globalTags', value: tags, systemMetadata: null } as const];
        }),
        actor: ACTOR,
        now: Date.now(),
      });
      const hiveRare: SearchFilter = [
        [
          { field: 'platform', values: [hive] },
          { field: 'tags', values: ['urn:li:tag:rare'] },
        ],
      ];
      const first = await find(store, ['dataset'], hiveRare, 0, 1);
      assert.equal(first.total, 2);
      assert.deepEqual(
        first.hits.map((h) => h.urn),
        [rare[0]],
      );
      assert.deepEqual(
        (await find(store, ['dataset'], hiveRare, 1, 5)).hits.map((h) => h.urn),
        [rare[1]],
      );
    });

    it('keeps the types right through updates: a tag removed, a dataset soft-deleted, an entity deleted', async () => {
      await load(store);
      const write = (entityType: string, urn: string, aspect: string, value: Record<string, unknown>) =>
        store.aspects.write({ ops: [{ kind: 'aspect', entityType, urn, aspect, value, systemMetadata: null }], actor: ACTOR, now: Date.now() });
      await write('chart', CHARTS[0]!, 'globalTags', { tags: [] });
      await write('dataset', TAGGED_DATASETS[0]!, 'status', { removed: true });
      await store.aspects.deleteEntity(HIVE);
      assert.equal((await find(store, ['chart'], [[PII]])).total, 1);
      assert.equal((await find(store, ['dataset'], [[PII]])).total, 2);
      assert.equal((await find(store, ['chart', 'dataset'], [[PII]])).total, 3);
    });
  });

  describe(`search keys on ${backend.name}: a database from before the types' keys`, { skip: backend.skip }, () => {
    it('gets its types keyed at the migration: filters count and page as on a new database', async () => {
      const db: TestDatabase = await backend.create();
      try {
        let store = await openStore(db.config);
        await load(store);
        await store.database.close();
        const written = await storedKeys(db);
        // As the release before left it, as far as this migration can tell: it writes every entity's keys again from
        // its facet rows and flags (FTS5 keeps no content to take the old keys from), so none are left. On PostgreSQL
        // the field paths' keys (migration 29) come after it and run again too, and both read the facet rows that its
        // migration 30 replaced with lists: they are back.
        const versions = backend.name === 'sqlite' ? [SQLITE_TYPE_KEYS_MIGRATION] : [POSTGRES_TYPE_KEYS_MIGRATION, POSTGRES_VALUE_KEYS_MIGRATION];
        const before = backend.name === 'sqlite' ? '' : BEFORE_FACET_LISTS.postgres;
        await execElsewhere(db, `${before} DELETE FROM search_keys; DELETE FROM schema_migrations WHERE version IN (${versions.join(', ')});`);
        store = await openStore(db.config);
        try {
          await assertAnswers(store);
        } finally {
          await store.database.close();
        }
        assert.deepEqual(await storedKeys(db), written, 'the migration writes the keys the writes wrote');
      } finally {
        await db.drop();
      }
    });
  });
}
