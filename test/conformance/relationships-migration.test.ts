import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { openStore } from '../../src/storage/open-store.ts';
import { RELATIONSHIPS_MIGRATION } from '../../src/storage/postgres/migrations.ts';
import type { Store } from '../../src/storage/store.ts';
import { backends, type TestDatabase } from '../support/databases.ts';
import { writeOldDatabase } from '../support/old-database.ts';

// A database written before the relationship index existed gets the edges of the aspects it already holds, and the
// soft deletions of its status aspects, from the migration that creates the index.

const ds = (name: string) => `urn:li:dataset:(urn:li:dataPlatform:hive,old.${name},PROD)`;
/** Latest and older versions, as the aspect table holds them: only version 0 declares the index. */
const ROWS: ReadonlyArray<readonly [urn: string, aspect: string, version: number, value: unknown]> = [
  [ds('a'), 'upstreamLineage', 0, { upstreams: [{ dataset: ds('up'), type: 'COPY' }] }],
  [ds('a'), 'upstreamLineage', 1, { upstreams: [{ dataset: ds('gone'), type: 'COPY' }] }],
  [ds('a'), 'ownership', 0, { owners: [{ owner: 'urn:li:corpuser:jdoe', type: 'DATAOWNER' }] }],
  [ds('b'), 'upstreamLineage', 0, { upstreams: [{ dataset: ds('up'), type: 'COPY' }] }],
  [ds('b'), 'status', 0, { removed: true }],
  ...Array.from({ length: 1200 }, (_, i) => [ds(`many${i}`), 'globalTags', 0, { tags: [{ tag: 'urn:li:tag:bulk' }] }] as const),
];

const ASPECT_ROW =
  "INSERT INTO aspects (urn, aspect, version, entity_type, metadata, created_on, created_by) VALUES ($1, $2, $3, 'dataset', $4, 0, 'test')";

/** The rows as the release before the index wrote them. */
const writeOld = (db: TestDatabase) =>
  writeOldDatabase(db, RELATIONSHIPS_MIGRATION, {
    sqlite: (conn) => {
      const insert = conn.prepare(ASPECT_ROW.replace(/\$\d/g, '?'));
      for (const [urn, aspect, version, value] of ROWS) insert.run(urn, aspect, version, JSON.stringify(value));
    },
    postgres: async (client) => {
      for (const [urn, aspect, version, value] of ROWS) await client.query(ASPECT_ROW, [urn, aspect, version, JSON.stringify(value)]);
    },
  });

for (const backend of await backends()) {
  describe(`relationship index of an existing database: ${backend.name}`, { skip: backend.skip }, () => {
    let db: TestDatabase;
    let store: Store;
    before(async () => {
      db = await backend.create();
      await writeOld(db);
      store = await openStore(db.config);
    });
    after(async () => {
      await store?.database.close();
      await db?.drop();
    });

    const related = async (urn: string, direction: 'OUTGOING' | 'INCOMING') =>
      (await store.relationships.relatedEntities({ urn, direction, types: [], start: 0, count: 10 })).relationships.map((r) =>
        direction === 'OUTGOING' ? r.destination : r.source,
      );

    it("indexes the latest version of every stored aspect, never an older one's", async () => {
      assert.deepEqual(await related(ds('a'), 'OUTGOING'), ['urn:li:corpuser:jdoe', ds('up')]);
      assert.deepEqual(await related(ds('gone'), 'INCOMING'), []);
    });

    it('hides the edges of entities whose stored status is removed', async () => {
      assert.deepEqual(await related(ds('up'), 'INCOMING'), [ds('a')]);
      const all = await store.relationships.scanRelationships({ where: [[{ source: [ds('b')] }]], includeSoftDeleted: true, limit: 10 });
      assert.deepEqual(
        all.map((r) => r.destination),
        [ds('up')],
      );
    });

    it('indexes more aspects than one backfill page holds', async () => {
      const page = await store.relationships.relatedEntities({
        urn: 'urn:li:tag:bulk',
        direction: 'INCOMING',
        types: ['TaggedWith'],
        start: 0,
        count: 1,
      });
      assert.equal(page.total, 1200);
    });
  });
}
