import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { actorWithRole } from '../support/actors.ts';
import { backends } from '../support/databases.ts';
import { createDataset, mcp } from '../support/graphql.ts';
import { useServer } from '../support/lifecycle.ts';
import { startTestServer, type HttpResult, type TestServer } from '../support/server.ts';

const EVIL = 'http://evil.example';
let seq = 0;
const datasetUrn = () => `urn:li:dataset:(urn:li:dataPlatform:hive,csrf.t${++seq},PROD)`;
const enc = encodeURIComponent;

/** Signs in as a browser would and returns the Cookie header the browser would send back. */
async function signIn(server: TestServer, username: string, headers: Record<string, string> = {}): Promise<{ res: HttpResult; cookie: string }> {
  const res = await server.request('POST', '/logIn', { body: { username, password: 'correct horse battery' }, auth: null, headers });
  const cookie = res.headers
    .getSetCookie()
    .map((c) => c.split(';')[0])
    .join('; ');
  return { res, cookie };
}

for (const backend of await backends()) {
  describe(`changes made with the session cookie refuse cross-site requests: ${backend.name}`, { skip: backend.skip }, () => {
    let server: TestServer;
    let cookie: string;
    let bearer: string;
    useServer(backend, async (s) => {
      server = s;
      bearer = await actorWithRole(s, 'csrf-editor', 'Editor');
      ({ cookie } = await signIn(s, 'csrf-editor'));
    });
    const deprecate = (urn: string, headers: Record<string, string>, auth: string | null = null) =>
      server.request('POST', '/api/graphql', {
        rawBody: JSON.stringify({ query: `mutation { updateDeprecation(input: { urn: "${urn}", deprecated: true, note: "csrf" }) }` }),
        auth,
        headers: { Cookie: cookie, ...headers },
      });
    const deprecated = async (urn: string) => {
      const res = await server.request('GET', `/aspects/${enc(urn)}?aspect=deprecation&version=0`);
      return res.status === 200;
    };
    const ingest = (
      urn: string,
      headers: Record<string, string>,
      rawBody = JSON.stringify({ proposal: mcp(urn, 'datasetProperties', { name: 'csrf' }) }),
    ) => server.request('POST', '/aspects?action=ingestProposal', { rawBody, auth: null, headers: { Cookie: cookie, ...headers } });
    const stored = async (urn: string) => (await server.request('GET', `/aspects/${enc(urn)}?aspect=datasetProperties&version=0`)).status === 200;

    it('a GraphQL mutation from another origin as text/plain (the reported case) is refused and changes nothing', async () => {
      const urn = datasetUrn();
      await createDataset(server, urn);
      const res = await deprecate(urn, { Origin: EVIL, 'Content-Type': 'text/plain' });
      assert.equal(res.status, 403, res.text);
      assert.match(
        res.json.message ?? res.json.errors?.[0]?.message,
        /Cross-site request refused: Origin http:\/\/evil\.example is not this server's/,
      );
      assert.equal(await deprecated(urn), false);
    });

    it('a Rest.li ingest as a form, multipart, or without a content type is refused, whatever the origin', async () => {
      for (const type of ['application/x-www-form-urlencoded', 'multipart/form-data; boundary=x', 'text/plain', undefined]) {
        const urn = datasetUrn();
        const res = await ingest(urn, type ? { 'Content-Type': type } : {});
        assert.equal(res.status, 403, `${type}: ${res.text}`);
        assert.match(res.json.message, /must be sent as application\/json/);
        assert.equal(await stored(urn), false, String(type));
      }
    });

    it('a sibling site (Sec-Fetch-Site: same-site) or an opaque origin is refused', async () => {
      const urn = datasetUrn();
      assert.equal((await ingest(urn, { 'Content-Type': 'application/json', 'Sec-Fetch-Site': 'same-site' })).status, 403);
      assert.equal((await ingest(urn, { 'Content-Type': 'application/json', Origin: 'null' })).status, 403);
      assert.equal(await stored(urn), false);
    });

    it('the console’s own origin, and a client that sends no Origin (datahub init), may change with the cookie', async () => {
      const own = datasetUrn();
      const res = await ingest(own, { 'Content-Type': 'application/json', Origin: server.url, 'Sec-Fetch-Site': 'same-origin' });
      assert.equal(res.status, 200, res.text);
      assert.equal(await stored(own), true);
      const script = datasetUrn();
      assert.equal((await ingest(script, { 'Content-Type': 'application/json; charset=utf-8' })).status, 200);
      assert.equal(await stored(script), true);
    });

    it('GET reads with the cookie from anywhere are unaffected, and so are bearer tokens', async () => {
      // A POST carries no proof of being a read: GraphQL queries from another origin are refused with the mutations.
      const read = await server.request('GET', `/entitiesV2/${enc('urn:li:corpuser:csrf-editor')}`, {
        auth: null,
        headers: { Cookie: cookie, Origin: EVIL },
      });
      assert.equal(read.status, 200, read.text);
      const urn = datasetUrn();
      await createDataset(server, urn);
      const res = await deprecate(urn, { Origin: EVIL, 'Content-Type': 'text/plain', Cookie: '' }, bearer);
      assert.equal(res.status, 200, res.text);
      assert.equal(await deprecated(urn), true);
    });

    it('signing in from another site is refused (login CSRF)', async () => {
      const { res } = await signIn(server, 'csrf-editor', { Origin: EVIL });
      assert.equal(res.status, 403, res.text);
      assert.deepEqual(res.headers.getSetCookie(), []);
    });
  });

  describe(`session cookies are Secure when ALMANAC_PUBLIC_URL is https: ${backend.name}`, { skip: backend.skip }, () => {
    it('marks both cookies Secure and accepts the public origin', async () => {
      const db = await backend.create();
      const server = await startTestServer(db, { ALMANAC_PUBLIC_URL: 'https://catalog.example.com' });
      try {
        await actorWithRole(server, 'secure-user', 'Editor');
        const { res, cookie } = await signIn(server, 'secure-user');
        assert.equal(res.status, 200, res.text);
        const cookies = res.headers.getSetCookie();
        assert.equal(cookies.length, 2);
        for (const c of cookies) assert.match(c, /; Secure/);
        const urn = datasetUrn();
        const write = await server.request('POST', '/aspects?action=ingestProposal', {
          body: { proposal: mcp(urn, 'datasetProperties', { name: 'p' }) },
          auth: null,
          headers: { Cookie: cookie, Origin: 'https://catalog.example.com' },
        });
        assert.equal(write.status, 200, write.text);
      } finally {
        await server.close();
        await db.drop();
      }
    });
  });
}
