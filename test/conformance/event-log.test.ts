import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { openStore } from '../../src/storage/open-store.ts';
import type { LogEntry, Store, WriteOp } from '../../src/storage/store.ts';
import { backends, type TestDatabase } from '../support/databases.ts';

const VERSIONED = 'MetadataChangeLog_Versioned_v1';
const TIMESERIES = 'MetadataChangeLog_Timeseries_v1';
const PLATFORM = 'PlatformEvent_v1';
const GENERIC = 'com.linkedin.pegasus2avro.mxe.GenericAspect';
const urnOf = (name: string) => `urn:li:dataset:(urn:li:dataPlatform:hive,db.log.${name},PROD)`;
const aspect = (urn: string, name: string, value: Record<string, unknown>): WriteOp => ({
  kind: 'aspect',
  entityType: 'dataset',
  urn,
  aspect: name,
  value,
  systemMetadata: { runId: 'log-test', lastObserved: 1 },
});

/** What a consumer reads of an entry: the urn, aspect, change type, and values before and after. */
function read(e: LogEntry) {
  const v = JSON.parse(e.value);
  const json = (g: { [GENERIC]: { value: string } } | null) => (g ? JSON.parse(Buffer.from(g[GENERIC].value, 'latin1').toString()) : null);
  return [v.entityUrn.string, v.aspectName.string, v.changeType, json(v.previousAspectValue), json(v.aspect)];
}

for (const backend of await backends()) {
  describe(`the change log: ${backend.name}`, { skip: backend.skip }, () => {
    let db: TestDatabase;
    let store: Store;
    before(async () => {
      db = await backend.create();
      store = await openStore(db.config);
    });
    after(async () => {
      await store?.database.close();
      await db?.drop();
    });

    const since = async (topic: string, from: number) => store.changeEvents.readEventLog(topic, from, 1000);

    it('logs one entry per real change of a batch, in order, with the value replaced, and none for a value written again', async () => {
      const { next } = await store.changeEvents.eventLogBounds();
      const urn = urnOf('batch');
      await store.aspects.write({ ops: [aspect(urn, 'status', { removed: false })], actor: 'urn:li:corpuser:a', now: 10 });
      await store.aspects.write({ ops: [aspect(urn, 'status', { removed: false })], actor: 'urn:li:corpuser:a', now: 20 });
      await store.aspects.write({
        ops: [aspect(urn, 'status', { removed: true }), aspect(urn, 'globalTags', { tags: [{ tag: 'urn:li:tag:t' }] })],
        actor: 'urn:li:corpuser:b',
        now: 30,
      });
      const entries = await since(VERSIONED, next);
      assert.deepEqual(entries.map(read), [
        [urn, 'status', 'UPSERT', null, { removed: false }],
        [urn, 'status', 'UPSERT', { removed: false }, { removed: true }],
        [urn, 'globalTags', 'UPSERT', null, { tags: [{ tag: 'urn:li:tag:t' }] }],
      ]);
      for (let i = 1; i < entries.length; i++) assert.ok(entries[i]!.offset > entries[i - 1]!.offset);
      assert.deepEqual(
        entries.map((e) => e.createdAt),
        [10, 30, 30],
      );
      const events = (await since(PLATFORM, next)).map((e) => JSON.parse(Buffer.from(JSON.parse(e.value).payload.value, 'latin1').toString()));
      assert.deepEqual(
        events.map((e) => [e.category, e.operation, e.auditStamp.actor]),
        [
          ['LIFECYCLE', 'SOFT_DELETE', 'urn:li:corpuser:b'],
          ['TAG', 'ADD', 'urn:li:corpuser:b'],
        ],
      );
    });

    it('logs nothing of a batch that fails', async () => {
      const { next } = await store.changeEvents.eventLogBounds();
      const bad = { ...aspect(urnOf('failed'), 'status', {}), value: undefined as unknown as Record<string, unknown> };
      await assert.rejects(store.aspects.write({ ops: [aspect(urnOf('failed'), 'globalTags', { tags: [] }), bad], actor: 'x', now: 40 }));
      assert.deepEqual(await since(VERSIONED, next), []);
      assert.deepEqual(await since(PLATFORM, next), []);
    });

    it('logs timeseries events on their topic and a deletion with the value deleted', async () => {
      const { next } = await store.changeEvents.eventLogBounds();
      const urn = urnOf('deleted');
      await store.aspects.write({
        ops: [
          aspect(urn, 'status', { removed: false }),
          {
            kind: 'timeseries',
            entityType: 'dataset',
            aspect: 'datasetProfile',
            urn,
            timestampMillis: 1_700_000_000_000,
            docId: 'log-doc',
            event: { timestampMillis: 1_700_000_000_000, rowCount: 3 },
            systemMetadata: null,
          },
        ],
        actor: 'a',
        now: 50,
      });
      assert.deepEqual((await since(TIMESERIES, next)).map(read), [
        [urn, 'datasetProfile', 'UPSERT', null, { timestampMillis: 1_700_000_000_000, rowCount: 3 }],
      ]);
      await store.aspects.deleteEntity(urn);
      const deleted = (await since(VERSIONED, next)).map(read).filter((r) => r[2] === 'DELETE');
      assert.deepEqual(deleted, [[urn, 'status', 'DELETE', { removed: false }, null]]);
    });

    it('keeps offsets growing across a restart, and prunes by age from the oldest end', async () => {
      const before = await store.changeEvents.eventLogBounds();
      await store.database.close();
      store = await openStore(db.config);
      const after = await store.changeEvents.eventLogBounds();
      assert.deepEqual(after, before);
      await store.aspects.write({ ops: [aspect(urnOf('restart'), 'status', { removed: false })], actor: 'a', now: Date.now() });
      const [entry] = await since(VERSIONED, before.next);
      assert.ok(entry && entry.offset >= before.next);
      const pruned = await store.changeEvents.pruneEventLog(1000);
      assert.ok(pruned > 0);
      const bounds = await store.changeEvents.eventLogBounds();
      assert.ok(bounds.oldest !== null && bounds.oldest > before.oldest!);
      assert.equal(await store.changeEvents.eventLogOffsetSince(1000), bounds.oldest);
      assert.equal(await store.changeEvents.eventLogOffsetSince(Date.now() + 60_000), null);
    });
  });
}
