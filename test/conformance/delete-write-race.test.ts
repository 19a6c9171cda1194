import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, it } from 'node:test';
import type pg from 'pg';
import { parseSearchQuery } from '../../src/catalog/search/search-query.ts';
import type { Store, WriteOp } from '../../src/storage/store.ts';
import { backends, onConnection, type TestDatabase } from '../support/databases.ts';
import { useStore } from '../support/lifecycle.ts';

// An entity deleted while a batch writes to it, on PostgreSQL, where several processes write at once (SQLite has one
// writer). Each side is played by hand on a connection of its own, held at the step where the other would slip
// through, and the store plays the other side: whatever the order, no aspect, search row or hit outlives its entity.

const ACTOR = 'urn:li:corpuser:test';
/** A dataset of its own for each case (the suite shares one database). */
const dataset = (name: string) => `urn:li:dataset:(urn:li:dataPlatform:hive,race.${name},PROD)`;
const op = (urn: string, aspect: string, value: Record<string, unknown>): Extract<WriteOp, { kind: 'aspect' }> => ({
  kind: 'aspect',
  entityType: 'dataset',
  urn,
  aspect,
  value,
  systemMetadata: null,
});
const key = (urn: string) => op(urn, 'datasetKey', { platform: 'urn:li:dataPlatform:hive', name: urn, origin: 'PROD' });
const write = (store: Store, ops: WriteOp[]) => store.aspects.write({ ops, actor: ACTOR, now: Date.now() });

/** Runs `use` on a PostgreSQL connection of its own (the hand-played side). */
const onPostgres = <T>(db: TestDatabase, use: (client: pg.Client) => Promise<T>): Promise<T> =>
  onConnection(db, {
    sqlite: () => {
      throw new Error('PostgreSQL only');
    },
    postgres: use,
  });

/**
 * Whether the store's call `p` is waiting on a lock (one the hand-played side holds): true once some other backend of
 * the database waits on a lock while `p` is unsettled, false if `p` settles first (or nothing waits within 10 s).
 */
async function waits(client: pg.Client, p: Promise<unknown>): Promise<boolean> {
  let settled = false;
  p.then(
    () => (settled = true),
    () => (settled = true),
  );
  for (let i = 0; i < 500 && !settled; i++) {
    // pg_stat_activity is read once per transaction unless its snapshot is cleared, and the client is in one.
    await client.query('SELECT pg_stat_clear_snapshot()');
    const { rows } = await client.query<{ n: string }>(
      `SELECT count(*) AS n FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND datname = current_database() AND pid <> pg_backend_pid()`,
    );
    if (Number(rows[0]!.n) > 0) return !settled;
    await sleep(20);
  }
  return false;
}

/** A delete of `urn` by hand, as deleteEntityRows runs it, up to its entity row: the row locked first, then the aspects. */
async function beginDelete(client: pg.Client, urn: string): Promise<void> {
  await client.query('BEGIN');
  await client.query('SELECT 1 FROM entities WHERE urn = $1 FOR UPDATE', [urn]);
  await client.query('DELETE FROM aspects WHERE urn = $1', [urn]);
}

/** The rest of beginDelete's delete: the entity row and its search rows, committed. */
async function finishDelete(client: pg.Client, urn: string): Promise<void> {
  await client.query('DELETE FROM entities WHERE urn = $1', [urn]);
  await client.query(
    'WITH f AS (DELETE FROM search_fields WHERE urn = $1), k AS (DELETE FROM search_keys WHERE urn = $1) DELETE FROM search_text WHERE urn = $1',
    [urn],
  );
  await client.query('COMMIT');
}

/** The entity's rows: its entity row, its aspects, its search rows, and the hits of a word only it was given. */
async function rowsOf(db: TestDatabase, store: Store, urn: string, word: string) {
  const counts = await onPostgres(db, async (client) => {
    const n = async (sql: string) => Number((await client.query<{ n: string }>(sql, [urn])).rows[0]!.n);
    return {
      entity: await n('SELECT count(*) AS n FROM entities WHERE urn = $1'),
      aspects: await n('SELECT count(*) AS n FROM aspects WHERE urn = $1'),
      text: await n('SELECT count(*) AS n FROM search_text WHERE urn = $1'),
    };
  });
  const hits = (
    await store.search.search({
      entityTypes: ['dataset'],
      query: word,
      parsed: parseSearchQuery(word),
      filter: [],
      includeSoftDeleted: false,
      sort: [],
      paging: { start: 0, count: 10 },
    })
  ).hits.length;
  return { ...counts, hits };
}

for (const backend of (await backends()).filter((b) => b.name === 'postgres')) {
  describe(`an entity deleted while a batch writes to it: ${backend.name}`, { skip: backend.skip }, () => {
    let store: Store;
    let db: TestDatabase;
    useStore(backend, (s, d) => {
      store = s;
      db = d;
    });

    it('a batch waits for a delete under way, then writes the entity anew: nothing it wrote is left without its entity', async () => {
      const urn = dataset('waits');
      await write(store, [key(urn)]);
      await onPostgres(db, async (client) => {
        await beginDelete(client, urn);
        const batch = write(store, [op(urn, 'datasetProperties', { description: 'zircon places' })]);
        assert.equal(await waits(client, batch), true, 'the batch waits for the delete');
        await finishDelete(client, urn);
        await batch;
      });
      const after = await rowsOf(db, store, urn, 'zircon');
      assert.equal(after.entity, 1, 'the batch made the entity again');
      assert.equal(after.hits, 1, 'and its words are found');
      assert.equal(after.aspects, 1, 'with the aspect it wrote');
    });

    it('an entity made while a batch runs and deleted under it: the batch runs again, and nothing it wrote outlives the entity', async () => {
      const urn = dataset('made');
      const other = dataset('other');
      await write(store, [op(other, 'datasetProperties', { description: 'first' })]);
      await onPostgres(db, async (holder) => {
        await onPostgres(db, async (deleter) => {
          // The batch is held at its first aspect (another entity's, locked by hand) after it found no row for urn.
          await holder.query('BEGIN');
          await holder.query(`SELECT 1 FROM aspects WHERE urn = $1 AND aspect = 'datasetProperties' AND version = 0 FOR UPDATE`, [other]);
          // An update function keeps urn's aspect out of the batch's first inserts: it is written after the held one.
          const batch = write(store, [
            op(other, 'datasetProperties', { description: 'second' }),
            { ...op(urn, 'datasetProperties', { description: 'quartzite places' }), update: () => ({ description: 'quartzite places' }) },
          ]);
          assert.equal(await waits(holder, batch), true, 'the batch is held');
          // Meanwhile another batch makes the entity, and a delete of it gets as far as its entity row.
          await write(store, [key(urn)]);
          await beginDelete(deleter, urn);
          await holder.query('COMMIT');
          assert.equal(await waits(deleter, batch), true, 'the batch waits for the delete before it commits');
          await finishDelete(deleter, urn);
          await batch;
        });
      });
      const after = await rowsOf(db, store, urn, 'quartzite');
      assert.deepEqual(after, { entity: 1, aspects: 1, text: after.text, hits: 1 }, 'run again: the entity made anew with the aspect it wrote');
    });

    it('a delete waits for a batch under way, then deletes what it wrote too', async () => {
      const urn = dataset('deleted');
      await write(store, [key(urn), op(urn, 'datasetProperties', { description: 'basalt places' })]);
      await onPostgres(db, async (client) => {
        // A batch, by hand: the entity's row held as a batch holds it, an aspect added (not yet committed).
        await client.query('BEGIN');
        await client.query('SELECT 1 FROM entities WHERE urn = $1 FOR KEY SHARE', [urn]);
        await client.query(
          `INSERT INTO aspects (urn, aspect, version, entity_type, metadata, system_metadata, created_on, created_by)
             VALUES ($1, 'globalTags', 0, 'dataset', '{"tags": []}'::jsonb, NULL, 0, $2)`,
          [urn, ACTOR],
        );
        const deletion = store.aspects.deleteEntity(urn);
        assert.equal(await waits(client, deletion), true, 'the delete waits for the batch');
        await client.query('COMMIT');
        await deletion;
      });
      assert.deepEqual(await rowsOf(db, store, urn, 'basalt'), { entity: 0, aspects: 0, text: 0, hits: 0 });
    });
  });
}
