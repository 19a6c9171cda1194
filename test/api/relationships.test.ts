import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { backends } from '../support/databases.ts';
import { ingest, mcp } from '../support/graphql.ts';
import { useServer } from '../support/lifecycle.ts';
import type { HttpResult, TestServer } from '../support/server.ts';

const ds = (name: string) => `urn:li:dataset:(urn:li:dataPlatform:hive,api.${name},PROD)`;
const user = (name: string) => `urn:li:corpuser:${name}`;
const enc = encodeURIComponent;
const lineage = (...upstreams: string[]) => ({ upstreams: upstreams.map((dataset) => ({ dataset, type: 'TRANSFORMED' })) });
const owners = (...names: string[]) => ({ owners: names.map((n) => ({ owner: user(n), type: 'DATAOWNER' })) });

/** A PATCH MCP: the JSON Patch travels in aspect.value, as the SDK's patch builders send it. */
const patchMcp = (urn: string, patch: unknown) => ({ ...mcp(urn, 'upstreamLineage', patch), changeType: 'PATCH' });

for (const backend of await backends()) {
  describe(`relationship reads over HTTP: ${backend.name}`, { skip: backend.skip }, () => {
    let server: TestServer;
    useServer(backend, async (s) => {
      server = s;
      // a <- b <- c <- d, and d <- a closes a cycle; e feeds b too.
      await ingest(
        server,
        mcp(ds('b'), 'upstreamLineage', lineage(ds('a'), ds('e'))),
        mcp(ds('c'), 'upstreamLineage', lineage(ds('b'))),
        mcp(ds('d'), 'upstreamLineage', lineage(ds('c'))),
        mcp(ds('a'), 'upstreamLineage', lineage(ds('d'))),
        mcp(ds('b'), 'ownership', owners('jdoe', 'ann')),
      );
    });

    const v1 = (query: string): Promise<HttpResult> => server.request('GET', `/openapi/relationships/v1/?${query}`);
    const related = async (urn: string, type: string, direction: string) => {
      const res = await v1(`urn=${enc(urn)}&relationshipTypes=${type}&direction=${direction}`);
      assert.equal(res.status, 200, res.text);
      return res.json;
    };

    it("answers /openapi/relationships/v1/ in DataHub's RelatedEntitiesResult shape, both ways", async () => {
      assert.deepEqual(await related(ds('b'), 'DownstreamOf', 'OUTGOING'), {
        start: 0,
        count: 2,
        total: 2,
        entities: [
          { relationshipType: 'DownstreamOf', urn: ds('a') },
          { relationshipType: 'DownstreamOf', urn: ds('e') },
        ],
      });
      assert.deepEqual((await related(ds('a'), 'DownstreamOf', 'INCOMING')).entities, [{ relationshipType: 'DownstreamOf', urn: ds('b') }]);
      assert.deepEqual((await related(user('ann'), 'OwnedBy', 'INCOMING')).entities, [{ relationshipType: 'OwnedBy', urn: ds('b') }]);
    });

    it('follows several relationship types given as repeated parameters, and pages with start and count', async () => {
      const res = await v1(`urn=${enc(ds('b'))}&relationshipTypes=DownstreamOf&relationshipTypes=OwnedBy&direction=OUTGOING&start=1&count=2`);
      assert.equal(res.status, 200, res.text);
      assert.deepEqual(res.json, {
        start: 1,
        count: 2,
        total: 4,
        entities: [
          { relationshipType: 'OwnedBy', urn: user('jdoe') },
          { relationshipType: 'DownstreamOf', urn: ds('a') },
        ],
      });
    });

    it('refuses a missing urn, relationship type or direction, and an unknown direction, naming them', async () => {
      for (const [query, message] of [
        [`relationshipTypes=OwnedBy&direction=OUTGOING`, /'urn' is required/],
        [`urn=${enc(ds('b'))}&direction=OUTGOING`, /'relationshipTypes' is required/],
        [`urn=${enc(ds('b'))}&relationshipTypes=OwnedBy`, /'direction' is required/],
        [`urn=${enc(ds('b'))}&relationshipTypes=OwnedBy&direction=SIDEWAYS`, /'direction' must be INCOMING or OUTGOING, got SIDEWAYS/],
        [`urn=not-a-urn&relationshipTypes=OwnedBy&direction=OUTGOING`, /not-a-urn/],
      ] as const) {
        const res = await v1(query);
        assert.equal(res.status, 400, res.text);
        assert.match(res.json.message, message);
      }
    });

    it('follows a PATCH of the lineage to the value it produced', async () => {
      const up = ds('patched-up');
      const add = [{ op: 'add', path: `/upstreams/${up}`, value: { dataset: up, type: 'TRANSFORMED', auditStamp: { time: 0, actor: user('x') } } }];
      await ingest(server, patchMcp(ds('c'), add));
      assert.deepEqual(
        (await related(ds('c'), 'DownstreamOf', 'OUTGOING')).entities.map((e: { urn: string }) => e.urn),
        [ds('b'), up],
      );
      await ingest(server, patchMcp(ds('c'), [{ op: 'remove', path: `/upstreams/${up}`, value: {} }]));
      assert.deepEqual((await related(up, 'DownstreamOf', 'INCOMING')).entities, []);
    });

    it("answers Rest.li GET /relationships in DataHub's EntityRelationships shape", async () => {
      const res = await server.request('GET', `/relationships?urn=${enc(ds('b'))}&types=List(DownstreamOf,OwnedBy)&direction=OUTGOING&count=3`, {
        headers: { 'X-RestLi-Protocol-Version': '2.0.0' },
      });
      assert.equal(res.status, 200, res.text);
      assert.deepEqual(res.json, {
        start: 0,
        count: 3,
        total: 4,
        relationships: [
          { entity: user('ann'), type: 'OwnedBy' },
          { entity: user('jdoe'), type: 'OwnedBy' },
          { entity: ds('a'), type: 'DownstreamOf' },
        ],
      });
      const v1Form = await server.request('GET', `/api/gms/relationships?urn=${enc(ds('a'))}&types=DownstreamOf&direction=INCOMING`);
      assert.deepEqual(v1Form.json.relationships, [{ entity: ds('b'), type: 'DownstreamOf' }]);
    });

    it('walks lineage over several hops with getLineage, reporting each entity once at its nearest hop, and ends on a cycle', async () => {
      const res = await server.request('POST', '/relationships?action=getLineage', { body: { urn: ds('a'), direction: 'DOWNSTREAM', maxHops: 10 } });
      assert.equal(res.status, 200, res.text);
      const { value } = res.json;
      assert.equal(value.total, 3);
      assert.deepEqual(
        value.relationships.map((r: { entity: string; degree: number; type: string }) => [r.entity, r.degree, r.type]),
        [
          [ds('b'), 1, 'DownstreamOf'],
          [ds('c'), 2, 'DownstreamOf'],
          [ds('d'), 3, 'DownstreamOf'],
        ],
      );
      assert.deepEqual(value.relationships[2].paths, [[ds('a'), ds('b'), ds('c'), ds('d')]]);
      const oneHop = await server.request('POST', '/relationships?action=getLineage', { body: { urn: ds('b'), direction: 'UPSTREAM' } });
      assert.deepEqual(
        oneHop.json.value.relationships.map((r: { entity: string }) => r.entity),
        [ds('a'), ds('e')],
      );
    });

    it('refuses getLineage without a direction, or with a parameter it does not take', async () => {
      const missing = await server.request('POST', '/relationships?action=getLineage', { body: { urn: ds('a') } });
      assert.equal(missing.status, 400);
      assert.match(missing.json.message, /'direction' is required/);
      const extra = await server.request('POST', '/relationships?action=getLineage', { body: { urn: ds('a'), direction: 'UPSTREAM', hops: 3 } });
      assert.equal(extra.status, 400);
      assert.match(extra.json.message, /Unknown parameter 'hops'/);
    });

    it('hides the relationships of a soft-deleted entity on both sides, and shows them again when it is restored', async () => {
      await ingest(server, mcp(ds('a'), 'status', { removed: true }));
      assert.deepEqual(
        (await related(ds('b'), 'DownstreamOf', 'OUTGOING')).entities.map((e: { urn: string }) => e.urn),
        [ds('e')],
      );
      assert.deepEqual((await related(ds('a'), 'DownstreamOf', 'OUTGOING')).entities, []);
      const walk = await server.request('POST', '/relationships?action=getLineage', { body: { urn: ds('e'), direction: 'DOWNSTREAM', maxHops: 5 } });
      assert.deepEqual(
        walk.json.value.relationships.map((r: { entity: string }) => r.entity),
        [ds('b'), ds('c'), ds('d')],
      );
      await ingest(server, mcp(ds('a'), 'status', { removed: false }));
      assert.deepEqual((await related(ds('b'), 'DownstreamOf', 'OUTGOING')).total, 2);
    });

    it('drops the relationships of a deleted aspect and of a hard-deleted entity', async () => {
      await ingest(
        server,
        mcp(ds('x'), 'upstreamLineage', lineage(ds('y'))),
        mcp(ds('x'), 'ownership', owners('zed')),
        mcp(ds('w'), 'upstreamLineage', lineage(ds('x'))),
      );
      const aspect = await server.request('POST', '/entities?action=delete', { body: { urn: ds('x'), aspectName: 'ownership' } });
      assert.equal(aspect.status, 200, aspect.text);
      assert.equal((await related(user('zed'), 'OwnedBy', 'INCOMING')).total, 0);
      assert.equal((await related(ds('x'), 'DownstreamOf', 'OUTGOING')).total, 1);
      const entity = await server.request('DELETE', `/openapi/v3/entity/dataset/${enc(ds('x'))}`);
      assert.equal(entity.status, 200, entity.text);
      assert.equal((await related(ds('y'), 'DownstreamOf', 'INCOMING')).total, 0);
      assert.equal((await related(ds('w'), 'DownstreamOf', 'OUTGOING')).total, 0);
    });
  });
}
