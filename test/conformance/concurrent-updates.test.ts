import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { openStore } from '../../src/storage/open-store.ts';
import type { Store, WriteOp } from '../../src/storage/store.ts';
import { backends, type TestDatabase } from '../support/databases.ts';

const URN = 'urn:li:dataset:(urn:li:dataPlatform:hive,db.contended,PROD)';
const WRITES_EACH = 40;

const appendTag = (tag: string): WriteOp => ({
  kind: 'aspect',
  entityType: 'dataset',
  urn: URN,
  aspect: 'globalTags',
  value: {},
  systemMetadata: null,
  update: (current) => ({ tags: [...((current?.tags as unknown[]) ?? []), { tag }] }),
});

for (const backend of await backends()) {
  describe(`concurrent read-modify-writes: ${backend.name}`, { skip: backend.skip }, () => {
    let db: TestDatabase;
    let stores: Store[] = [];
    before(async () => {
      db = await backend.create();
      // Two stores, each with its own connections, as two processes sharing the database have.
      stores = [await openStore(db.config), await openStore(db.config)];
    });
    after(async () => {
      for (const s of stores) await s.database.close();
      await db?.drop();
    });

    it('loses no update when two stores append to the same missing aspect at once', async () => {
      const writes = stores.flatMap((store, s) =>
        Array.from({ length: WRITES_EACH }, (_, i) => store.aspects.write({ ops: [appendTag(`urn:li:tag:s${s}-${i}`)], actor: 'a', now: i })),
      );
      const outcomes = (await Promise.all(writes)).flat();
      assert.equal(outcomes.filter((o) => o.outcome === 'created').length, 1);
      const tags = ((await stores[0]!.aspects.getAspect(URN, 'globalTags'))?.value.tags as Array<{ tag: string }>).map((t) => t.tag);
      assert.equal(tags.length, 2 * WRITES_EACH);
      assert.equal(new Set(tags).size, 2 * WRITES_EACH);
      assert.equal((await stores[1]!.aspects.getAspectHistory(URN, 'globalTags', 1000)).length, 2 * WRITES_EACH);
    });

    it('keeps every value as a version when two stores replace the same plain aspect at once', async () => {
      const plain = (note: string): WriteOp => ({
        kind: 'aspect',
        entityType: 'dataset',
        urn: URN,
        aspect: 'deprecation',
        value: { deprecated: true, note },
        systemMetadata: null,
      });
      const writes = stores.flatMap((store, s) =>
        Array.from({ length: WRITES_EACH }, (_, i) => store.aspects.write({ ops: [plain(`s${s}-${i}`)], actor: 'a', now: i })),
      );
      const outcomes = (await Promise.all(writes)).flat();
      assert.equal(outcomes.filter((o) => o.outcome === 'created').length, 1);
      const history = await stores[1]!.aspects.getAspectHistory(URN, 'deprecation', 1000);
      assert.equal(new Set(history.map((a) => a.value.note)).size, 2 * WRITES_EACH);
      assert.deepEqual(
        history.map((a) => a.version).sort((a, b) => a - b),
        Array.from({ length: 2 * WRITES_EACH }, (_, i) => i),
      );
    });

    it("filters on an entity's facet values as they stand when two stores write different aspects of it at once", async () => {
      // Its search keys gather every aspect's values: one store's tags and the other's platform both count.
      const urns = Array.from({ length: WRITES_EACH }, (_, i) => `urn:li:dataset:(urn:li:dataPlatform:hive,db.both${i},PROD)`);
      const op = (urn: string, aspect: string, value: Record<string, unknown>): WriteOp => ({
        kind: 'aspect',
        entityType: 'dataset',
        urn,
        aspect,
        value,
        systemMetadata: null,
      });
      await Promise.all(
        urns.flatMap((urn, i) => [
          stores[0]!.aspects.write({ ops: [op(urn, 'globalTags', { tags: [{ tag: 'urn:li:tag:both' }] })], actor: 'a', now: i }),
          stores[1]!.aspects.write({
            ops: [op(urn, 'ownership', { owners: [{ owner: 'urn:li:corpuser:both', type: 'DATAOWNER' }], lastModified: { time: 0, actor: 'a' } })],
            actor: 'a',
            now: i,
          }),
        ]),
      );
      const found = await stores[0]!.search.count({
        entityTypes: ['dataset'],
        filter: [
          [
            { field: 'tags', values: ['urn:li:tag:both'] },
            { field: 'owners', values: ['urn:li:corpuser:both'] },
          ],
        ],
        includeSoftDeleted: false,
        sort: [],
      });
      assert.equal(found, urns.length);
    });
  });
}
