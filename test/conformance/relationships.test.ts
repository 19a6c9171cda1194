import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Json, RelationshipDirection, Store, StoredRelationship, WriteOp } from '../../src/storage/store.ts';
import { backends } from '../support/databases.ts';
import { useStore } from '../support/lifecycle.ts';

const ds = (name: string) => `urn:li:dataset:(urn:li:dataPlatform:hive,rel.${name},PROD)`;
const user = (name: string) => `urn:li:corpuser:${name}`;
const QUERY = 'urn:li:query:q1';

type AspectOp = Extract<WriteOp, { kind: 'aspect' }>;
const op = (urn: string, aspect: string, value: Json, extra: Partial<AspectOp> = {}): AspectOp => ({
  kind: 'aspect',
  entityType: urn.split(':')[2]!,
  urn,
  aspect,
  value,
  systemMetadata: null,
  ...extra,
});
const lineage = (...upstreams: string[]) => ({
  upstreams: upstreams.map((dataset) => ({ dataset, type: 'TRANSFORMED', auditStamp: { time: 0, actor: user('x') } })),
});
const owners = (...names: string[]) => ({ owners: names.map((n) => ({ owner: user(n), type: 'DATAOWNER' })) });

for (const backend of await backends()) {
  describe(`relationship index: ${backend.name}`, { skip: backend.skip }, () => {
    let store: Store;
    useStore(backend, (s) => (store = s));

    const write = (...ops: WriteOp[]) => store.aspects.write({ ops, actor: user('test'), now: 1 });
    /** The related urns one hop away, as DataHub's findRelatedEntities lists them. */
    const related = async (urn: string, direction: RelationshipDirection, ...types: string[]) =>
      (await store.relationships.relatedEntities({ urn, direction, types, start: 0, count: 1000 })).relationships.map((r) =>
        direction === 'OUTGOING' ? r.destination : r.source,
      );

    it('writes the edges an aspect declares with the aspect, readable both ways', async () => {
      await write(op(ds('a'), 'upstreamLineage', lineage(ds('up1'), ds('up2'))), op(ds('a'), 'ownership', owners('jdoe')));
      assert.deepEqual(await related(ds('a'), 'OUTGOING', 'DownstreamOf'), [ds('up1'), ds('up2')]);
      assert.deepEqual(await related(ds('up1'), 'INCOMING', 'DownstreamOf'), [ds('a')]);
      assert.deepEqual(await related(ds('a'), 'OUTGOING', 'OwnedBy'), [user('jdoe')]);
      assert.deepEqual(await related(user('jdoe'), 'INCOMING', 'OwnedBy'), [ds('a')]);
      assert.deepEqual(await related(ds('a'), 'OUTGOING'), [user('jdoe'), ds('up1'), ds('up2')]);
      const [edge] = (await store.relationships.relatedEntities({ urn: ds('up1'), direction: 'INCOMING', types: [], start: 0, count: 10 }))
        .relationships;
      assert.deepEqual(edge, {
        source: ds('a'),
        sourceType: 'dataset',
        relationshipType: 'DownstreamOf',
        destination: ds('up1'),
        destinationType: 'dataset',
        via: null,
        owner: ds('a'),
        aspect: 'upstreamLineage',
      } satisfies StoredRelationship);
    });

    it('leaves no edge when the batch that declares it fails', async () => {
      const failing = op(
        ds('b'),
        'globalTags',
        {},
        {
          update: () => {
            throw new Error('refused');
          },
        },
      );
      await assert.rejects(write(op(ds('b'), 'upstreamLineage', lineage(ds('up3'))), failing), /refused/);
      assert.deepEqual(await related(ds('b'), 'OUTGOING'), []);
      assert.deepEqual(await related(ds('up3'), 'INCOMING'), []);
    });

    it('replaces the edges when the aspect changes, and keeps them when it is written again unchanged', async () => {
      await write(op(ds('a'), 'upstreamLineage', lineage(ds('up2'), ds('up4'))));
      assert.deepEqual(await related(ds('a'), 'OUTGOING', 'DownstreamOf'), [ds('up2'), ds('up4')]);
      assert.deepEqual(await related(ds('up1'), 'INCOMING', 'DownstreamOf'), []);
      const [outcome] = await write(op(ds('a'), 'upstreamLineage', lineage(ds('up2'), ds('up4'))));
      assert.equal(outcome?.outcome, 'unchanged');
      assert.deepEqual(await related(ds('a'), 'OUTGOING', 'DownstreamOf'), [ds('up2'), ds('up4')]);
    });

    it('derives the edges of a read-modify-write from the value it actually wrote', async () => {
      const addUpstream = (dataset: string) =>
        op(
          ds('a'),
          'upstreamLineage',
          {},
          {
            update: (current) => ({ upstreams: [...((current?.upstreams as unknown[]) ?? []), ...lineage(dataset).upstreams] }),
          },
        );
      const [outcome] = await write(addUpstream(ds('up5')));
      const written = (outcome?.value.upstreams as Array<{ dataset: string }>).map((u) => u.dataset);
      assert.deepEqual(written, [ds('up2'), ds('up4'), ds('up5')]);
      assert.deepEqual(await related(ds('a'), 'OUTGOING', 'DownstreamOf'), written);
    });

    it('keeps the via entity of an edge and the column-level edges of fine-grained lineage', async () => {
      const field = (d: string, f: string) => `urn:li:schemaField:(${d},${f})`;
      await write(
        op(ds('c'), 'upstreamLineage', {
          upstreams: [
            { dataset: ds('up6'), type: 'TRANSFORMED', query: QUERY },
            { dataset: ds('up7'), type: 'COPY' },
          ],
          fineGrainedLineages: [
            {
              upstreamType: 'FIELD_SET',
              downstreamType: 'FIELD',
              upstreams: [field(ds('up6'), 'id')],
              downstreams: [field(ds('c'), 'id')],
              query: QUERY,
            },
          ],
        }),
      );
      const out = (await store.relationships.relatedEntities({ urn: ds('c'), direction: 'OUTGOING', types: ['DownstreamOf'], start: 0, count: 10 }))
        .relationships;
      assert.deepEqual(
        out.map((r) => [r.destination, r.via]),
        [
          [ds('up6'), QUERY],
          [ds('up7'), null],
          [field(ds('up6'), 'id'), null],
        ],
      );
      const column = (await store.relationships.relatedEntities({ urn: field(ds('c'), 'id'), direction: 'OUTGOING', types: [], start: 0, count: 10 }))
        .relationships;
      assert.deepEqual(
        column.map((r) => [r.destination, r.via, r.owner]),
        [[field(ds('up6'), 'id'), QUERY, ds('c')]],
      );
    });

    it('follows a change of the via entity of an edge the aspect still declares', async () => {
      const other = 'urn:li:query:q2';
      await write(op(ds('v'), 'upstreamLineage', { upstreams: [{ dataset: ds('up11'), type: 'COPY', query: QUERY }] }));
      await write(op(ds('v'), 'upstreamLineage', { upstreams: [{ dataset: ds('up11'), type: 'COPY', query: other }] }));
      const [edge] = (await store.relationships.relatedEntities({ urn: ds('v'), direction: 'OUTGOING', types: [], start: 0, count: 10 }))
        .relationships;
      assert.equal(edge?.via, other);
    });

    it('indexes a key aspect that declares a relationship when the entity is created', async () => {
      const job = 'urn:li:dataJob:(urn:li:dataFlow:(airflow,etl,prod),load)';
      await write(op(job, 'dataJobKey', { flow: 'urn:li:dataFlow:(airflow,etl,prod)', jobId: 'load' }, { onlyIfAbsent: true }));
      assert.deepEqual(await related(job, 'OUTGOING', 'IsPartOf'), ['urn:li:dataFlow:(airflow,etl,prod)']);
    });

    it('pages through many edges in a stable order with an exact total', async () => {
      const names = Array.from({ length: 250 }, (_, i) => `owner${String(i).padStart(3, '0')}`);
      await write(op(ds('owned'), 'ownership', owners(...names)));
      const seen: string[] = [];
      for (let start = 0; ; start += 100) {
        const page = await store.relationships.relatedEntities({ urn: ds('owned'), direction: 'OUTGOING', types: ['OwnedBy'], start, count: 100 });
        assert.equal(page.total, 250);
        if (page.relationships.length === 0) break;
        seen.push(...page.relationships.map((r) => r.destination));
      }
      assert.deepEqual(seen, names.map(user));
    });

    it('hides the edges of a soft-deleted entity, on both sides, until it is restored', async () => {
      await write(op(ds('d'), 'upstreamLineage', lineage(ds('up8'))), op(ds('e'), 'upstreamLineage', lineage(ds('d'))));
      await write(op(ds('d'), 'status', { removed: true }));
      assert.deepEqual(await related(ds('d'), 'OUTGOING'), []);
      assert.deepEqual(await related(ds('up8'), 'INCOMING'), []);
      assert.deepEqual(await related(ds('e'), 'OUTGOING'), []);
      assert.deepEqual(
        await store.relationships.relationshipHop({ urns: [ds('e'), ds('up8')], outgoing: ['DownstreamOf'], incoming: ['DownstreamOf'] }),
        [],
      );
      const all = await store.relationships.scanRelationships({ where: [[{ source: [ds('d'), ds('e')] }]], includeSoftDeleted: true, limit: 10 });
      assert.equal(all.length, 2);
      assert.deepEqual(
        await store.relationships.scanRelationships({ where: [[{ source: [ds('d'), ds('e')] }]], includeSoftDeleted: false, limit: 10 }),
        [],
      );
      await write(op(ds('d'), 'status', { removed: false }));
      assert.deepEqual(await related(ds('up8'), 'INCOMING'), [ds('d')]);
      assert.deepEqual(await related(ds('e'), 'OUTGOING'), [ds('d')]);
    });

    it('hides an edge whose via entity is soft-deleted, and shows it again when its status is deleted', async () => {
      await write(op(QUERY, 'status', { removed: true }));
      assert.deepEqual(await related(ds('up6'), 'INCOMING', 'DownstreamOf'), []);
      await store.aspects.deleteAspect(QUERY, 'status');
      assert.deepEqual(await related(ds('up6'), 'INCOMING', 'DownstreamOf'), [ds('c')]);
    });

    it("removes an aspect's edges when the aspect is deleted", async () => {
      await write(op(ds('f'), 'upstreamLineage', lineage(ds('up9'))), op(ds('f'), 'globalTags', { tags: [{ tag: 'urn:li:tag:pii' }] }));
      await store.aspects.deleteAspect(ds('f'), 'upstreamLineage');
      assert.deepEqual(await related(ds('f'), 'OUTGOING'), ['urn:li:tag:pii']);
      assert.deepEqual(await related(ds('up9'), 'INCOMING'), []);
    });

    it('removes every edge that touches an entity when it is hard deleted', async () => {
      await write(
        op(ds('g'), 'upstreamLineage', lineage(ds('h'))),
        op(ds('h'), 'upstreamLineage', lineage(ds('up10'))),
        op(ds('h'), 'status', { removed: true }),
      );
      await store.aspects.deleteEntity(ds('h'));
      const touching = await store.relationships.scanRelationships({
        where: [[{ source: [ds('h')] }, { destination: [ds('h')] }, { owner: [ds('h')] }]],
        includeSoftDeleted: true,
        limit: 10,
      });
      assert.deepEqual(touching, []);
      // A new entity under the same urn starts visible: the soft deletion went with the old one.
      await write(op(ds('h'), 'upstreamLineage', lineage(ds('up10'))));
      assert.deepEqual(await related(ds('h'), 'OUTGOING'), [ds('up10')]);
    });

    it('reads one hop from several entities, both ways, in one call', async () => {
      await write(
        op(ds('m1'), 'upstreamLineage', lineage(ds('m0'))),
        op(ds('m2'), 'upstreamLineage', lineage(ds('m1'))),
        op(ds('m1'), 'ownership', owners('ann')),
      );
      const hop = await store.relationships.relationshipHop({ urns: [ds('m1')], outgoing: ['DownstreamOf'], incoming: ['DownstreamOf'] });
      assert.deepEqual(hop.map((r) => [r.source, r.destination]).sort(), [
        [ds('m1'), ds('m0')],
        [ds('m2'), ds('m1')],
      ]);
      assert.deepEqual(
        await store.relationships
          .relationshipHop({ urns: [ds('m1'), ds('m2')], outgoing: ['OwnedBy'], incoming: [] })
          .then((r) => r.map((e) => e.destination)),
        [user('ann')],
      );
    });

    it('scans in key order from where the last page ended', async () => {
      const where = [[{ relationshipType: ['DownstreamOf'] }], [{ sourceType: ['dataset'] }]];
      const all = await store.relationships.scanRelationships({ where, includeSoftDeleted: false, limit: 1000 });
      const keys = all.map((r) => [r.source, r.destination, r.relationshipType, r.owner, r.aspect].join('|'));
      assert.deepEqual(
        keys,
        [...keys].sort((a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b))),
      );
      const first = await store.relationships.scanRelationships({ where, includeSoftDeleted: false, limit: 3 });
      const last = first.at(-1)!;
      const rest = await store.relationships.scanRelationships({
        where,
        includeSoftDeleted: false,
        limit: 1000,
        after: [last.source, last.destination, last.relationshipType, last.owner, last.aspect],
      });
      assert.deepEqual([...first, ...rest], all);
    });
  });
}
