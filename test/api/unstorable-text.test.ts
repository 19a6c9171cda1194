import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { backends } from '../support/databases.ts';
import { useServer } from '../support/lifecycle.ts';
import type { HttpResult, TestServer } from '../support/server.ts';

const URN = 'urn:li:dataset:(urn:li:dataPlatform:hive,text.t,PROD)';
const enc = encodeURIComponent;

/** A raw JSON body, so escapes reach the server exactly as a client could write them. */
const raw = (server: TestServer, path: string, body: string, auth?: string | null): Promise<HttpResult> =>
  server.request('POST', path, { rawBody: body, headers: { 'Content-Type': 'application/json' }, ...(auth !== undefined ? { auth } : {}) });

const proposal = (aspectValueJson: string, runId = 'r') =>
  `{"proposal":{"entityType":"dataset","entityUrn":"${URN}","changeType":"UPSERT","aspectName":"datasetProperties","aspect":{"value":${JSON.stringify(aspectValueJson)},"contentType":"application/json"},"systemMetadata":{"runId":"${runId}"}}}`;

function assertRefused(res: HttpResult, field: string): void {
  assert.equal(res.status, 400, res.text);
  assert.equal(res.json.message, `Field '${field}' contains U+0000 or an unpaired surrogate, which cannot be stored`);
}

for (const backend of await backends()) {
  describe(`U+0000 and unpaired surrogates: ${backend.name}`, { skip: backend.skip }, () => {
    let server: TestServer;
    useServer(backend, (s) => {
      server = s;
    });
    const stored = async () => (await server.request('GET', `/aspects/${enc(URN)}?aspect=datasetProperties&version=0`)).status;

    it("refuses them inside an MCP's aspect JSON, naming the field, and stores nothing", async () => {
      assertRefused(await raw(server, '/aspects?action=ingestProposal', proposal('{"name":"a\\u0000b"}')), 'proposal.aspect.value.name');
      assertRefused(
        await raw(server, '/aspects?action=ingestProposal', proposal('{"name":"x","description":"\\ud800"}')),
        'proposal.aspect.value.description',
      );
      assertRefused(await raw(server, '/aspects?action=ingestProposal', proposal('{"name":"x"}', '\\udc00x')), 'proposal.systemMetadata.runId');
      assert.equal(await stored(), 404);
    });

    it('refuses them before authentication too, where a sign-in used to answer 500', async () => {
      assertRefused(await raw(server, '/logIn', '{"username":"a\\u0000","password":"p"}', null), 'username');
    });

    it('refuses them in GraphQL variables and in a path', async () => {
      const res = await raw(
        server,
        '/api/graphql',
        '{"query":"query($u: String!) { dataset(urn: $u) { urn } }","variables":{"u":"urn:li:dataset:\\ud83d"}}',
      );
      assert.equal(res.status, 400, res.text);
      assert.match(res.text, /Field 'variables\.u' contains U\+0000 or an unpaired surrogate/);
      const path = await server.request('GET', `/aspects/${enc(URN)}%00?aspect=status`);
      assert.equal(path.status, 400, path.text);
    });

    it('stores and returns a well-formed pair (an emoji) unchanged', async () => {
      assert.equal((await raw(server, '/aspects?action=ingestProposal', proposal('{"name":"data \\ud83d\\udcca"}'))).status, 200);
      const res = await server.request('GET', `/aspects/${enc(URN)}?aspect=datasetProperties&version=0`);
      assert.equal(res.json.aspect['com.linkedin.dataset.DatasetProperties'].name, 'data \u{1F4CA}');
    });
  });
}
