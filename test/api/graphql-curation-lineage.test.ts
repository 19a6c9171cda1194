import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { actorWithRole } from '../support/actors.ts';
import { createEntities, restliAspect } from '../support/curation.ts';
import { backends } from '../support/databases.ts';
import { useServer } from '../support/lifecycle.ts';
import { gqlData, gqlError } from '../support/graphql.ts';
import type { TestServer } from '../support/server.ts';

const BAD_REQUEST = { code: 400, type: 'BAD_REQUEST' };
const UPDATE = 'mutation updateLineage($input: UpdateLineageInput!) { updateLineage(input: $input) }';

let counter = 0;
const dataset = (name: string) => `urn:li:dataset:(urn:li:dataPlatform:hive,lineage.${name}${++counter},PROD)`;
const job = (name: string) => `urn:li:dataJob:(urn:li:dataFlow:(airflow,lineage${++counter},PROD),${name})`;

for (const backend of await backends()) {
  describe(`GraphQL updateLineage: ${backend.name}`, { skip: backend.skip }, () => {
    let server: TestServer;
    useServer(backend, (s) => {
      server = s;
    });
    const upstreamsOf = async (urn: string) =>
      ((await restliAspect(server, urn, 'upstreamLineage'))?.upstreams as Array<{ dataset: string; type: string }> | undefined)?.map((u) => [
        u.dataset,
        u.type,
      ]);
    const related = async (urn: string) => {
      const res = await server.request('GET', `/relationships?urn=${encodeURIComponent(urn)}&direction=OUTGOING&types=List(DownstreamOf)`);
      assert.equal(res.status, 200, res.text);
      return (res.json.relationships as Array<{ entity: string }>).map((r) => r.entity).sort();
    };

    it("adds and removes a dataset's upstreams, read back as upstreamLineage and as lineage edges", async () => {
      const [orders, users, report] = [dataset('orders'), dataset('users'), dataset('report')];
      await createEntities(server, orders, users, report);
      const add = [
        { downstreamUrn: report, upstreamUrn: orders },
        { downstreamUrn: report, upstreamUrn: users },
      ];
      assert.deepEqual(await gqlData(server, UPDATE, { input: { edgesToAdd: add, edgesToRemove: [] } }), { updateLineage: true });
      assert.deepEqual(await upstreamsOf(report), [
        [orders, 'TRANSFORMED'],
        [users, 'TRANSFORMED'],
      ]);
      assert.deepEqual(await related(report), [orders, users].sort());
      // Removal wins over addition of the same edge.
      await gqlData(server, UPDATE, { input: { edgesToAdd: [add[1]], edgesToRemove: [add[1]] } });
      assert.deepEqual(await upstreamsOf(report), [[orders, 'TRANSFORMED']]);
    });

    it("records a job's inputs on the job and its outputs on the job too", async () => {
      const [source, target, etl] = [dataset('source'), dataset('target'), job('etl')];
      await createEntities(server, source, target, etl);
      await gqlData(server, UPDATE, {
        input: {
          edgesToAdd: [
            { downstreamUrn: etl, upstreamUrn: source },
            { downstreamUrn: target, upstreamUrn: etl },
          ],
          edgesToRemove: [],
        },
      });
      const io = await restliAspect(server, etl, 'dataJobInputOutput');
      assert.deepEqual(
        (io?.inputDatasetEdges as Array<{ destinationUrn: string }>).map((e) => e.destinationUrn),
        [source],
      );
      assert.deepEqual(
        (io?.outputDatasetEdges as Array<{ destinationUrn: string; sourceUrn: string }>).map((e) => [e.destinationUrn, e.sourceUrn]),
        [[target, etl]],
      );
      assert.equal(await restliAspect(server, target, 'upstreamLineage'), undefined);
    });

    it('refuses missing entities and the wrong upstream type with DataHub’s messages, writing nothing', async () => {
      const [a, b] = [dataset('a'), dataset('b')];
      await createEntities(server, a);
      await gqlError(
        server,
        UPDATE,
        { input: { edgesToAdd: [{ downstreamUrn: b, upstreamUrn: a }], edgesToRemove: [] } },
        {
          ...BAD_REQUEST,
          message: `Cannot upsert lineage as downstream urn ${b} doesn't exist`,
        },
      );
      await gqlError(
        server,
        UPDATE,
        { input: { edgesToAdd: [{ downstreamUrn: a, upstreamUrn: b }], edgesToRemove: [] } },
        {
          ...BAD_REQUEST,
          message: `Error: urn does not exist: ${b}`,
        },
      );
      const tag = `urn:li:tag:lineage-${++counter}`;
      await createEntities(server, tag);
      await gqlError(
        server,
        UPDATE,
        { input: { edgesToAdd: [{ downstreamUrn: a, upstreamUrn: tag }], edgesToRemove: [] } },
        {
          ...BAD_REQUEST,
          message: `Tried to add lineage edge with non-dataset node when we expect a dataset. Upstream urn: ${tag}`,
        },
      );
      const chart = `urn:li:chart:(looker,lineage${++counter})`;
      await createEntities(server, chart);
      await gqlError(
        server,
        UPDATE,
        { input: { edgesToAdd: [{ downstreamUrn: chart, upstreamUrn: a }], edgesToRemove: [] } },
        {
          ...BAD_REQUEST,
          message: `Failed to update chart lineage for urn ${chart} as chart info doesn't exist`,
        },
      );
      assert.equal(await restliAspect(server, a, 'upstreamLineage'), undefined);
    });

    it("refuses a Reader with DataHub's message naming the entity, writing nothing", async () => {
      const [a, b] = [dataset('a'), dataset('b')];
      await createEntities(server, a, b);
      const reader = await actorWithRole(server, `lineage-reader-${++counter}`, 'Reader');
      await gqlError(
        server,
        UPDATE,
        { input: { edgesToAdd: [{ downstreamUrn: b, upstreamUrn: a }], edgesToRemove: [] } },
        { code: 403, type: 'UNAUTHORIZED', message: `Unauthorized to edit ${a} lineage for dataset` },
        { auth: reader },
      );
      assert.equal(await restliAspect(server, b, 'upstreamLineage'), undefined);
    });
  });
}
