import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseSearchQuery } from '../../src/catalog/search/search-query.ts';
import type { Json, LogEntry, SearchQuery, Store, WriteOp } from '../../src/storage/store.ts';
import { backends } from '../support/databases.ts';
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
    useStore(backend, (s) => (store = s));
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
