import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { actorWithRole } from '../support/actors.ts';
import { backends } from '../support/databases.ts';
import { ingest, mcp } from '../support/graphql.ts';
import { useServer } from '../support/lifecycle.ts';
import type { HttpResult, TestServer } from '../support/server.ts';

const DAY = 86_400_000;
const T0 = Date.UTC(2026, 0, 1, 12);
/** Six profile events over three days, and two usage events, per dataset. */
const PROFILE_TIMES = [T0, T0 + 1000, T0 + DAY, T0 + DAY + 1000, T0 + 2 * DAY, T0 + 2 * DAY + 1000];
const USAGE_TIMES = [T0, T0 + DAY];

let seq = 0;
const datasetUrn = (name: string) => `urn:li:dataset:(urn:li:dataPlatform:hive,del.${name}${++seq},PROD)`;
const enc = encodeURIComponent;

/** A dataset with two versions of datasetProperties, a status, profiles and usage rows. */
async function seedDataset(server: TestServer, urn: string): Promise<void> {
  await ingest(server, mcp(urn, 'status', { removed: false }), mcp(urn, 'datasetProperties', { name: 'v1', customProperties: {} }));
  await ingest(server, mcp(urn, 'datasetProperties', { name: 'v2', customProperties: {} }));
  await ingest(
    server,
    ...PROFILE_TIMES.map((t, i) => mcp(urn, 'datasetProfile', { timestampMillis: t, rowCount: i })),
    ...USAGE_TIMES.map((t) =>
      mcp(urn, 'datasetUsageStatistics', { timestampMillis: t, uniqueUserCount: 1, eventGranularity: { unit: 'DAY', multiple: 1 } }),
    ),
  );
}

const timeseries = async (server: TestServer, urn: string, aspect: string): Promise<number[]> => {
  const res = await server.request('POST', '/aspects?action=getTimeseriesAspectValues', { body: { urn, entity: 'dataset', aspect } });
  assert.equal(res.status, 200, res.text);
  return res.json.value.values.map((v: { aspect: { value: string } }) => JSON.parse(v.aspect.value).timestampMillis);
};

/** Everything a client can read of these datasets, as text: equal snapshots mean nothing changed. */
async function snapshot(server: TestServer, urns: readonly string[]): Promise<string> {
  const parts: unknown[] = [];
  for (const urn of urns) {
    parts.push((await server.request('GET', `/entities/${enc(urn)}`)).text);
    for (const version of [0, 1, 2])
      parts.push((await server.request('GET', `/aspects/${enc(urn)}?aspect=datasetProperties&version=${version}`)).text);
    parts.push(await timeseries(server, urn, 'datasetProfile'), await timeseries(server, urn, 'datasetUsageStatistics'));
  }
  const sizes = await server.request('POST', '/operations?action=getIndexSizes');
  parts.push(sizes.json.value.indexSizes.map((s: { indexName: string; rowCount: number }) => [s.indexName, s.rowCount]));
  return JSON.stringify(parts);
}

const del = (server: TestServer, body: unknown, path = '/entities?action=delete'): Promise<HttpResult> => server.request('POST', path, { body });

function assertBadRequest(res: HttpResult, message: RegExp): void {
  assert.equal(res.status, 400, res.text);
  assert.equal(res.headers.get('x-restli-error-response'), 'true');
  assert.match(res.json.message, message);
}

for (const backend of await backends()) {
  describe(`entities?action=delete: ${backend.name}`, { skip: backend.skip }, () => {
    let server: TestServer;
    useServer(backend, (s) => {
      server = s;
    });

    it("deletes only the window's rows of that urn and aspect, answering DataHub's counts", async () => {
      const [a, b] = [datasetUrn('a'), datasetUrn('b')];
      await seedDataset(server, a);
      await seedDataset(server, b);
      const othersBefore = await snapshot(server, [b]);
      const entityBefore = (await server.request('GET', `/entities/${enc(a)}`)).text;
      const usageBefore = await timeseries(server, a, 'datasetUsageStatistics');

      // Both bounds inclusive, as DataHub's filter (gte startTimeMillis, lte endTimeMillis).
      const res = await del(server, { urn: a, aspectName: 'datasetProfile', startTimeMillis: T0 + 1000, endTimeMillis: T0 + DAY + 1000 });
      assert.equal(res.status, 200, res.text);
      assert.deepEqual(res.json, { value: { urn: a, rows: 0, timeseriesRows: 3 } });

      assert.deepEqual(await timeseries(server, a, 'datasetProfile'), [T0 + 2 * DAY + 1000, T0 + 2 * DAY, T0]);
      assert.deepEqual(await timeseries(server, a, 'datasetUsageStatistics'), usageBefore);
      assert.equal((await server.request('GET', `/entities/${enc(a)}`)).text, entityBefore);
      assert.equal((await server.request('GET', `/aspects/${enc(a)}?aspect=datasetProperties&version=1`)).status, 200);
      const sizes = await server.request('POST', '/operations?action=getIndexSizes');
      const profileIndex = sizes.json.value.indexSizes.find((s: { aspectName: string }) => s.aspectName === 'datasetprofile');
      assert.equal(profileIndex.rowCount, 2 * PROFILE_TIMES.length - 3);
      // The other dataset, read back in full, is byte-identical apart from the shared index's count.
      const othersAfter = JSON.parse(await snapshot(server, [b]));
      const expected = JSON.parse(othersBefore);
      expected[expected.length - 1] = othersAfter[othersAfter.length - 1];
      assert.deepEqual(othersAfter, expected);
    });

    it('deletes from the start of time, up to the end of time, or all of one aspect of the urn', async () => {
      const a = datasetUrn('open');
      await seedDataset(server, a);
      let res = await del(server, { urn: a, aspectName: 'datasetProfile', endTimeMillis: T0 + 1000 });
      assert.deepEqual(res.json.value, { urn: a, rows: 0, timeseriesRows: 2 });
      res = await del(server, { urn: a, aspectName: 'datasetProfile', startTimeMillis: T0 + 2 * DAY + 1000 });
      assert.deepEqual(res.json.value, { urn: a, rows: 0, timeseriesRows: 1 });
      assert.deepEqual(await timeseries(server, a, 'datasetProfile'), [T0 + 2 * DAY, T0 + DAY + 1000, T0 + DAY]);
      res = await del(server, { urn: a, aspectName: 'datasetProfile' }, '/api/gms/entities?action=delete');
      assert.deepEqual(res.json.value, { urn: a, rows: 0, timeseriesRows: 3 });
      assert.deepEqual(await timeseries(server, a, 'datasetProfile'), []);
      assert.equal((await timeseries(server, a, 'datasetUsageStatistics')).length, 2);
      assert.deepEqual((await server.request('POST', '/entities?action=exists', { body: { urn: a } })).json, { value: true });
    });

    it('deletes every version of one versioned aspect and nothing else', async () => {
      const [a, b] = [datasetUrn('versioned'), datasetUrn('untouched')];
      await seedDataset(server, a);
      await seedDataset(server, b);
      const before = await snapshot(server, [b]);
      const res = await del(server, { urn: a, aspectName: 'datasetProperties' });
      assert.equal(res.status, 200, res.text);
      assert.deepEqual(res.json, { value: { urn: a, rows: 2, timeseriesRows: 0 } });
      for (const version of [0, 1]) {
        assert.equal((await server.request('GET', `/aspects/${enc(a)}?aspect=datasetProperties&version=${version}`)).status, 404);
      }
      assert.equal((await server.request('GET', `/aspects/${enc(a)}?aspect=status&version=0`)).status, 200);
      assert.equal((await timeseries(server, a, 'datasetProfile')).length, PROFILE_TIMES.length);
      assert.deepEqual((await server.request('POST', '/entities?action=exists', { body: { urn: a } })).json, { value: true });
      assert.equal(await snapshot(server, [b]), before);
    });

    it('deletes the whole entity when given the urn alone', async () => {
      const [a, b] = [datasetUrn('whole'), datasetUrn('kept')];
      await seedDataset(server, a);
      await seedDataset(server, b);
      const before = JSON.parse(await snapshot(server, [b]));
      const res = await del(server, { urn: a });
      assert.equal(res.status, 200, res.text);
      // status, datasetKey, and datasetProperties' latest and one older version; eight timeseries rows.
      assert.deepEqual(res.json, { value: { urn: a, rows: 4, timeseriesRows: PROFILE_TIMES.length + USAGE_TIMES.length } });
      assert.deepEqual((await server.request('POST', '/entities?action=exists', { body: { urn: a } })).json, { value: false });
      const after = JSON.parse(await snapshot(server, [b]));
      before[before.length - 1] = after[after.length - 1];
      assert.deepEqual(after, before);
    });

    const refused: Array<[string, (urn: string) => unknown, RegExp]> = [
      [
        'a window on a versioned aspect',
        (urn) => ({ urn, aspectName: 'datasetProperties', startTimeMillis: T0 }),
        /'startTimeMillis' and 'endTimeMillis' apply to timeseries aspects only; datasetProperties is versioned/,
      ],
      [
        'an unknown aspect',
        (urn) => ({ urn, aspectName: 'datasetProfiles', endTimeMillis: T0 + DAY }),
        /Parameter 'aspectName': dataset has no aspect datasetProfiles/,
      ],
      [
        'an aspect of another entity type',
        (urn) => ({ urn, aspectName: 'chartUsageStatistics' }),
        /Parameter 'aspectName': dataset has no aspect chartUsageStatistics/,
      ],
      [
        'the key aspect',
        (urn) => ({ urn, aspectName: 'datasetKey' }),
        /datasetKey is the key aspect of dataset; omit 'aspectName' to delete the entity/,
      ],
      ['a window without an aspect', (urn) => ({ urn, startTimeMillis: T0, endTimeMillis: T0 + DAY }), /need 'aspectName'/],
      [
        'a window that ends before it starts',
        (urn) => ({ urn, aspectName: 'datasetProfile', startTimeMillis: T0 + DAY, endTimeMillis: T0 }),
        /'startTimeMillis' .* must not be after 'endTimeMillis'/,
      ],
      [
        'a parameter it does not take',
        (urn) => ({ urn, aspect: 'datasetProfile' }),
        /Unknown parameter 'aspect' for action 'delete'; it takes urn, aspectName, startTimeMillis, endTimeMillis/,
      ],
      [
        'a time that is not an integer',
        (urn) => ({ urn, aspectName: 'datasetProfile', endTimeMillis: '2026-01-01' }),
        /Parameter 'endTimeMillis' must be an integer/,
      ],
    ];
    for (const [what, body, message] of refused) {
      it(`refuses ${what} with 400 and deletes nothing`, async () => {
        const a = datasetUrn('refused');
        await seedDataset(server, a);
        const before = await snapshot(server, [a]);
        assertBadRequest(await del(server, body(a)), message);
        assert.equal(await snapshot(server, [a]), before);
      });
    }

    it('lets only MANAGE_USERS_AND_GROUPS delete a user, and nobody the built-in administrator', async () => {
      const editor = await actorWithRole(server, 'del-editor', 'Editor');
      await actorWithRole(server, 'del-victim', 'Admin');
      const victim = 'urn:li:corpuser:del-victim';
      for (const body of [{ urn: victim }, { urn: victim, aspectName: 'corpUserInfo' }]) {
        const res = await server.request('POST', '/entities?action=delete', { body, auth: editor });
        assert.equal(res.status, 403, res.text);
      }
      assert.equal((await server.request('DELETE', `/openapi/v3/entity/corpuser/${enc(victim)}`, { auth: editor })).status, 403);
      const admin = await server.request('POST', '/entities?action=delete', { body: { urn: 'urn:li:corpuser:datahub' } });
      assert.equal(admin.status, 403, admin.text);
      assert.equal(admin.json.message, 'urn:li:corpuser:datahub is the built-in administrator and cannot be deleted');
      for (const urn of [victim, 'urn:li:corpuser:datahub']) {
        assert.deepEqual((await server.request('POST', '/entities?action=exists', { body: { urn } })).json, { value: true });
      }
    });

    it("revokes a deleted user's tokens, role and password, and re-creating the user revives none of them", async () => {
      const token = await actorWithRole(server, 'del-gone', 'Admin', 'a long enough password');
      const urn = 'urn:li:corpuser:del-gone';
      assert.equal((await server.request('POST', '/operations?action=getIndexSizes', { auth: token })).status, 200);
      assert.equal((await del(server, { urn })).status, 200);
      assert.equal((await server.request('POST', '/entities?action=exists', { body: { urn }, auth: token })).status, 401);
      // The next user-sync ingestion (or any Editor) writes the user again.
      await ingest(server, mcp(urn, 'corpUserInfo', { active: true, displayName: 'Gone' }, 'corpuser'));
      assert.equal((await server.request('POST', '/entities?action=exists', { body: { urn }, auth: token })).status, 401);
      const login = await server.request('POST', '/logIn', { auth: null, body: { username: 'del-gone', password: 'a long enough password' } });
      assert.equal(login.status, 401, login.text);
      const fresh = await server.app.services.tokens.mint({ actorUrn: urn, ownerUrn: urn, duration: 'ONE_HOUR', name: 'after' });
      const sizes = await server.request('POST', '/operations?action=getIndexSizes', { auth: `Bearer ${fresh.token}` });
      assert.equal(sizes.status, 403, 'the Admin role did not survive the delete');
    });

    it('refuses an unknown query parameter on delete', async () => {
      const a = datasetUrn('query');
      await seedDataset(server, a);
      const before = await snapshot(server, [a]);
      assertBadRequest(
        await del(server, { urn: a }, '/entities?action=delete&aspectName=status'),
        /Unknown parameter 'aspectName' for action 'delete'/,
      );
      assert.equal(await snapshot(server, [a]), before);
    });
  });
}
