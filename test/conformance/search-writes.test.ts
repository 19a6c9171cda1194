import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseSearchQuery } from '../../src/catalog/search/search-query.ts';
import { openStore } from '../../src/storage/open-store.ts';
import {
  SEARCH_KEYS_MIGRATION as POSTGRES_SEARCH_KEYS_MIGRATION,
  TYPE_KEYS_MIGRATION as POSTGRES_TYPE_KEYS_MIGRATION,
  VALUE_KEYS_MIGRATION as POSTGRES_VALUE_KEYS_MIGRATION,
} from '../../src/storage/postgres/migrations.ts';
import {
  CLUSTERED_SEARCH_FIELDS_MIGRATION,
  SEARCH_KEYS_MIGRATION as SQLITE_SEARCH_KEYS_MIGRATION,
  TYPE_KEYS_MIGRATION as SQLITE_TYPE_KEYS_MIGRATION,
  VALUE_KEYS_MIGRATION,
} from '../../src/storage/sqlite/migrations.ts';
import type { SearchFilter, SearchQuery, Store, WriteOp } from '../../src/storage/store.ts';
import { backends, createSqliteDatabase, execElsewhere, onConnection, type TestDatabase } from '../support/databases.ts';
import { BEFORE_FACET_LISTS, storedKeys } from '../support/search-keys.ts';
import { MAX_VALUE_KEYS, OVERFLOW_KEY, presenceKey, searchKey } from '../../src/storage/search-keys.ts';
import { useStore } from '../support/lifecycle.ts';
import { writeOldDatabase } from '../support/old-database.ts';
import { schema } from '../support/timeline.ts';

// What the search index costs a write (issue 31): an update rewrites only the index rows whose values changed, and
// the answers are those of an index written from scratch; on SQLite, a database from before the clustered
// search_fields table keeps what it had indexed.

const DS = 'urn:li:dataset:(urn:li:dataPlatform:hive,geo.places,PROD)';
const ACTOR = 'urn:li:corpuser:test';

/** A schemaMetadata value with these string columns. */
const columns = (...paths: string[]) => schema(...paths.map((p): [string, string] => [p, 'string']));

/** A write of one dataset aspect. */
const datasetOp = (urn: string, aspect: string, value: Record<string, unknown>) =>
  ({ kind: 'aspect', entityType: 'dataset', urn, aspect, value, systemMetadata: null }) as const;

const write = (store: Store, aspect: string, value: Record<string, unknown>) =>
  store.aspects.write({
    ops: [{ kind: 'aspect', entityType: 'dataset', urn: DS, aspect, value, systemMetadata: null }],
    actor: ACTOR,
    now: Date.now(),
  });

const query = (text: string | undefined, filter: SearchFilter = []): SearchQuery => ({
  entityTypes: ['dataset'],
  ...(text !== undefined ? { query: text, parsed: parseSearchQuery(text) } : {}),
  filter,
  includeSoftDeleted: false,
  sort: [],
});

const count = (store: Store, text: string | undefined, filter: SearchFilter = []) => store.search.count(query(text, filter));

for (const backend of await backends()) {
  describe(`search index writes: ${backend.name}`, { skip: backend.skip }, () => {
    let store: Store;
    let db: TestDatabase;
    useStore(backend, (s, d) => {
      store = s;
      db = d;
    });

    it('an update leaves the index as a first write of the new value would: gone values unfound, new ones found, kept ones still found', async () => {
      await write(store, 'datasetProperties', { name: 'places', description: 'cities of the north' });
      await write(store, 'schemaMetadata', columns('latitude', 'longitude', 'zip_code'));
      await write(store, 'globalTags', { tags: [{ tag: 'urn:li:tag:geo' }] });
      assert.equal(await count(store, '/q fieldPaths: zip'), 1);

      await write(store, 'schemaMetadata', columns('latitude', 'longitude', 'country'));
      await write(store, 'datasetProperties', { name: 'places', description: 'towns of the south' });
      assert.equal(await count(store, '/q fieldPaths: zip'), 0);
      assert.equal(await count(store, '/q fieldPaths: country'), 1);
      assert.equal(await count(store, '/q fieldPaths: latitude'), 1);
      assert.equal(await count(store, undefined, [[{ field: 'fieldPaths', values: ['zip_code'] }]]), 0);
      assert.equal(await count(store, undefined, [[{ field: 'fieldPaths', values: ['country'] }]]), 1);
      assert.equal(await count(store, 'north'), 0);
      assert.equal(await count(store, 'south'), 1);
      assert.equal(await count(store, 'places'), 1);
      const values = (await store.search.indexedValues([DS])).get(DS) ?? [];
      assert.deepEqual(
        values.filter((v) => v.field === 'fieldPaths').map((v) => v.value),
        ['country', 'latitude', 'longitude'],
      );
      assert.deepEqual(
        values.filter((v) => v.field === 'description').map((v) => v.value),
        ['towns of the south'],
      );
    });

    it('a value an aspect gives one field twice is one value: found, counted once', async () => {
      await write(store, 'globalTags', { tags: [{ tag: 'urn:li:tag:pii' }, { tag: 'urn:li:tag:pii' }] });
      const result = await store.search.search({ ...query(undefined), paging: { start: 0, count: 10 }, withTotal: true, facets: ['tags'] });
      assert.equal(result.total, 1);
      assert.deepEqual(Object.fromEntries(result.facets!.get('tags') ?? []), { 'urn:li:tag:pii': 1 });
      // And away again when the next value drops it.
      await write(store, 'globalTags', { tags: [{ tag: 'urn:li:tag:geo' }] });
      assert.equal(await count(store, undefined, [[{ field: 'tags', values: ['urn:li:tag:pii'] }]]), 0);
      assert.equal(await count(store, undefined, [[{ field: 'tags', values: ['urn:li:tag:geo'] }]]), 1);
    });

    it('a value two aspects give one field is one value: a platform from the key and the platform instance, a deprecation, counted once', async () => {
      const kafka = 'urn:li:dataset:(urn:li:dataPlatform:kafka,geo.lanes,PROD)';
      const other = 'urn:li:dataset:(urn:li:dataPlatform:hive,geo.paths,PROD)';
      await store.aspects.write({
        ops: [
          datasetOp(DS, 'datasetKey', { platform: 'urn:li:dataPlatform:hive', name: 'geo.places', origin: 'PROD' }),
          datasetOp(DS, 'dataPlatformInstance', { platform: 'urn:li:dataPlatform:hive' }),
          datasetOp(DS, 'deprecation', { deprecated: true, note: 'old', actor: ACTOR }),
          datasetOp(DS, 'datasetDeprecation', { deprecated: true, note: 'old' }),
          datasetOp(kafka, 'datasetKey', { platform: 'urn:li:dataPlatform:kafka', name: 'geo.lanes', origin: 'PROD' }),
          datasetOp(kafka, 'dataPlatformInstance', { platform: 'urn:li:dataPlatform:hive' }),
          // Deprecated, outside the matches.
          datasetOp(other, 'datasetKey', { platform: 'urn:li:dataPlatform:hive', name: 'geo.paths', origin: 'PROD' }),
          datasetOp(other, 'deprecation', { deprecated: true, note: 'old', actor: ACTOR }),
        ],
        actor: ACTOR,
        now: Date.now(),
      });
      for (const text of [undefined, 'geo']) {
        const result = await store.search.search({
          ...query(text, [[{ field: 'urn', values: [DS, kafka] }]]),
          paging: { start: 0, count: 10 },
          withTotal: true,
          facets: ['platform', 'origin', 'deprecated', 'deprecationState'],
        });
        assert.equal(result.total, 2, String(text));
        const facets = Object.fromEntries([...result.facets!].map(([field, values]) => [field, Object.fromEntries(values)]));
        assert.deepEqual(
          facets,
          {
            platform: { 'urn:li:dataPlatform:hive': 2, 'urn:li:dataPlatform:kafka': 1 },
            origin: { PROD: 2 },
            deprecated: { true: 1 },
            deprecationState: { ACTIVE: 1, DEPRECATED: 1 },
          },
          String(text),
        );
      }
      // The instance goes: the dataset keeps the platform its key gives; the other keeps only its key's.
      await store.aspects.deleteAspect(DS, 'dataPlatformInstance');
      await store.aspects.deleteAspect(kafka, 'dataPlatformInstance');
      const after = await store.search.facets(query('geo', [[{ field: 'urn', values: [DS, kafka] }]]), ['platform']);
      assert.deepEqual(Object.fromEntries(after.get('platform') ?? []), { 'urn:li:dataPlatform:hive': 1, 'urn:li:dataPlatform:kafka': 1 });
    });

    it('facet counts follow each write: a tag added, replaced, an aspect deleted, the entity deleted, the only facet values of a user deleted', async () => {
      const one = 'urn:li:dataset:(urn:li:dataPlatform:hive,geo.rivers,PROD)';
      const other = 'urn:li:dataset:(urn:li:dataPlatform:kafka,geo.roads,PROD)';
      const tags = (urn: string, ...names: string[]) =>
        store.aspects.write({
          ops: [
            {
              kind: 'aspect',
              entityType: 'dataset',
              urn,
              aspect: 'globalTags',
              value: { tags: names.map((t) => ({ tag: `urn:li:tag:${t}` })) },
              systemMetadata: null,
            },
          ],
          actor: ACTOR,
          now: Date.now(),
        });
      const facets = async () => {
        const counts = await store.search.facets(query(undefined, [[{ field: 'urn', values: [one, other] }]]), ['tags', 'platform', 'owners']);
        return Object.fromEntries([...counts].map(([field, values]) => [field, Object.fromEntries(values)]));
      };
      for (const [urn, platform, name] of [
        [one, 'hive', 'geo.rivers'],
        [other, 'kafka', 'geo.roads'],
      ] as const) {
        await store.aspects.write({
          ops: [datasetOp(urn, 'datasetKey', { platform: `urn:li:dataPlatform:${platform}`, name, origin: 'PROD' })],
          actor: ACTOR,
          now: Date.now(),
        });
      }
      await tags(one, 'geo', 'pii');
      await tags(other, 'geo');
      assert.deepEqual(await facets(), {
        tags: { 'urn:li:tag:geo': 2, 'urn:li:tag:pii': 1 },
        platform: { 'urn:li:dataPlatform:hive': 1, 'urn:li:dataPlatform:kafka': 1 },
        owners: {},
      });
      await tags(one, 'pii', 'gold');
      assert.deepEqual((await facets()).tags, { 'urn:li:tag:geo': 1, 'urn:li:tag:pii': 1, 'urn:li:tag:gold': 1 });
      await store.aspects.deleteAspect(other, 'globalTags');
      assert.deepEqual((await facets()).tags, { 'urn:li:tag:pii': 1, 'urn:li:tag:gold': 1 });
      await store.aspects.deleteEntity(one);
      assert.deepEqual(await facets(), { tags: {}, platform: { 'urn:li:dataPlatform:kafka': 1 }, owners: {} });
      // A user's tags are its only facet values: with them deleted it has none, and counts for none.
      const user = 'urn:li:corpuser:facets.user';
      const userOp = (aspect: string, value: Record<string, unknown>): WriteOp => ({
        kind: 'aspect',
        entityType: 'corpuser',
        urn: user,
        aspect,
        value,
        systemMetadata: null,
      });
      await store.aspects.write({
        ops: [userOp('corpUserKey', { username: 'facets.user' }), userOp('globalTags', { tags: [{ tag: 'urn:li:tag:pii' }] })],
        actor: ACTOR,
        now: Date.now(),
      });
      const userTags = async () =>
        Object.fromEntries(
          (await store.search.facets({ ...query(undefined, [[{ field: 'urn', values: [user] }]]), entityTypes: ['corpuser'] }, ['tags'])).get(
            'tags',
          ) ?? [],
        );
      assert.deepEqual(await userTags(), { 'urn:li:tag:pii': 1 });
      await store.aspects.deleteAspect(user, 'globalTags');
      assert.deepEqual(await userTags(), {});
    });

    it('a filter on facet fields alone follows each write: equal, any of, negated, false flags, groups, soft deletion and its undoing, an aspect and an entity deleted', async () => {
      // Both engines answer these from their search keys (storage/search-keys.ts), not the SQL filter: the same answers.
      // (The suite's store holds other tests' datasets too: only these three are looked at.)
      const dataset = (name: string) => `urn:li:dataset:(urn:li:dataPlatform:hive,keys.${name},PROD)`;
      const [a, b, c] = [dataset('a'), dataset('b'), dataset('c')];
      const put = (urn: string, aspect: string, value: Record<string, unknown>) =>
        store.aspects.write({
          ops: [{ kind: 'aspect', entityType: 'dataset', urn, aspect, value, systemMetadata: null }],
          actor: ACTOR,
          now: Date.now(),
        });
      const platform = (urn: string, p: string) => put(urn, 'datasetKey', { platform: `urn:li:dataPlatform:${p}`, name: urn, origin: 'PROD' });
      const tagged = (urn: string, ...tags: string[]) => put(urn, 'globalTags', { tags: tags.map((t) => ({ tag: `urn:li:tag:${t}` })) });
      await platform(a, 'hive');
      await platform(b, 'kafka');
      await platform(c, 'hive');
      await tagged(a, 'pii');
      await tagged(b, 'pii', 'gold');
      await put(b, 'deprecation', { deprecated: true, note: '', actor: ACTOR });
      const urns = async (filter: SearchFilter, includeSoftDeleted = false) =>
        (await store.search.search({ ...query(undefined, filter), includeSoftDeleted, paging: { start: 0, count: 10 }, withTotal: true })).hits
          .map((h) => h.urn)
          .filter((u) => [a, b, c].includes(u))
          .sort();
      const hive = { field: 'platform', values: ['urn:li:dataPlatform:hive'] };
      const pii = { field: 'tags', values: ['urn:li:tag:pii'] };
      const gold = { field: 'tags.keyword', values: ['urn:li:tag:gold'] };

      assert.deepEqual(await urns([[hive]]), [a, c]);
      assert.deepEqual(await urns([[hive, pii]]), [a]);
      assert.deepEqual(await urns([[{ field: 'tags', condition: 'IN', values: ['urn:li:tag:pii', 'urn:li:tag:gold'] }]]), [a, b]);
      assert.deepEqual(await urns([[hive, { ...pii, negated: true }]]), [c]);
      assert.deepEqual(await urns([[{ field: 'platform', values: ['urn:li:dataPlatform:kafka'] }], [hive, pii]]), [a, b]);
      assert.deepEqual(await urns([[{ field: 'tags', values: ['urn:li:tag:nowhere'] }]]), []);
      assert.deepEqual(await urns([[pii, { field: 'deprecated', values: ['false'] }]]), [a]);
      assert.deepEqual(await urns([[pii, { field: 'deprecated', values: ['true'] }]]), [b]);

      // Soft-deleted: left out, found when asked for, named by the filter; back when undone.
      await put(a, 'status', { removed: true });
      assert.deepEqual(await urns([[hive]]), [c]);
      assert.deepEqual(await urns([[hive]], true), [a, c]);
      assert.deepEqual(await urns([[hive, { field: 'removed', values: ['true'] }]]), [a]);
      assert.deepEqual(await urns([[hive, { field: 'removed', values: ['false'] }]]), [c]);
      await put(a, 'status', { removed: false });
      assert.deepEqual(await urns([[hive, pii]]), [a]);

      // A value replaced, an aspect deleted, an entity deleted.
      await tagged(a, 'gold');
      assert.deepEqual(await urns([[pii]]), [b]);
      assert.deepEqual(await urns([[gold]]), [a, b]);
      await store.aspects.deleteAspect(b, 'globalTags');
      assert.deepEqual(await urns([[gold]]), [a]);
      assert.deepEqual(await urns([[{ field: 'platform', values: ['urn:li:dataPlatform:kafka'] }]]), [b]);
      await store.aspects.deleteEntity(c);
      assert.deepEqual(await urns([[hive]]), [a]);
    });

    it('a dataset with more column paths than a keys row holds: every condition still finds it, past the limit and back under it', async () => {
      const wide = 'urn:li:dataset:(urn:li:dataPlatform:hive,geo.wide,PROD)';
      const narrow = 'urn:li:dataset:(urn:li:dataPlatform:hive,geo.narrow,PROD)';
      const put = (urn: string, count: number) =>
        store.aspects.write({
          ops: [
            datasetOp(urn, 'datasetProperties', { name: urn === wide ? 'wide' : 'narrow', description: 'columns of the east' }),
            datasetOp(urn, 'schemaMetadata', columns('latitude', 'Flow_Rate', ...Array.from({ length: count }, (_, i) => `col_${i}`))),
          ],
          actor: ACTOR,
          now: Date.now(),
        });
      await put(narrow, 3);
      const urns = async (text: string | undefined, condition: string, values: string[], negated = false) =>
        (
          await store.search.search({
            ...query(text, [[{ field: 'fieldPaths', condition, values, ...(negated ? { negated } : {}) }]]),
            paging: { start: 0, count: 10 },
          })
        ).hits
          .map((h) => h.urn)
          .filter((u) => u === wide || u === narrow)
          .sort();
      const both = [narrow, wide].sort();
      const keysOfWide = async () => (await storedKeys(db)).filter((k) => k.startsWith(wide)).join(' ');
      // Past MAX_VALUE_KEYS (PostgreSQL), then under it again.
      for (const count of [MAX_VALUE_KEYS + 1, 10]) {
        await put(wide, count);
        for (const text of [undefined, 'east']) {
          const at = `${count} columns, words: ${text}`;
          assert.deepEqual(await urns(text, 'EQUAL', ['latitude']), both, at);
          assert.deepEqual(await urns(text, 'EQUAL', ['col_9']), [wide], at);
          assert.deepEqual(await urns(text, 'EQUAL', [`col_${MAX_VALUE_KEYS}`]), count > MAX_VALUE_KEYS ? [wide] : [], at);
          assert.deepEqual(await urns(text, 'EQUAL', ['col_9'], true), [narrow], `negated, ${at}`);
          assert.deepEqual(await urns(text, 'CONTAIN', ['OW_RA']), both, `contains, ${at}`);
          assert.deepEqual(await urns(text, 'START_WITH', ['col_1']), both, `starts, ${at}`);
          assert.deepEqual(await urns(text, 'EXISTS', []), both, `exists, ${at}`);
        }
        const wildcard = await store.search.search({ ...query('/q fieldPaths: *l_9*'), paging: { start: 0, count: 10 } });
        assert.deepEqual(
          wildcard.hits.map((h) => h.urn).filter((u) => u === wide || u === narrow),
          [wide],
        );
        if (db.config.kind === 'postgres') {
          const keys = await keysOfWide();
          assert.equal(keys.includes(`'${OVERFLOW_KEY}'`), count > MAX_VALUE_KEYS, `the overflow mark, ${count} columns`);
          assert.equal(keys.includes(searchKey('fieldPaths', 'col_9')), count <= MAX_VALUE_KEYS, `a value key, ${count} columns`);
          assert.ok(keys.includes(presenceKey('fieldPaths')), 'the presence key either way');
        }
      }
    });

    it('field paths: every condition, alone and with words, follows each write (found through the keys)', async () => {
      const rivers = 'urn:li:dataset:(urn:li:dataPlatform:hive,geo.rivers,PROD)';
      const roads = 'urn:li:dataset:(urn:li:dataPlatform:kafka,geo.roads,PROD)';
      const put = (urn: string, aspect: string, value: Record<string, unknown>) =>
        store.aspects.write({ ops: [datasetOp(urn, aspect, value)], actor: ACTOR, now: Date.now() });
      await put(rivers, 'datasetProperties', { name: 'rivers', description: 'water of the north' });
      await put(rivers, 'schemaMetadata', columns('latitude', 'longitude', 'Flow_Rate'));
      await put(roads, 'datasetProperties', { name: 'roads', description: 'ways of the north' });
      await put(roads, 'schemaMetadata', columns('latitude', 'surface'));
      // (The suite's store holds another test's dataset with columns too: only these two are looked at.)
      const urns = async (text: string | undefined, filter: SearchFilter = []) =>
        (await store.search.search({ ...query(text, filter), paging: { start: 0, count: 10 } })).hits
          .map((h) => h.urn)
          .filter((u) => u === rivers || u === roads)
          .sort();
      const paths = (condition: string, values: string[], negated = false): SearchFilter => [
        [{ field: 'fieldPaths', condition, values, ...(negated ? { negated } : {}) }] as SearchFilter[number],
      ];
      const both = [rivers, roads].sort();
      for (const text of [undefined, 'north']) {
        assert.deepEqual(await urns(text, paths('EQUAL', ['latitude'])), both, `equal, words: ${text}`);
        assert.deepEqual(await urns(text, paths('EQUAL', ['surface'])), [roads]);
        assert.deepEqual(await urns(text, paths('EQUAL', ['flow_rate'])), [], 'equal is exact');
        assert.deepEqual(await urns(text, paths('IN', ['surface', 'Flow_Rate'])), both);
        assert.deepEqual(await urns(text, paths('EQUAL', ['surface'], true)), [rivers], 'negated');
        assert.deepEqual(await urns(text, paths('CONTAIN', ['ITUD'])), both, 'contains, folded');
        assert.deepEqual(await urns(text, paths('START_WITH', ['flow'])), [rivers]);
        assert.deepEqual(await urns(text, paths('END_WITH', ['face'])), [roads]);
        assert.deepEqual(await urns(text, paths('EXISTS', [])), both);
        assert.deepEqual(await urns(text, paths('GREATER_THAN', ['r'])), [roads]);
        assert.deepEqual(await urns(text, paths('CONTAIN', ['nowhere'])), []);
        assert.deepEqual(
          await urns(text, [
            [
              { field: 'fieldPaths', values: ['latitude'] },
              { field: 'platform', values: ['urn:li:dataPlatform:kafka'] },
            ],
          ]),
          [roads],
          'with a facet field',
        );
      }
      // Facet fields and has-value flags (SQLite finds the flags through its keys), with conditions the keys' own
      // expression does not take, alone and with words.
      await put(rivers, 'globalTags', { tags: [{ tag: 'urn:li:tag:water' }] });
      await put(roads, 'deprecation', { deprecated: true, note: '', actor: ACTOR });
      const one = (field: string, condition: string, values: string[], negated = false): SearchFilter => [
        [{ field, condition, values, ...(negated ? { negated } : {}) }] as SearchFilter[number],
      ];
      for (const text of [undefined, 'north']) {
        assert.deepEqual(await urns(text, one('tags', 'CONTAIN', ['WATER'])), [rivers], `tags contain, words: ${text}`);
        assert.deepEqual(await urns(text, one('tags', 'EXISTS', [])), [rivers]);
        assert.deepEqual(await urns(text, one('tags', 'EXISTS', [], true)), [roads]);
        assert.deepEqual(await urns(text, one('tags', 'EQUAL', ['urn:li:tag:water'], true)), [roads]);
        assert.deepEqual(await urns(text, one('platform', 'END_WITH', ['kafka'])), [roads]);
        assert.deepEqual(await urns(text, one('hasTags', 'EQUAL', ['true'])), [rivers]);
        assert.deepEqual(await urns(text, one('hasTags', 'EQUAL', ['false'])), [roads], 'a false flag');
        assert.deepEqual(await urns(text, one('deprecated', 'EQUAL', ['false'])), [rivers]);
        assert.deepEqual(await urns(text, [[{ field: 'deprecationState', values: ['DEPRECATED'] }]]), [roads]);
      }
      assert.deepEqual(await urns('/q _exists_:tags'), [rivers]);
      assert.deepEqual(await urns('/q tags: *wat*'), [rivers]);
      await put(rivers, 'globalTags', { tags: [] });
      assert.deepEqual(await urns('north', one('tags', 'EXISTS', [])), []);
      assert.deepEqual(await urns('north', one('hasTags', 'EQUAL', ['true'])), []);

      assert.deepEqual(await urns('/q fieldPaths: *rat*'), [rivers], 'a wildcard');
      assert.deepEqual(await urns('/q _exists_:fieldPaths'), both);
      assert.deepEqual(await urns('/q -_exists_:fieldPaths'), []);

      // A column renamed: the old path is no entity's any more (though once seen), the new one is found.
      assert.deepEqual(await urns(undefined, paths('EQUAL', ['false'])), both, 'a false value: no path folded to true');
      await put(roads, 'schemaMetadata', columns('latitude', 'paving', 'True'));
      for (const text of [undefined, 'north']) {
        assert.deepEqual(await urns(text, paths('EQUAL', ['false'])), [rivers], `a false value, words: ${text}`);
        assert.deepEqual(await urns(text, [[{ field: 'platform', values: ['urn:li:dataPlatform:kafka'] }, ...paths('EQUAL', ['false'])[0]!]]), []);
      }
      assert.deepEqual(await urns(undefined, paths('EQUAL', ['surface'])), []);
      assert.deepEqual(await urns('north', paths('END_WITH', ['face'])), []);
      assert.deepEqual(await urns(undefined, paths('START_WITH', ['pav'])), [roads]);
      // A column dropped, none added.
      await put(rivers, 'schemaMetadata', columns('latitude', 'longitude'));
      assert.deepEqual(await urns(undefined, paths('START_WITH', ['flow'])), []);
      assert.deepEqual(await urns(undefined, paths('EQUAL', ['longitude'])), [rivers]);
      // Many distinct values one condition selects: each value's documents looked up.
      await put(rivers, 'schemaMetadata', columns('latitude', 'longitude', ...Array.from({ length: 300 }, (_, i) => `wide_${i}`)));
      assert.deepEqual(await urns('north', paths('START_WITH', ['wide_'])), [rivers]);
      assert.deepEqual(await urns(undefined, paths('CONTAIN', ['IDE_29'])), [rivers]);
      await put(rivers, 'schemaMetadata', columns('latitude', 'longitude'));
      assert.deepEqual(await urns(undefined, paths('START_WITH', ['wide_'])), []);
      // The schema gone: no paths, not among those that have them.
      await store.aspects.deleteAspect(rivers, 'schemaMetadata');
      assert.deepEqual(await urns(undefined, paths('EQUAL', ['latitude'])), [roads]);
      assert.deepEqual(await urns('north', paths('EXISTS', [])), [roads]);
      assert.deepEqual(await urns('north', paths('EXISTS', [], true)), [rivers]);
      // Soft-deleted: left out unless asked for; deleted: gone.
      await put(roads, 'status', { removed: true });
      assert.deepEqual(await urns(undefined, paths('EQUAL', ['paving'])), []);
      assert.equal((await store.search.count({ ...query(undefined, paths('EQUAL', ['paving'])), includeSoftDeleted: true })) ?? 0, 1);
      await store.aspects.deleteEntity(roads);
      assert.equal((await store.search.count({ ...query(undefined, paths('EQUAL', ['paving'])), includeSoftDeleted: true })) ?? 0, 0);
    });

    it('autocomplete names: those starting with the text in name order (not urn order), the soft-deleted left out, at most the limit', async () => {
      const named = async (urn: string, name: string) =>
        store.aspects.write({
          ops: [{ kind: 'aspect', entityType: 'dataset', urn, aspect: 'datasetProperties', value: { name }, systemMetadata: null }],
          actor: ACTOR,
          now: Date.now(),
        });
      const first = 'urn:li:dataset:(urn:li:dataPlatform:hive,aaa.reports,PROD)';
      const second = 'urn:li:dataset:(urn:li:dataPlatform:hive,mmm.reports,PROD)';
      const gone = 'urn:li:dataset:(urn:li:dataPlatform:hive,zzz.reports,PROD)';
      await named(first, 'Report_Zulu');
      await named(second, 'report_alpha');
      await named(gone, 'report_aaa');
      await store.aspects.write({
        ops: [{ kind: 'aspect', entityType: 'dataset', urn: gone, aspect: 'status', value: { removed: true }, systemMetadata: null }],
        actor: ACTOR,
        now: Date.now(),
      });
      const names = async (prefix: string, limit: number) =>
        (await store.search.namesStartingWith(query(undefined), prefix, limit)).map((h) => h.name);
      // Folded, 'report_alpha' sorts before 'report_zulu' although its urn sorts after; the soft-deleted one is not read.
      assert.deepEqual(await names('REP', 10), ['report_alpha', 'Report_Zulu']);
      assert.deepEqual(await names('rep', 1), ['report_alpha']);
      assert.deepEqual(await names('reportz', 10), []);
    });

    if (backend.name === 'sqlite') {
      it('rewrites only the rows whose values changed (SQLite: an unchanged text row is not written again)', async () => {
        // Each text row's id names its entity and field (migration 24): the row inserted is the one that changed.
        await execElsewhere(
          db,
          `CREATE TABLE test_text_inserts (id INTEGER);
           CREATE TRIGGER test_text_inserted AFTER INSERT ON search_text BEGIN INSERT INTO test_text_inserts VALUES (NEW.id); END;`,
        );
        const fieldsInserted = () =>
          onConnection(db, {
            sqlite: (conn) =>
              (
                conn
                  .prepare(
                    `SELECT s.field FROM test_text_inserts i JOIN search_slots s ON s.id = i.id % 65536
                      JOIN search_docs d ON d.id = i.id / 65536 WHERE d.urn = ? AND s.aspect = ? ORDER BY s.field`,
                  )
                  .all(DS, 'datasetProperties') as Array<{ field: string }>
              ).map((r) => r.field),
            postgres: async () => [] as string[],
          });
        await write(store, 'datasetProperties', { name: 'places', description: 'harbours of the west' });
        assert.deepEqual(await fieldsInserted(), ['description']);
        assert.equal(await count(store, 'harbours'), 1);
        assert.equal(await count(store, 'towns'), 0);
        await execElsewhere(db, 'DROP TRIGGER test_text_inserted; DROP TABLE test_text_inserts;');
      });
    }

    it('counts the entity types and deprecation states of the matches, a type asked and not matched left out', async () => {
      const chart = 'urn:li:chart:(looker,quartz_chart)';
      const one = 'urn:li:dataset:(urn:li:dataPlatform:hive,quartz.places,PROD)';
      const other = 'urn:li:dataset:(urn:li:dataPlatform:hive,quartz.paths,PROD)';
      const past = 'urn:li:dataset:(urn:li:dataPlatform:hive,quartz.gone,PROD)';
      await store.aspects.write({
        ops: [
          datasetOp(one, 'datasetKey', { platform: 'urn:li:dataPlatform:hive', name: 'quartz.places', origin: 'PROD' }),
          datasetOp(one, 'deprecation', { deprecated: true, note: 'old', actor: ACTOR }),
          datasetOp(other, 'datasetKey', { platform: 'urn:li:dataPlatform:hive', name: 'quartz.paths', origin: 'PROD' }),
          datasetOp(past, 'datasetKey', { platform: 'urn:li:dataPlatform:hive', name: 'quartz.gone', origin: 'PROD' }),
          datasetOp(past, 'deprecation', { deprecated: true, note: 'gone', actor: ACTOR, decommissionTime: 1000 }),
          {
            kind: 'aspect',
            entityType: 'chart',
            urn: chart,
            aspect: 'chartInfo',
            value: {
              title: 'quartz chart',
              description: 'quartz',
              lastModified: { created: { time: 0, actor: ACTOR }, lastModified: { time: 0, actor: ACTOR } },
            },
            systemMetadata: null,
          },
        ],
        actor: ACTOR,
        now: Date.now(),
      });
      const facetsOf = async (types: string[]) => {
        const result = await store.search.search({
          ...query('quartz'),
          entityTypes: types,
          paging: { start: 0, count: 10 },
          withTotal: true,
          facets: ['_entityType', 'deprecationState'],
        });
        return { total: result.total, ...Object.fromEntries([...result.facets!].map(([field, values]) => [field, Object.fromEntries(values)])) };
      };
      assert.deepEqual(await facetsOf(['dataset', 'chart', 'dashboard']), {
        total: 4,
        _entityType: { dataset: 3, chart: 1 },
        deprecationState: { ACTIVE: 2, DEPRECATED: 1, OVERDUE: 1 },
      });
      assert.deepEqual(await facetsOf(['chart']), { total: 1, _entityType: { chart: 1 }, deprecationState: { ACTIVE: 1 } });
      assert.deepEqual(await facetsOf([]), { total: 0, _entityType: {}, deprecationState: {} }, 'no type asked: none matches');
    });

    it('a match is of the type it was written as, whatever the case of the type in its urn, and is gone with its entity', async () => {
      // The writes accept a urn whose type is the registry's name in another case (catalog.ts), and keep the name.
      const job = 'urn:li:datajob:(urn:li:dataFlow:(airflow,nightly,PROD),load_zircon)';
      await store.aspects.write({
        ops: [
          {
            kind: 'aspect',
            entityType: 'dataJob',
            urn: job,
            aspect: 'dataJobInfo',
            value: { name: 'load_zircon', type: 'COMMAND', customProperties: {} },
            systemMetadata: null,
          },
        ],
        actor: ACTOR,
        now: Date.now(),
      });
      const hits = async (text: string, types: string[]) =>
        (await store.search.search({ ...query(text), entityTypes: types, paging: { start: 0, count: 10 } })).hits.map(
          (h) => `${h.entityType} ${h.urn}`,
        );
      assert.deepEqual(await hits('zircon', ['dataJob']), [`dataJob ${job}`], 'a word');
      assert.deepEqual(await hits('zircon', ['dataset', 'dataJob']), [`dataJob ${job}`], 'among two types');
      assert.deepEqual(await hits('/q name: *zirc*', ['dataJob']), [`dataJob ${job}`], 'a field query');
      assert.deepEqual(await hits('zircon', ['dataset']), [], 'not as another type');
      assert.deepEqual(await hits('zircon', []), [], 'no type asked');
      await store.aspects.deleteEntity(job);
      assert.deepEqual(await hits('zircon', ['dataJob']), [], 'gone with its entity');
    });
  });
}

for (const backend of await backends()) {
  describe(`search index on ${backend.name}: a database from before the search keys`, { skip: backend.skip }, () => {
    it('gets the keys of what it holds: its facet values and soft deletions filter as before', async () => {
      const db = await backend.create();
      try {
        const kept = 'urn:li:dataset:(urn:li:dataPlatform:hive,old.kept,PROD)';
        const gone = 'urn:li:dataset:(urn:li:dataPlatform:hive,old.gone,PROD)';
        let store = await openStore(db.config);
        for (const urn of [kept, gone]) {
          await store.aspects.write({
            ops: [
              datasetOp(urn, 'datasetKey', { platform: 'urn:li:dataPlatform:hive', name: urn, origin: 'PROD' }),
              datasetOp(urn, 'globalTags', { tags: [{ tag: 'urn:li:tag:pii' }] }),
              ...(urn === gone ? [datasetOp(urn, 'status', { removed: true })] : []),
            ],
            actor: ACTOR,
            now: Date.now(),
          });
        }
        await store.database.close();
        // As the release before the keys left it: no keys table, neither the migrations that write them recorded.
        const versions =
          backend.name === 'sqlite'
            ? [SQLITE_SEARCH_KEYS_MIGRATION, SQLITE_TYPE_KEYS_MIGRATION]
            : [POSTGRES_SEARCH_KEYS_MIGRATION, POSTGRES_TYPE_KEYS_MIGRATION, POSTGRES_VALUE_KEYS_MIGRATION];
        // The keys' migrations read the facet rows each engine's migration 30 replaced with lists: they are back too.
        await execElsewhere(
          db,
          `${BEFORE_FACET_LISTS[db.config.kind]} DROP TABLE search_keys; DELETE FROM schema_migrations WHERE version IN (${versions.join(', ')});`,
        );
        store = await openStore(db.config);
        try {
          const urns = async (filter: SearchFilter, includeSoftDeleted = false) =>
            (await store.search.search({ ...query(undefined, filter), includeSoftDeleted, paging: { start: 0, count: 10 } })).hits
              .map((h) => h.urn)
              .sort();
          const pii = { field: 'tags', values: ['urn:li:tag:pii'] };
          assert.deepEqual(await urns([[pii, { field: 'platform', values: ['urn:li:dataPlatform:hive'] }]]), [kept]);
          assert.deepEqual(await urns([[pii]], true), [gone, kept]);
          assert.deepEqual(await urns([[pii, { field: 'removed', values: ['true'] }]]), [gone]);
        } finally {
          await store.database.close();
        }
      } finally {
        await db.drop();
      }
    });
  });
}

const GONE = 'urn:li:dataset:(urn:li:dataPlatform:hive,geo.gone,PROD)';

/** As the release before the field paths' keys left a database: field paths in the index on values (and PostgreSQL's trigram index), keys without them, no table of distinct values. */
const BEFORE_VALUE_KEYS = {
  sqlite: `${BEFORE_FACET_LISTS.sqlite} DROP TABLE search_key_values; DELETE FROM search_keys; DROP INDEX search_fields_by_value;
    CREATE INDEX search_fields_by_value ON search_fields (field, folded, urn);
    ALTER TABLE search_docs DROP COLUMN removed; ALTER TABLE search_docs DROP COLUMN names;
    DELETE FROM schema_migrations WHERE version >= ${VALUE_KEYS_MIGRATION};`,
  postgres: `${BEFORE_FACET_LISTS.postgres} DROP TABLE search_key_values; DELETE FROM search_keys; DROP INDEX search_fields_by_value;
    CREATE INDEX search_fields_by_value ON search_fields (field, folded, urn);
    DROP INDEX IF EXISTS search_fields_trigram; CREATE INDEX search_fields_trigram ON search_fields USING GIN (folded gin_trgm_ops);
    DELETE FROM schema_migrations WHERE version >= ${POSTGRES_VALUE_KEYS_MIGRATION};`,
};

for (const backend of await backends()) {
  describe(`search index on ${backend.name}: a database from before the field paths keys`, { skip: backend.skip }, () => {
    it('finds its field paths through the keys: equal, contains, exists; its facet filters as before; the keys the writes write', async () => {
      const db = await backend.create();
      try {
        let store = await openStore(db.config);
        await store.aspects.write({
          ops: [
            datasetOp(DS, 'datasetKey', { platform: 'urn:li:dataPlatform:hive', name: 'geo.places', origin: 'PROD' }),
            datasetOp(DS, 'schemaMetadata', columns('latitude', 'zip_code')),
            datasetOp(GONE, 'datasetKey', { platform: 'urn:li:dataPlatform:hive', name: 'geo.gone', origin: 'PROD' }),
            datasetOp(GONE, 'schemaMetadata', columns('zip_code')),
            datasetOp(GONE, 'status', { removed: true }),
          ],
          actor: ACTOR,
          now: Date.now(),
        });
        await store.database.close();
        const written = await storedKeys(db);
        // The keys the engine wrote are the ones JavaScript computes for a filter (PostgreSQL writes them in SQL).
        assert.ok(written.join(' ').includes(searchKey('fieldPaths', 'zip_code')), 'a value key');
        assert.ok(written.join(' ').includes(presenceKey('fieldPaths')), 'a presence key');
        await execElsewhere(db, BEFORE_VALUE_KEYS[db.config.kind]);
        store = await openStore(db.config);
        try {
          const paths = (condition: string, values: string[]) => count(store, undefined, [[{ field: 'fieldPaths', condition, values }]]);
          assert.equal(await paths('EQUAL', ['zip_code']), 1);
          assert.equal(await paths('EQUAL', ['zip']), 0);
          assert.equal(await paths('CONTAIN', ['TITU']), 1);
          assert.equal(await paths('EXISTS', []), 1);
          assert.equal(await count(store, '/q fieldPaths: *itud*'), 1);
          assert.equal(await count(store, undefined, [[{ field: 'platform', values: ['urn:li:dataPlatform:hive'] }]]), 1);
          assert.equal(await count(store, undefined, [[{ field: 'hasDescription', values: ['false'] }]]), 1);
          const all = { ...query(undefined, [[{ field: 'fieldPaths', values: ['zip_code'] }]]), includeSoftDeleted: true };
          assert.equal(await store.search.count(all), 2, 'the soft-deleted one too, when asked');
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

for (const backend of await backends()) {
  describe(`search index on ${backend.name}: a rebuild that folds values differently`, { skip: backend.skip }, () => {
    it('gives the distinct field paths their new folded form, which conditions then read', async () => {
      const db = await backend.create();
      try {
        let store = await openStore(db.config);
        await store.aspects.write({ ops: [datasetOp(DS, 'schemaMetadata', columns('Zip_Code'))], actor: ACTOR, now: Date.now() });
        await store.database.close();
        // As an older release's folding left them, in the values and in the table of distinct values.
        await execElsewhere(
          db,
          `UPDATE search_fields SET folded = 'old' WHERE field = 'fieldPaths'; UPDATE search_key_values SET folded = 'old' WHERE field = 'fieldPaths';`,
        );
        store = await openStore(db.config);
        try {
          let state = await store.search.restartSearchIndexBuild();
          while (!state.complete) state = await store.search.continueSearchIndexBuild(100);
          const paths = (condition: string, values: string[]) => count(store, undefined, [[{ field: 'fieldPaths', condition, values }]]);
          assert.equal(await paths('IEQUAL', ['ZIP_CODE']), 1);
          assert.equal(await paths('START_WITH', ['zip']), 1);
        } finally {
          await store.database.close();
        }
      } finally {
        await db.drop();
      }
    });
  });
}

describe('search index on SQLite: a database from before the clustered search_fields', () => {
  it('keeps the values it had indexed (a duplicate kept once), and builds the index again over every aspect', async () => {
    const db = await createSqliteDatabase();
    try {
      await writeOldDatabase(db, CLUSTERED_SEARCH_FIELDS_MIGRATION, {
        sqlite: (conn) => {
          conn.prepare("INSERT INTO entities (urn, entity_type, created_on, created_by) VALUES (?, 'dataset', 0, 'test')").run(DS);
          conn
            .prepare(
              "INSERT INTO aspects (urn, aspect, version, entity_type, metadata, created_on, created_by) VALUES (?, 'globalTags', 0, 'dataset', ?, 0, 'test')",
            )
            .run(DS, JSON.stringify({ tags: [{ tag: 'urn:li:tag:pii' }] }));
          const value = conn.prepare(
            "INSERT INTO search_fields (urn, aspect, field, value, folded, num, is_name) VALUES (?, 'globalTags', ?, ?, ?, NULL, 0)",
          );
          value.run(DS, 'tags', 'urn:li:tag:pii', 'urn:li:tag:pii');
          value.run(DS, 'tags', 'urn:li:tag:pii', 'urn:li:tag:pii');
          value.run(DS, 'hasTags', 'true', 'true');
          conn
            .prepare(
              "INSERT INTO search_text (urn, aspect, field, boost, by_default, words) VALUES (?, 'globalTags', 'tags', 1, 1, 'urn li tag pii')",
            )
            .run(DS);
          conn
            .prepare("INSERT INTO settings (key, value) VALUES ('search_index_build', ?)")
            .run(JSON.stringify({ urn: DS, aspect: 'globalTags', done: 1, total: 1 }));
        },
        postgres: async () => undefined,
      });
      const store = await openStore(db.config);
      try {
        // Migration 23 (documents gained structuredProperties entries) restarts the build over every stored aspect.
        assert.deepEqual(await store.search.searchIndexBuild(), { complete: false, done: 0, total: 1 });
        const result = await store.search.search({
          ...query(undefined, [[{ field: 'tags', values: ['urn:li:tag:pii'] }]]),
          paging: { start: 0, count: 10 },
          withTotal: true,
          facets: ['tags', 'hasTags'],
        });
        assert.equal(result.total, 1);
        assert.deepEqual(Object.fromEntries(result.facets!.get('tags') ?? []), { 'urn:li:tag:pii': 1 });
        assert.equal(await count(store, 'pii'), 1);
        assert.deepEqual(await store.search.continueSearchIndexBuild(1000), { complete: true, done: 1, total: 1 });
        assert.deepEqual(
          ((await store.search.indexedValues([DS])).get(DS) ?? []).map((v) => `${v.field}=${v.value}`),
          ['hasTags=true', 'tags=urn:li:tag:pii'],
        );
      } finally {
        await store.database.close();
      }
    } finally {
      await db.drop();
    }
  });
});
