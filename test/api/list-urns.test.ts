import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { backends } from '../support/databases.ts';
import { ingest, mcp } from '../support/graphql.ts';
import { useServer } from '../support/lifecycle.ts';
import type { TestServer } from '../support/server.ts';

const tag = (n: number) => `urn:li:tag:list${n}`;

for (const backend of await backends()) {
  describe(`entities?action=listUrns: ${backend.name}`, { skip: backend.skip }, () => {
    let server: TestServer;
    const list = (body: Record<string, unknown>) => server.request('POST', '/entities?action=listUrns', { body });
    useServer(backend, async (s) => {
      server = s;
      // A soft-deleted tag is listed too: DataHub lists every urn with a key aspect.
      await ingest(
        server,
        ...[1, 2, 3].map((n) => mcp(tag(n), 'tagProperties', { name: `t${n}` }, 'tag')),
        mcp(tag(4), 'status', { removed: true }, 'tag'),
      );
    });

    it("answers DataHub's ListUrnsResult a page at a time, as list_all_entity_urns reads it", async () => {
      const first = await list({ entity: 'tag', start: 0, count: 3 });
      assert.equal(first.status, 200, first.text);
      assert.deepEqual(first.json, { value: { entities: [tag(1), tag(2), tag(3)], start: 0, count: 3, total: 4 } });
      assert.deepEqual((await list({ entity: 'tag', start: 3, count: 3 })).json.value, { entities: [tag(4)], start: 3, count: 1, total: 4 });
      assert.deepEqual((await list({ entity: 'dashboard', start: 0, count: 3 })).json.value, { entities: [], start: 0, count: 0, total: 0 });
    });

    it('refuses an unknown entity type, a missing start and an unknown parameter, naming them', async () => {
      const cases: Array<[Record<string, unknown>, RegExp]> = [
        [{ entity: 'nope', start: 0 }, /Failed to find entity with name nope in EntityRegistry/],
        [{ entity: 'tag' }, /Parameter 'start' is required/],
        [{ entity: 'tag', start: 0, limit: 2 }, /Unknown parameter 'limit' for action 'listUrns'/],
      ];
      for (const [body, message] of cases) {
        const res = await list(body);
        assert.equal(res.status, 400, res.text);
        assert.match(res.json.message, message);
      }
    });
  });
}
