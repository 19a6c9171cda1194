import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { readsFrom, routeReads } from '../../src/storage/compose-store.ts';
import type { Store, WriteOp } from '../../src/storage/store.ts';
import { backends } from '../support/databases.ts';
import { useStore } from '../support/lifecycle.ts';

const URN = 'urn:li:dataset:(urn:li:dataPlatform:hive,db.routed,PROD)';
const status: WriteOp = { kind: 'aspect', entityType: 'dataset', urn: URN, aspect: 'status', value: { removed: false }, systemMetadata: null };

for (const backend of await backends()) {
  describe(`reads routed to another database: ${backend.name}`, { skip: backend.skip }, () => {
    let primary: Store;
    let replica: Store;
    useStore(backend, (s) => (primary = s));
    useStore(backend, (s) => (replica = s));

    it("answers a routed part's reads from the store named for them and sends its writes to the primary", async () => {
      const ports = routeReads(primary, { ...readsFrom(primary), aspects: replica });
      await ports.aspects.write({ ops: [status], actor: 'urn:li:corpuser:test', now: 1 });
      assert.deepEqual(await ports.aspects.existing([URN]), new Set());
      assert.deepEqual(await primary.aspects.existing([URN]), new Set([URN]));
      await replica.aspects.write({ ops: [status], actor: 'urn:li:corpuser:test', now: 2 });
      assert.deepEqual(await ports.aspects.existing([URN]), new Set([URN]));
    });

    it('hands out the primary part itself where reads stay on the primary', () => {
      const ports = routeReads(primary, { ...readsFrom(primary), aspects: replica });
      assert.equal(ports.timeseries, primary.timeseries);
      assert.notEqual(ports.aspects, primary.aspects);
    });
  });
}
