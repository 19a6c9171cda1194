import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import Database from 'better-sqlite3';
import pg from 'pg';
import { openStore } from '../../src/storage/open-store.ts';
import { PARTITION_MILLIS } from '../../src/storage/partitions.ts';
import { POSTGRES_MIGRATIONS } from '../../src/storage/postgres/migrations.ts';
import { SQLITE_MIGRATIONS } from '../../src/storage/sqlite/migrations.ts';
import type { EntityRollbackRequest, Store, WriteOp } from '../../src/storage/store.ts';
import { backends, type TestDatabase } from '../support/databases.ts';
import { useStore } from '../support/lifecycle.ts';

// The storage half of ingestion rollback: every aspect version records the run that wrote its value, a run's latest
// versions are found through an index, and one entity's rollback is one transaction.

const DAY0 = Date.UTC(2026, 2, 1);
let seq = 0;
const datasetUrn = (name: string) => `urn:li:dataset:(urn:li:dataPlatform:hive,runs.${name}${++seq},PROD)`;
const sm = (runId: string, lastObserved = 1) => ({ runId, lastObserved });

const aspectOp = (
  urn: string,
  aspect: string,
  value: Record<string, unknown>,
  runId: string,
  onlyIfAbsent = false,
): Extract<WriteOp, { kind: 'aspect' }> => ({
  kind: 'aspect',
  entityType: 'dataset',
  urn,
  aspect,
  value,
  systemMetadata: sm(runId),
  onlyIfAbsent,
});
const keyOp = (urn: string, runId: string) => aspectOp(urn, 'datasetKey', { name: urn }, runId, true);
const profileOp = (urn: string, ts: number, runId: string | null): WriteOp => ({
  kind: 'timeseries',
  entityType: 'dataset',
  aspect: 'datasetProfile',
  urn,
  timestampMillis: ts,
  docId: `${urn}@${ts}`,
  event: { timestampMillis: ts, rowCount: ts },
  systemMetadata: runId === null ? null : sm(runId),
});

const rollback = (urn: string, runId: string, created: EntityRollbackRequest['created'] = { kind: 'keep' }): EntityRollbackRequest => ({
  urn,
  runId,
  keyAspect: 'datasetKey',
  created,
  actor: 'urn:li:corpuser:__datahub_system',
  now: 99_000,
});

for (const backend of await backends()) {
  describe(`storage conformance, ingestion runs: ${backend.name}`, { skip: backend.skip }, () => {
    let store: Store;
    useStore(backend, (s) => (store = s));
    const write = (ops: WriteOp[], now: number, actor = 'urn:li:corpuser:ingest') => store.aspects.write({ ops, actor, now });
    const runAspects = async (runId: string, includeSoftDeleted = true) =>
      (await store.runs.findRunAspects({ runId, includeSoftDeleted, limit: 100 })).map((r) => `${r.urn} ${r.aspect}`);

    it('puts back the relationships of the versions a rollback restores, and drops those of what it removes', async () => {
      const urn = datasetUrn('edges');
      const [up1, up2] = [datasetUrn('up'), datasetUrn('up')];
      const lineage = (up: string) => ({ upstreams: [{ dataset: up, type: 'TRANSFORMED', auditStamp: { time: 0, actor: 'urn:li:corpuser:x' } }] });
      const downstreamOf = async () =>
        (await store.relationships.relatedEntities({ urn, direction: 'OUTGOING', types: ['DownstreamOf'], start: 0, count: 10 })).relationships.map(
          (r) => r.destination,
        );
      await write([keyOp(urn, 'edges-r1'), aspectOp(urn, 'upstreamLineage', lineage(up1), 'edges-r1')], 1000);
      await write(
        [aspectOp(urn, 'upstreamLineage', lineage(up2), 'edges-r2'), aspectOp(urn, 'globalTags', { tags: [{ tag: 'urn:li:tag:t' }] }, 'edges-r2')],
        2000,
      );
      assert.deepEqual(await downstreamOf(), [up2]);
      await store.runs.rollbackEntity(rollback(urn, 'edges-r2'));
      assert.deepEqual(await downstreamOf(), [up1]);
      assert.deepEqual(
        (await store.relationships.relatedEntities({ urn, direction: 'OUTGOING', types: ['TaggedWith'], start: 0, count: 10 })).relationships,
        [],
      );
    });

    it("keeps the run that wrote a value when another run sends the same value again, and takes the writer's on a new value", async () => {
      const urn = datasetUrn('sighting');
      await write([keyOp(urn, 'a1'), aspectOp(urn, 'status', { removed: false }, 'a1'), aspectOp(urn, 'globalTags', { tags: [] }, 'a1')], 1000);
      await write(
        [keyOp(urn, 'a2'), aspectOp(urn, 'status', { removed: false }, 'a2'), aspectOp(urn, 'globalTags', { tags: [{ tag: 'urn:li:tag:x' }] }, 'a2')],
        2000,
      );
      assert.deepEqual(await runAspects('a1'), [`${urn} datasetKey`, `${urn} status`]);
      assert.deepEqual(await runAspects('a2'), [`${urn} globalTags`]);
      // The sighting still records what DataHub records: the latest systemMetadata.
      assert.equal((await store.aspects.getAspect(urn, 'status'))?.systemMetadata?.runId, 'a2');
      assert.deepEqual(await store.runs.aspectRuns([urn, urn]), [
        { urn, aspect: 'datasetKey', runId: 'a1' },
        { urn, aspect: 'globalTags', runId: 'a2' },
        { urn, aspect: 'status', runId: 'a1' },
      ]);
    });

    it("lists a run's latest versions by urn and aspect, by offset or after a row, and without soft-deleted entities on request", async () => {
      const [a, b] = [datasetUrn('list-a'), datasetUrn('list-b')];
      await write(
        [keyOp(a, 'l1'), aspectOp(a, 'status', { removed: false }, 'l1'), keyOp(b, 'l1'), aspectOp(b, 'status', { removed: true }, 'l1')],
        3000,
      );
      const all = [`${a} datasetKey`, `${a} status`, `${b} datasetKey`, `${b} status`];
      assert.deepEqual(await runAspects('l1'), all);
      assert.deepEqual(await runAspects('l1', false), all.slice(0, 2));
      const page = await store.runs.findRunAspects({ runId: 'l1', includeSoftDeleted: true, offset: 1, limit: 2 });
      assert.deepEqual(
        page.map((r) => [r.urn, r.aspect, r.entityType, r.createdOn]),
        [
          [a, 'status', 'dataset', 3000],
          [b, 'datasetKey', 'dataset', 3000],
        ],
      );
      const after = await store.runs.findRunAspects({ runId: 'l1', includeSoftDeleted: true, after: { urn: a, aspect: 'status' }, limit: 10 });
      assert.deepEqual(
        after.map((r) => `${r.urn} ${r.aspect}`),
        all.slice(2),
      );
      assert.deepEqual(await runAspects('no-such-run'), []);
    });

    it('lists runs newest first with their row counts, paged, leaving out runs whose every row is soft-deleted unless asked', async () => {
      const [a, b] = [datasetUrn('runs-a'), datasetUrn('runs-b')];
      await write([keyOp(a, 'r-old'), aspectOp(a, 'status', { removed: false }, 'r-old')], 10_000);
      await write([keyOp(b, 'r-hidden'), aspectOp(b, 'status', { removed: true }, 'r-hidden')], 11_000);
      await write([aspectOp(a, 'globalTags', { tags: [] }, 'r-new')], 12_000);
      const runs = await store.runs.listRuns({ offset: 0, limit: 100, includeSoftDeleted: false });
      const ours = runs.filter((r) => r.runId.startsWith('r-'));
      assert.deepEqual(ours, [
        { runId: 'r-new', rows: 1, lastWrittenOn: 12_000 },
        { runId: 'r-old', rows: 2, lastWrittenOn: 10_000 },
      ]);
      const withSoft = (await store.runs.listRuns({ offset: 0, limit: 100, includeSoftDeleted: true })).filter((r) => r.runId.startsWith('r-'));
      assert.deepEqual(
        withSoft.map((r) => r.runId),
        ['r-new', 'r-hidden', 'r-old'],
      );
      const second = await store.runs.listRuns({ offset: 1, limit: 1, includeSoftDeleted: true });
      assert.equal(second.length, 1);
      assert.deepEqual(second[0], (await store.runs.listRuns({ offset: 0, limit: 2, includeSoftDeleted: true }))[1]);
    });

    it("restores the version an earlier run wrote exactly, deleting only the run's own versions above it", async () => {
      const urn = datasetUrn('restore');
      await write([keyOp(urn, 'r0'), aspectOp(urn, 'datasetProperties', { name: 'zero' }, 'r0')], 100, 'urn:li:corpuser:zero');
      await write([aspectOp(urn, 'datasetProperties', { name: 'one' }, 'r1')], 200, 'urn:li:corpuser:one');
      await write([aspectOp(urn, 'datasetProperties', { name: 'two-a' }, 'r2')], 300);
      await write([aspectOp(urn, 'datasetProperties', { name: 'two-b' }, 'r2')], 400);
      const before = await store.aspects.getAspect(urn, 'datasetProperties', 2);
      assert.deepEqual(before?.value, { name: 'one' });

      const result = await store.runs.rollbackEntity(rollback(urn, 'r2'));
      assert.deepEqual(result, { aspects: [{ aspect: 'datasetProperties', outcome: 'restored' }] });
      const latest = await store.aspects.getAspect(urn, 'datasetProperties');
      assert.deepEqual(
        [latest?.value, latest?.systemMetadata, latest?.createdOn, latest?.createdBy],
        [{ name: 'one' }, sm('r1'), 200, 'urn:li:corpuser:one'],
      );
      const history = await store.aspects.getAspectHistory(urn, 'datasetProperties', 10);
      assert.deepEqual(
        history.map((h) => [h.version, h.value.name]),
        [
          [0, 'one'],
          [1, 'zero'],
        ],
      );
      assert.deepEqual(await runAspects('r1'), [`${urn} datasetProperties`]);
      // Nothing of r2 is left, and rolling it back again changes nothing.
      assert.deepEqual(await runAspects('r2'), []);
      assert.deepEqual(await store.runs.rollbackEntity(rollback(urn, 'r2')), { aspects: [] });
      // The next write versions on top of what was restored.
      await write([aspectOp(urn, 'datasetProperties', { name: 'three' }, 'r3')], 500);
      assert.deepEqual(
        (await store.aspects.getAspectHistory(urn, 'datasetProperties', 10)).map((h) => [h.version, h.value.name]),
        [
          [0, 'three'],
          [2, 'one'],
          [1, 'zero'],
        ],
      );
    });

    it('removes an aspect the run created and leaves every aspect a later run wrote', async () => {
      const urn = datasetUrn('remove');
      await write([keyOp(urn, 'base'), aspectOp(urn, 'status', { removed: false }, 'base')], 100);
      await write([aspectOp(urn, 'globalTags', { tags: [] }, 'm1'), aspectOp(urn, 'ownership', { owners: [] }, 'm1')], 200);
      await write([aspectOp(urn, 'ownership', { owners: [{ owner: 'urn:li:corpuser:x', type: 'DATAOWNER' }] }, 'm2')], 300);
      const result = await store.runs.rollbackEntity(rollback(urn, 'm1'));
      assert.deepEqual(result, { aspects: [{ aspect: 'globalTags', outcome: 'removed' }] });
      assert.equal(await store.aspects.getAspect(urn, 'globalTags'), undefined);
      assert.equal((await store.aspects.getAspectHistory(urn, 'ownership', 10)).length, 2, "the later run's version and its history stay");
      assert.deepEqual(await store.aspects.existing([urn]), new Set([urn]));
    });

    it('keeps an entity the run created on a soft rollback, writing the given aspect, and rolls back the rest', async () => {
      const urn = datasetUrn('soft');
      await write([keyOp(urn, 's1'), aspectOp(urn, 'status', { removed: false }, 's1'), aspectOp(urn, 'globalTags', { tags: [] }, 's1')], 100);
      await write([aspectOp(urn, 'ownership', { owners: [] }, 'other')], 200);
      const write_ = { ...aspectOp(urn, 'status', { removed: true }, 'no-run-id-provided') };
      const result = await store.runs.rollbackEntity(rollback(urn, 's1', { kind: 'keep', write: write_ }));
      assert.deepEqual(result, {
        aspects: [
          { aspect: 'globalTags', outcome: 'removed' },
          { aspect: 'status', outcome: 'removed' },
          { aspect: 'datasetKey', outcome: 'kept' },
        ],
      });
      assert.deepEqual(
        (await store.aspects.getLatestAspects(urn)).map((a) => [a.aspect, a.value, a.createdOn]),
        [
          ['datasetKey', { name: urn }, 100],
          ['ownership', { owners: [] }, 200],
          ['status', { removed: true }, 99_000],
        ],
      );
      assert.deepEqual(await runAspects('s1', false), []);
      assert.deepEqual(await runAspects('s1', true), [`${urn} datasetKey`]);
    });

    it("deletes an entity the run created whole on a hard rollback, with every run's aspects and its timeseries rows", async () => {
      const [urn, other] = [datasetUrn('hard'), datasetUrn('hard-other')];
      await write([keyOp(urn, 'h1'), aspectOp(urn, 'status', { removed: false }, 'h1'), profileOp(urn, DAY0, 'h1'), keyOp(other, 'h1')], 100);
      await write(
        [aspectOp(urn, 'ownership', { owners: [] }, 'h2'), aspectOp(urn, 'status', { removed: true }, 'h2'), profileOp(urn, DAY0 + 1, 'h2')],
        200,
      );
      const result = await store.runs.rollbackEntity(rollback(urn, 'h1', { kind: 'delete', revokeIdentity: false }));
      assert.deepEqual(result, { aspects: [{ aspect: 'datasetKey', outcome: 'removed' }], entityDeleted: { aspectRows: 4, timeseriesRows: 2 } });
      assert.deepEqual(await store.aspects.existing([urn, other]), new Set([other]));
      assert.deepEqual(await store.aspects.getLatestAspects(urn), []);
      assert.deepEqual(await store.timeseries.queryTimeseries({ entityType: 'dataset', aspect: 'datasetProfile', urn, limit: 10 }), []);
    });

    it("deletes a run's timeseries rows in every index and day, and nothing else, keeping the partition counts", async () => {
      const urn = datasetUrn('ts');
      const usage = (ts: number, runId: string): WriteOp => ({
        kind: 'timeseries',
        entityType: 'dataset',
        aspect: 'datasetUsageStatistics',
        urn,
        timestampMillis: ts,
        docId: `u${ts}`,
        event: { timestampMillis: ts },
        systemMetadata: sm(runId),
      });
      await write(
        [keyOp(urn, 'base'), profileOp(urn, DAY0 + 5 * PARTITION_MILLIS, 't1'), profileOp(urn, DAY0 + 6 * PARTITION_MILLIS, 't1'), usage(DAY0, 't1')],
        100,
      );
      // A run id inside another field, a prefix of it, and no system metadata at all must not match.
      await write(
        [profileOp(urn, DAY0 + 5 * PARTITION_MILLIS + 1, 't1x'), profileOp(urn, DAY0 + 6 * PARTITION_MILLIS + 1, null), usage(DAY0 + 1, 't')],
        200,
      );
      await write(
        [
          {
            ...(profileOp(urn, DAY0 + 5 * PARTITION_MILLIS + 2, 'other') as Extract<WriteOp, { kind: 'timeseries' }>),
            systemMetadata: { runId: 'other', lastRunId: 't1' },
          },
        ],
        300,
      );
      assert.equal(await store.runs.deleteRunTimeseriesRows('t1'), 3);
      const profiles = await store.timeseries.queryTimeseries({ entityType: 'dataset', aspect: 'datasetProfile', urn, limit: 10 });
      assert.deepEqual(
        profiles.map((e) => e.systemMetadata?.runId ?? null),
        [null, 'other', 't1x'],
      );
      const usages = await store.timeseries.queryTimeseries({ entityType: 'dataset', aspect: 'datasetUsageStatistics', urn, limit: 10 });
      assert.deepEqual(
        usages.map((e) => e.systemMetadata?.runId),
        ['t'],
      );
      const parts = await store.timeseries.listTimeseriesPartitions({ entityType: 'dataset', aspect: 'datasetProfile' });
      const counts = new Map(parts.map((p) => [p.startMillis, p.rowCount]));
      assert.equal(counts.get(DAY0 + 5 * PARTITION_MILLIS), 2);
      assert.equal(counts.get(DAY0 + 6 * PARTITION_MILLIS), 1);
      assert.equal(await store.runs.deleteRunTimeseriesRows('t1'), 0);
    });

    it("rolls back one entity while others write to it: each write lands either before (and is kept if it is not the run's) or after", async () => {
      const urn = datasetUrn('race');
      await write([keyOp(urn, 'base'), aspectOp(urn, 'datasetProperties', { name: 'base' }, 'base')], 100);
      await write([aspectOp(urn, 'datasetProperties', { name: 'bad' }, 'bad'), aspectOp(urn, 'globalTags', { tags: [] }, 'bad')], 200);
      const writes = Array.from({ length: 8 }, (_, i) =>
        write([aspectOp(urn, 'editableDatasetProperties', { description: `w${i}` }, `w${i}`)], 300 + i),
      );
      const later = write([aspectOp(urn, 'datasetProperties', { name: 'later' }, 'later')], 400);
      const [result] = await Promise.all([store.runs.rollbackEntity(rollback(urn, 'bad')), ...writes, later]);
      // The later run's value wins whichever committed first: written after, it lands on the restored base; written
      // before, the rollback finds the latest version is not its own and leaves the aspect alone.
      const props = await store.aspects.getAspectHistory(urn, 'datasetProperties', 10);
      assert.deepEqual(props[0]?.value, { name: 'later' });
      assert.ok(props.some((p) => p.value.name === 'base'));
      const restored = result.aspects.some((a) => a.aspect === 'datasetProperties');
      assert.equal(
        props.some((p) => p.value.name === 'bad'),
        !restored,
      );
      assert.equal(await store.aspects.getAspect(urn, 'globalTags'), undefined);
      assert.equal((await store.aspects.getAspectHistory(urn, 'editableDatasetProperties', 20)).length, 8);
    });
  });

  describe(`ingestion runs on a database written before run ids had a column: ${backend.name}`, { skip: backend.skip }, () => {
    let db: TestDatabase;
    let store: Store;
    const urn = 'urn:li:dataset:(urn:li:dataPlatform:hive,runs.before,PROD)';
    before(async () => {
      db = await backend.create();
      const upTo = SQLITE_MIGRATIONS.findIndex((m) => m.includes('aspects_by_run'));
      assert.equal(
        upTo,
        POSTGRES_MIGRATIONS.findIndex((m) => m.includes('aspects_by_run')),
      );
      const rows: Array<[string, number, string, string | null]> = [
        ['datasetKey', 0, '{"name":"before"}', '{"runId":"old-run","lastObserved":1}'],
        ['status', 0, '{"removed":false}', '{"runId":"new-run","lastObserved":2}'],
        ['status', 1, '{"removed":true}', '{"runId":"old-run","lastObserved":1}'],
        ['globalTags', 0, '{"tags":[]}', null],
      ];
      if (db.config.kind === 'postgres') {
        const c = new pg.Client({ connectionString: db.config.url });
        await c.connect();
        await c.query('CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY, applied_at BIGINT NOT NULL)');
        for (const [i, sql] of POSTGRES_MIGRATIONS.slice(0, upTo).entries()) {
          await c.query(sql);
          await c.query('INSERT INTO schema_migrations VALUES ($1, 0)', [i + 1]);
        }
        for (const [aspect, version, value, meta] of rows) {
          await c.query("INSERT INTO aspects VALUES ($1, $2, $3, 'dataset', $4, $5, 5, 'urn:li:corpuser:old')", [urn, aspect, version, value, meta]);
        }
        await c.end();
      } else {
        const sqlite = new Database(db.config.path);
        sqlite.exec('CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY, applied_at INTEGER NOT NULL)');
        for (const [i, sql] of SQLITE_MIGRATIONS.slice(0, upTo).entries()) {
          sqlite.exec(sql);
          sqlite.prepare('INSERT INTO schema_migrations VALUES (?, 0)').run(i + 1);
        }
        for (const row of rows) sqlite.prepare("INSERT INTO aspects VALUES (?, ?, ?, 'dataset', ?, ?, 5, 'urn:li:corpuser:old')").run(urn, ...row);
        sqlite.close();
      }
      store = await openStore(db.config);
    });
    after(async () => {
      await store?.database.close();
      await db?.drop();
    });

    it("takes each stored version's run from its systemMetadata", async () => {
      assert.deepEqual(
        (await store.runs.findRunAspects({ runId: 'old-run', includeSoftDeleted: true, limit: 10 })).map((r) => r.aspect),
        ['datasetKey'],
      );
      assert.deepEqual(
        (await store.runs.findRunAspects({ runId: 'new-run', includeSoftDeleted: true, limit: 10 })).map((r) => r.aspect),
        ['status'],
      );
      assert.deepEqual(await store.runs.aspectRuns([urn]), [
        { urn, aspect: 'datasetKey', runId: 'old-run' },
        { urn, aspect: 'globalTags', runId: null },
        { urn, aspect: 'status', runId: 'new-run' },
      ]);
      await store.runs.rollbackEntity(rollback(urn, 'new-run'));
      assert.deepEqual((await store.aspects.getAspect(urn, 'status'))?.value, { removed: true });
    });
  });
}
