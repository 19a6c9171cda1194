import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, it } from 'node:test';
import { parseSearchQuery } from '../../src/catalog/search/search-query.ts';
import type { Json, LogEntry, SearchQuery, Store, WriteOp } from '../../src/storage/store.ts';
import { backends, onConnection, type TestDatabase } from '../support/databases.ts';
import { useStore } from '../support/lifecycle.ts';

// A batch mixing aspects new to the catalog with aspects already stored and an aspect written twice (PostgreSQL
// creates the new ones in one statement and indexes them together; SQLite writes each in turn): the outcomes, the
// versions, the change log's order, the relationships, the soft-deletion mark and the search index are those of
// writing each op alone, in order.

const ds = (name: string) => `urn:li:dataset:(urn:li:dataPlatform:hive,batch.${name},PROD)`;
const GENERIC = 'com.linkedin.pegasus2avro.mxe.GenericAspect';
type AspectOp = Extract<WriteOp, { kind: 'aspect' }>;
const op = (urn: string, aspect: string, value: Json, key = false): AspectOp => ({
  kind: 'aspect',
  entityType: 'dataset',
  urn,
  aspect,
  value,
  systemMetadata: { runId: 'batch-test' },
  ...(key ? { onlyIfAbsent: true } : {}),
});
const key = (urn: string) => op(urn, 'datasetKey', { platform: 'urn:li:dataPlatform:hive', name: urn.split(',')[1], origin: 'PROD' }, true);
const tags = (...names: string[]) => ({ tags: names.map((n) => ({ tag: `urn:li:tag:${n}` })) });
const lineage = (...upstreams: string[]) => ({
  upstreams: upstreams.map((dataset) => ({ dataset, type: 'TRANSFORMED', auditStamp: { time: 0, actor: 'urn:li:corpuser:x' } })),
});
/** The urn, aspect and value of a change-log entry. */
const read = (e: LogEntry) => {
  const v = JSON.parse(e.value);
  return [v.entityUrn.string, v.aspectName.string, JSON.parse(Buffer.from(v.aspect[GENERIC].value, 'latin1').toString())];
};
const search = (text: string | undefined, filter: SearchQuery['filter'] = [], includeSoftDeleted = false): SearchQuery => ({
  entityTypes: ['dataset'],
  ...(text !== undefined ? { query: text, parsed: parseSearchQuery(text) } : {}),
  filter,
  includeSoftDeleted,
  sort: [],
});

for (const backend of await backends()) {
  describe(`a batch of new and stored aspects: ${backend.name}`, { skip: backend.skip }, () => {
    let store: Store;
    let db: TestDatabase;
    useStore(backend, (s, d) => {
      store = s;
      db = d;
    });
    const urns = async (q: SearchQuery) => (await store.search.search({ ...q, paging: { start: 0, count: 10 } })).hits.map((h) => h.urn);

    it('writes as each op alone would, in order: outcomes, versions, log, edges, soft deletion and search', async () => {
      const [a, b, c] = [ds('a'), ds('b'), ds('c')];
      await store.aspects.write({
        ops: [key(b), op(b, 'globalTags', tags('old'))],
        actor: 'urn:li:corpuser:t',
        now: 1,
      });
      const { next } = await store.changeEvents.eventLogBounds();
      const outcomes = await store.aspects.write({
        ops: [
          key(a),
          key(c),
          op(a, 'datasetProperties', { name: 'quokka_sightings', description: 'marsupials seen' }),
          op(a, 'globalTags', tags('first')),
          op(b, 'globalTags', tags('new')),
          op(a, 'upstreamLineage', lineage(b)),
          op(c, 'datasetProperties', { name: 'quokka_removed' }),
          op(c, 'status', { removed: true }),
          op(a, 'globalTags', tags('second')),
        ],
        actor: 'urn:li:corpuser:t',
        now: 2,
      });
      assert.deepEqual(
        outcomes.map((o) => [o.urn, o.aspect, o.outcome]),
        [
          [a, 'datasetKey', 'created'],
          [c, 'datasetKey', 'created'],
          [a, 'datasetProperties', 'created'],
          [a, 'globalTags', 'created'],
          [b, 'globalTags', 'updated'],
          [a, 'upstreamLineage', 'created'],
          [c, 'datasetProperties', 'created'],
          [c, 'status', 'created'],
          [a, 'globalTags', 'updated'],
        ],
      );
      assert.deepEqual(
        (await store.aspects.getAspectHistory(a, 'globalTags', 10)).map((v) => [v.version, v.value]),
        [
          [0, tags('second')],
          [1, tags('first')],
        ],
      );
      assert.deepEqual(await store.aspects.existing([a, b, c]), new Set([a, b, c]));
      assert.deepEqual((await store.changeEvents.readEventLog('MetadataChangeLog_Versioned_v1', next, 100)).map(read), [
        [a, 'datasetKey', key(a).value],
        [c, 'datasetKey', key(c).value],
        [a, 'datasetProperties', { name: 'quokka_sightings', description: 'marsupials seen' }],
        [a, 'globalTags', tags('first')],
        [b, 'globalTags', tags('new')],
        [a, 'upstreamLineage', lineage(b)],
        [c, 'datasetProperties', { name: 'quokka_removed' }],
        [c, 'status', { removed: true }],
        [a, 'globalTags', tags('second')],
      ]);
      const upstreamOf = await store.relationships.relatedEntities({ urn: b, direction: 'INCOMING', types: ['DownstreamOf'], start: 0, count: 10 });
      assert.deepEqual(
        upstreamOf.relationships.map((r) => r.source),
        [a],
      );
      assert.deepEqual(await urns(search('quokka')), [a]);
      assert.deepEqual((await urns(search('quokka', [], true))).sort(), [a, c]);
      // A filter alone is answered by the search keys: the soft-deleted one is left out there too.
      const hive = [[{ field: 'platform', values: ['urn:li:dataPlatform:hive'] }]];
      assert.deepEqual((await urns(search(undefined, hive))).sort(), [a, b]);
      assert.deepEqual((await urns(search(undefined, hive, true))).sort(), [a, b, c]);
      assert.deepEqual(await urns(search(undefined, [[{ field: 'tags', values: ['urn:li:tag:second'] }]])), [a]);
      assert.deepEqual(await urns(search(undefined, [[{ field: 'tags', values: ['urn:li:tag:first'] }]])), []);
      assert.deepEqual(await urns(search(undefined, [[{ field: 'tags', values: ['urn:li:tag:new'] }]])), [b]);
      assert.deepEqual(await urns(search(undefined, [[{ field: 'tags', values: ['urn:li:tag:old'] }]])), []);
    });

    it('writes one op given twice in a batch once, and then finds it unchanged', async () => {
      const [f, g] = [ds('f'), ds('g')];
      const twice = op(f, 'datasetProperties', { name: 'f' });
      const { next } = await store.changeEvents.eventLogBounds();
      const outcomes = await store.aspects.write({ ops: [twice, op(g, 'status', { removed: false }), twice], actor: 'urn:li:corpuser:t', now: 4 });
      assert.deepEqual(
        outcomes.map((o) => [o.urn, o.outcome]),
        [
          [f, 'created'],
          [g, 'created'],
          [f, 'unchanged'],
        ],
      );
      assert.deepEqual(
        (await store.changeEvents.readEventLog('MetadataChangeLog_Versioned_v1', next, 100)).map((e) => read(e).slice(0, 2)),
        [
          [f, 'datasetProperties'],
          [g, 'status'],
        ],
      );
    });

    it('indexes a key given twice in a batch once', async () => {
      const [once, twice] = [ds('once'), ds('twice')];
      await store.aspects.write({ ops: [key(once), op(once, 'status', { removed: false })], actor: 'urn:li:corpuser:t', now: 5 });
      await store.aspects.write({ ops: [key(twice), key(twice), op(twice, 'status', { removed: false })], actor: 'urn:li:corpuser:t', now: 5 });
      const rows = (urn: string) =>
        onConnection(db, {
          sqlite: (conn) => (conn.prepare('SELECT count(*) AS n FROM search_fields WHERE urn = ?').get(urn) as { n: number }).n,
          postgres: async (client) => Number((await client.query('SELECT count(*) AS n FROM search_fields WHERE urn = $1', [urn])).rows[0].n),
        });
      assert.ok((await rows(once)) > 0);
      assert.equal(await rows(twice), await rows(once));
    });

    it('leaves nothing of a failing batch that created new aspects', async () => {
      const [d, e] = [ds('d'), ds('e')];
      const failing: WriteOp = {
        ...op(d, 'ownership', {}),
        update: () => {
          throw new Error('refused');
        },
      };
      const { next } = await store.changeEvents.eventLogBounds();
      await assert.rejects(
        store.aspects.write({
          ops: [
            op(d, 'datasetProperties', { name: 'wombat_d' }),
            op(e, 'datasetProperties', { name: 'wombat_e' }),
            op(e, 'upstreamLineage', lineage(d)),
            failing,
          ],
          actor: 'urn:li:corpuser:t',
          now: 3,
        }),
        /refused/,
      );
      assert.deepEqual(await store.aspects.existing([d, e]), new Set());
      assert.deepEqual(await urns(search('wombat', [], true)), []);
      assert.equal((await store.relationships.relatedEntities({ urn: d, direction: 'INCOMING', types: [], start: 0, count: 10 })).total, 0);
      assert.deepEqual(await store.changeEvents.readEventLog('MetadataChangeLog_Versioned_v1', next, 100), []);
    });
  });
}

// Two writers on PostgreSQL. A batch creates its new aspects first, so its lock order may be the reverse of another
// batch's: PostgreSQL ends one of the two waiting transactions, and the write runs it again. An aspect deleted while
// another write replaces it: the delete locks it first, so nothing the write indexed outlives it.
for (const backend of (await backends()).filter((b) => b.name === 'postgres')) {
  describe(`two writers at once: ${backend.name}`, { skip: backend.skip }, () => {
    let store: Store;
    let db: TestDatabase;
    useStore(backend, (s, d) => {
      store = s;
      db = d;
    });

    it('both land: the deadlock PostgreSQL breaks is retried', async () => {
      const [p, q, r] = [ds('p'), ds('q'), ds('r')];
      await store.aspects.write({ ops: [op(p, 'globalTags', tags()), op(r, 'globalTags', tags())], actor: 'urn:li:corpuser:t', now: 1 });
      const outcome = (w: Promise<unknown>) =>
        w.then(
          () => 'written',
          (e: Error) => `failed: ${e.message}`,
        );
      const [first, second] = await onConnection(db, {
        sqlite: () => ['', ''],
        postgres: async (holder) => {
          // Another writer holds r, so the first batch stops there, after creating q.
          await holder.query('BEGIN');
          await holder.query("SELECT 1 FROM aspects WHERE urn = $1 AND aspect = 'globalTags' AND version = 0 FOR UPDATE", [r]);
          const first = outcome(
            store.aspects.write({
              ops: [op(r, 'globalTags', tags('one')), op(p, 'globalTags', tags('one')), op(q, 'datasetProperties', { name: 'one' })],
              actor: 'urn:li:corpuser:one',
              now: 2,
            }),
          );
          await sleep(300);
          // The second locks p (a read-modify-write, as a PATCH), then waits for q; the first then waits for p.
          const append: WriteOp = {
            ...op(p, 'globalTags', {}),
            update: (current) => ({ tags: [...((current?.tags as Json[]) ?? []), { tag: 'urn:li:tag:two' }] }),
          };
          const second = outcome(
            store.aspects.write({ ops: [append, op(q, 'datasetProperties', { name: 'two' })], actor: 'urn:li:corpuser:two', now: 3 }),
          );
          await sleep(300);
          await holder.query('COMMIT');
          return Promise.all([first, second]);
        },
      });
      assert.deepEqual([first, second], ['written', 'written']);
      // Whichever ran again, each batch's value of p is one of its versions, the update's on top of another.
      const history = (await store.aspects.getAspectHistory(p, 'globalTags', 10)).map((v) =>
        (v.value.tags as Array<{ tag: string }>).map((t) => t.tag),
      );
      assert.ok(
        history.some((h) => h.join() === 'urn:li:tag:one'),
        JSON.stringify(history),
      );
      assert.ok(
        history.some((h) => h.at(-1) === 'urn:li:tag:two'),
        JSON.stringify(history),
      );
      assert.ok(['one', 'two'].includes(String((await store.aspects.getAspect(q, 'datasetProperties'))?.value.name)));
    });

    it('an aspect deleted while a write replaces it keeps no edge, and its re-creation in a batch indexes its own only', async () => {
      const [u, v, b, c, d, w] = [ds('race.u'), ds('race.v'), ds('race.b'), ds('race.c'), ds('race.d'), ds('race.w')];
      await store.aspects.write({ ops: [op(u, 'upstreamLineage', lineage(b)), op(v, 'globalTags', tags())], actor: 'urn:li:corpuser:t', now: 1 });
      const upstreams = async () =>
        (await store.relationships.relatedEntities({ urn: u, direction: 'OUTGOING', types: [], start: 0, count: 10 })).relationships.map(
          (r) => r.destination,
        );
      await onConnection(db, {
        sqlite: () => undefined,
        postgres: async (holder) => {
          await holder.query('BEGIN');
          await holder.query("SELECT 1 FROM aspects WHERE urn = $1 AND aspect = 'globalTags' AND version = 0 FOR UPDATE", [v]);
          // The write replaces u's lineage, then waits for v; the delete starts meanwhile.
          const replaced = store.aspects.write({
            ops: [op(u, 'upstreamLineage', lineage(b, c)), op(v, 'globalTags', tags('x'))],
            actor: 'urn:li:corpuser:t',
            now: 2,
          });
          await sleep(300);
          const deleted = store.aspects.deleteAspect(u, 'upstreamLineage');
          await sleep(300);
          await holder.query('COMMIT');
          await Promise.all([replaced, deleted]);
        },
      });
      assert.equal(await store.aspects.getAspect(u, 'upstreamLineage'), undefined);
      assert.deepEqual(await upstreams(), []);
      await store.aspects.write({
        ops: [op(u, 'upstreamLineage', lineage(d)), op(w, 'datasetProperties', { name: 'w' })],
        actor: 'urn:li:corpuser:t',
        now: 3,
      });
      assert.deepEqual(await upstreams(), [d]);
      assert.equal((await store.relationships.relatedEntities({ urn: c, direction: 'INCOMING', types: [], start: 0, count: 10 })).total, 0);
    });
  });
}
