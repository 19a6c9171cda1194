import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { actorWithRole } from '../support/actors.ts';
import { backends } from '../support/databases.ts';
import { gql, mcp } from '../support/graphql.ts';
import { patchMcp } from '../support/fixtures.ts';
import { useServer } from '../support/lifecycle.ts';
import type { HttpResult, TestServer } from '../support/server.ts';

// The server runs in this process: a key that reached Object.prototype would show on every object here too.
const polluted = (): unknown => (Object.prototype as Record<string, unknown>).polluted ?? (Object.prototype as Record<string, unknown>).x;

let seq = 0;
const datasetUrn = () => `urn:li:dataset:(urn:li:dataPlatform:hive,untrusted.t${++seq},PROD)`;
const enc = encodeURIComponent;

for (const backend of await backends()) {
  describe(`keys that name a prototype are refused on every entry point: ${backend.name}`, { skip: backend.skip }, () => {
    let server: TestServer;
    let editor: string;
    useServer(backend, async (s) => {
      server = s;
      editor = await actorWithRole(s, 'proto-editor', 'Editor');
    });
    const propose = (proposal: unknown): Promise<HttpResult> =>
      server.request('POST', '/aspects?action=ingestProposal', { body: { proposal, async: 'false' }, auth: editor });
    const stored = async (urn: string, aspect: string) => {
      const res = await server.request('GET', `/aspects/${enc(urn)}?aspect=${aspect}&version=0`);
      return res.status === 404 ? undefined : (Object.values(res.json.aspect)[0] as Record<string, unknown>);
    };

    /** The refusal names the field, nothing reached a prototype, nothing was stored, and the server still writes and reads cleanly. */
    const refusedCleanly = async (res: HttpResult, field: RegExp, urn?: string) => {
      assert.equal(res.status, 400, res.text);
      assert.match(res.json.message ?? res.json.errors?.[0]?.message, field);
      assert.equal(polluted(), undefined);
      if (urn) assert.equal(await stored(urn, 'datasetProperties'), undefined);
      const healthy = datasetUrn();
      assert.equal((await propose(mcp(healthy, 'datasetProperties', { name: 'y' }))).status, 200);
      assert.deepEqual(await stored(healthy, 'datasetProperties'), { name: 'y' });
      const read = await gql(server, `{ dataset(urn: "${healthy}") { urn } }`);
      assert.equal(read.status, 200);
      assert.equal(read.json.data.dataset.urn, healthy);
    };

    it('a JSON Patch path through __proto__ (the reported exploit)', async () => {
      const urn = datasetUrn();
      const res = await propose(patchMcp(urn, 'datasetProperties', [{ op: 'add', path: '/__proto__/polluted', value: 'yes' }]));
      await refusedCleanly(res, /JSON Patch path "\/__proto__\/polluted" names '__proto__'/, urn);
    });

    it('a JSON Patch path through constructor/prototype, in the generic envelope', async () => {
      const urn = datasetUrn();
      const res = await propose(
        patchMcp(urn, 'datasetProperties', {
          arrayPrimaryKeys: { tags: [] },
          patch: [{ op: 'add', path: '/constructor/prototype/polluted', value: 'yes' }],
        }),
      );
      await refusedCleanly(res, /names 'constructor'/, urn);
    });

    it('a move whose from names a prototype', async () => {
      const urn = datasetUrn();
      const res = await propose(patchMcp(urn, 'datasetProperties', [{ op: 'copy', from: '/__proto__', path: '/name' }]));
      await refusedCleanly(res, /names '__proto__'/, urn);
    });

    it('arrayPrimaryKeys naming a prototype', async () => {
      const urn = datasetUrn();
      const res = await propose(
        patchMcp(urn, 'datasetProperties', {
          arrayPrimaryKeys: { __proto__x: [], constructor: [] },
          patch: [{ op: 'add', path: '/name', value: 'n' }],
        }),
      );
      await refusedCleanly(res, /arrayPrimaryKeys names 'constructor'/, urn);
    });

    it('an array key value of __proto__ stays an ordinary key (a tag of that name)', async () => {
      const urn = datasetUrn();
      const res = await propose(
        patchMcp(urn, 'globalTags', {
          arrayPrimaryKeys: { tags: ['tag'] },
          patch: [{ op: 'add', path: '/tags/urn:li:tag:pii', value: { tag: 'urn:li:tag:pii' } }],
        }),
      );
      assert.equal(res.status, 200, res.text);
      assert.equal(polluted(), undefined);
    });

    it('a __proto__ key in a plain UPSERT, inside the serialized aspect value', async () => {
      const urn = datasetUrn();
      const value = '{"name":"x","customProperties":{"__proto__":{"polluted":"yes"}}}';
      const res = await propose({ ...mcp(urn, 'datasetProperties', {}), aspect: { value, contentType: 'application/json' } });
      await refusedCleanly(res, /Field 'proposal\.aspect\.value\.customProperties\.__proto__' is named __proto__/, urn);
    });

    it('a __proto__ key spelled with JSON escapes', async () => {
      const urn = datasetUrn();
      const rawBody = `{"proposal":{"entityType":"dataset","entityUrn":"${urn}","changeType":"UPSERT","aspectName":"datasetProperties","aspect":{"value":"{\\"name\\":\\"x\\"}","contentType":"application/json"},"\\u005f_proto__":{"polluted":"yes"}},"async":"false"}`;
      const res = await server.request('POST', '/aspects?action=ingestProposal', {
        rawBody,
        auth: editor,
        headers: { 'Content-Type': 'application/json' },
      });
      await refusedCleanly(res, /Field 'proposal\.__proto__'/, urn);
    });

    it('structured property values and system metadata', async () => {
      const urn = datasetUrn();
      const sp = {
        ...mcp(urn, 'structuredProperties', {}),
        aspect: {
          value: '{"properties":[{"propertyUrn":"urn:li:structuredProperty:p","values":[{"__proto__":{"x":1}}]}]}',
          contentType: 'application/json',
        },
      };
      await refusedCleanly(await propose(sp), /properties\[0\]\.values\[0\]\.__proto__/);
      const sm = { ...mcp(urn, 'datasetProperties', { name: 'z' }), systemMetadata: '{"runId":"r","__proto__":{"polluted":"yes"}}' };
      await refusedCleanly(await propose(sm), /proposal\.systemMetadata\.__proto__/, urn);
    });

    it('an OpenAPI v3 body', async () => {
      const urn = datasetUrn();
      const rawBody = JSON.stringify([{ urn, datasetProperties: { value: { name: 'o', customProperties: { k: 'v' } } } }]).replace(
        '"k"',
        '"__proto__"',
      );
      const res = await server.request('POST', '/openapi/v3/entity/dataset?async=false', {
        rawBody,
        auth: editor,
        headers: { 'Content-Type': 'application/json' },
      });
      await refusedCleanly(res, /Field '\[0\]\.datasetProperties\.value\.customProperties\.__proto__'/, urn);
    });

    it('GraphQL variables', async () => {
      const urn = datasetUrn();
      const rawBody = JSON.stringify({
        query: 'mutation u($input: UpdateDeprecationInput!) { updateDeprecation(input: $input) }',
        variables: { input: { urn, deprecated: true, k: { polluted: 'yes' } } },
      }).replace('"k"', '"__proto__"');
      const res = await server.request('POST', '/api/graphql', { rawBody, auth: editor, headers: { 'Content-Type': 'application/json' } });
      await refusedCleanly(res, /Field 'variables\.input\.__proto__'/);
    });

    it('a customProperties key named constructor is ordinary data', async () => {
      const urn = datasetUrn();
      assert.equal((await propose(mcp(urn, 'datasetProperties', { name: 'c', customProperties: { constructor: 'v' } }))).status, 200);
      assert.deepEqual((await stored(urn, 'datasetProperties'))?.customProperties, { constructor: 'v' });
    });
  });
}
