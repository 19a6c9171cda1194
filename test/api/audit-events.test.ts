import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { actorWithRole } from '../support/actors.ts';
import { backends, execElsewhere, type TestDatabase } from '../support/databases.ts';
import { gqlData, mcp } from '../support/graphql.ts';
import { useServer } from '../support/lifecycle.ts';
import type { TestServer } from '../support/server.ts';

const ADMIN = 'urn:li:corpuser:datahub';
const SEARCH = '/openapi/v1/events/audit/search';
const CREATE_TOKEN = `mutation($input: CreateAccessTokenInput!) { createAccessToken(input: $input) { metadata { id } } }`;
const REVOKE_TOKEN = 'mutation($id: String!) { revokeAccessToken(tokenId: $id) }';
const ASSIGN = 'mutation($input: BatchAssignRoleInput!) { batchAssignRole(input: $input) }';
const SET_STATUS = 'mutation($urn: String!, $status: CorpUserStatus!) { updateUserStatus(urn: $urn, status: $status) }';
const CREATE_POLICY = 'mutation($input: PolicyUpdateInput!) { createPolicy(input: $input) }';
const UPDATE_POLICY = 'mutation($urn: String!, $input: PolicyUpdateInput!) { updatePolicy(urn: $urn, input: $input) }';
const DELETE_POLICY = 'mutation($urn: String!) { deletePolicy(urn: $urn) }';
const POLICY = {
  type: 'PLATFORM',
  name: 'audited policy',
  state: 'ACTIVE',
  description: 'made by the audit test',
  privileges: ['MANAGE_INGESTION'],
  actors: { resourceOwners: false, allUsers: false, allGroups: false, users: [] },
};

let seq = 0;
const username = (what: string) => `audit-${what}-${++seq}`;

for (const backend of await backends()) {
  describe(`audit events: ${backend.name}`, { skip: backend.skip }, () => {
    let server: TestServer;
    let db: TestDatabase;
    // Housekeeping every second, so the pruning test sees it run.
    useServer(
      backend,
      (s, d) => {
        server = s;
        db = d;
      },
      { ALMANAC_HOUSEKEEPING_INTERVAL_SECONDS: '1', ALMANAC_AUDIT_RETENTION_DAYS: '1' },
    );
    const search = async (body: unknown, query = '', auth?: string) => {
      const res = await server.request('POST', `${SEARCH}${query}`, { body, ...(auth ? { auth } : {}) });
      assert.equal(res.status, 200, res.text);
      return res.json as { count: number; total: number; nextScrollId?: string; usageEvents: Array<Record<string, unknown>> };
    };
    const eventsOf = async (eventTypes: string[], actorUrns: string[] = []) => (await search({ eventTypes, actorUrns }, '?size=100')).usageEvents;

    it('records a sign-in and a failed sign-in with where they came from, in DataHub’s shape', async () => {
      const name = username('signin');
      await actorWithRole(server, name, 'Reader', 'right password here');
      const urn = `urn:li:corpuser:${name}`;
      const headers = { 'User-Agent': 'audit-test/1.0' };
      assert.equal(
        (await server.request('POST', '/logIn', { auth: null, headers, body: { username: name, password: 'wrong password!' } })).status,
        401,
      );
      assert.equal(
        (await server.request('POST', '/logIn', { auth: null, headers, body: { username: name, password: 'right password here' } })).status,
        200,
      );
      const events = await eventsOf(['LogInEvent', 'FailedLogInEvent'], [urn]);
      assert.deepEqual(
        events.map((e) => e.eventType),
        ['LogInEvent', 'FailedLogInEvent'],
        'newest first',
      );
      const [login] = events;
      assert.equal(login!.actorUrn, urn);
      assert.equal(login!.loginSource, 'PASSWORD_LOGIN');
      assert.equal(login!.userAgent, 'audit-test/1.0');
      assert.equal(login!.eventSource, 'RESTLI');
      assert.match(String(login!.sourceIP), /127\.0\.0\.1|::1/);
      assert.equal(typeof login!.timestamp, 'number');
      assert.deepEqual(login!.rawUsageEvent, {
        type: 'LogInEvent',
        timestamp: login!.timestamp,
        actorUrn: urn,
        sourceIP: login!.sourceIP,
        eventSource: 'RESTLI',
        userAgent: 'audit-test/1.0',
        loginSource: 'PASSWORD_LOGIN',
        usageSource: 'backend',
      });
    });

    it('records a token created and revoked, a role assigned and a user suspended, through GraphQL', async () => {
      const name = username('user');
      await actorWithRole(server, name, 'Reader');
      const urn = `urn:li:corpuser:${name}`;
      const { id } = (await gqlData(server, CREATE_TOKEN, { input: { type: 'PERSONAL', actorUrn: urn, duration: 'ONE_HOUR', name: 'audited' } }))
        .createAccessToken.metadata;
      await gqlData(server, REVOKE_TOKEN, { id });
      await gqlData(server, ASSIGN, { input: { roleUrn: 'urn:li:dataHubRole:Editor', actors: [urn] } });
      await gqlData(server, SET_STATUS, { urn, status: 'SUSPENDED' });
      const events = (await search({ actorUrns: [ADMIN], entityTypes: ['corpuser'] }, '?size=100')).usageEvents.filter((e) => e.entityUrn === urn);
      assert.deepEqual(
        events.map((e) => [e.eventType, e.aspectName ?? null]),
        [
          ['UpdateUserEvent', 'corpUserStatus'],
          ['UpdateAspectEvent', 'roleMembership'],
          ['RevokeAccessTokenEvent', null],
          ['CreateAccessTokenEvent', null],
        ],
      );
      for (const e of events) {
        assert.equal(e.eventSource, 'GRAPHQL');
        assert.equal(e.entityType, 'corpuser');
      }
    });

    it('records a policy created, updated and deleted, and a group changed by ingestion', async () => {
      const policyUrn = (await gqlData(server, CREATE_POLICY, { input: POLICY })).createPolicy as string;
      await gqlData(server, UPDATE_POLICY, { urn: policyUrn, input: { ...POLICY, state: 'INACTIVE' } });
      await gqlData(server, DELETE_POLICY, { urn: policyUrn });
      const policyEvents = (await search({ entityTypes: ['dataHubPolicy'] }, '?size=100')).usageEvents.filter((e) => e.entityUrn === policyUrn);
      assert.deepEqual(
        policyEvents.map((e) => e.eventType),
        ['DeletePolicyEvent', 'UpdatePolicyEvent', 'CreatePolicyEvent'],
      );
      const group = `urn:li:corpGroup:${username('group')}`;
      const res = await server.request('POST', '/aspects?action=ingestProposal', {
        body: { proposal: mcp(group, 'corpGroupInfo', { displayName: 'Audited', admins: [], members: [], groups: [] }, 'corpGroup'), async: 'false' },
      });
      assert.equal(res.status, 200, res.text);
      const groupEvents = (await search({ entityTypes: ['corpGroup'], aspectTypes: ['corpGroupInfo'] }, '?size=100')).usageEvents;
      const mine = groupEvents.find((e) => e.entityUrn === group);
      assert.deepEqual(
        { type: mine?.eventType, actor: mine?.actorUrn, aspect: mine?.aspectName, source: mine?.eventSource },
        { type: 'UpdateAspectEvent', actor: ADMIN, aspect: 'corpGroupInfo', source: 'RESTLI' },
      );
    });

    it('pages newest first with nextScrollId, and leaves rawUsageEvent out when asked', async () => {
      const name = username('pages');
      await actorWithRole(server, name, 'Reader', 'right password here');
      for (let i = 0; i < 3; i++) await server.request('POST', '/logIn', { auth: null, body: { username: name, password: 'wrong password!' } });
      const body = { eventTypes: ['FailedLogInEvent'], actorUrns: [`urn:li:corpuser:${name}`] };
      const first = await search(body, '?size=2&includeRaw=false');
      assert.equal(first.count, 2);
      assert.equal(first.total, 3);
      assert.equal(first.usageEvents[0]!.rawUsageEvent, undefined);
      assert.ok(first.nextScrollId);
      const second = await search(body, `?size=2&scrollId=${encodeURIComponent(first.nextScrollId)}`);
      assert.equal(second.count, 1);
      assert.equal(second.nextScrollId, undefined);
      const stamps = [...first.usageEvents, ...second.usageEvents].map((e) => e.timestamp as number);
      assert.deepEqual(
        stamps,
        [...stamps].sort((a, b) => b - a),
      );
      // A window that ends before the events holds none of them.
      assert.equal((await search(body, `?startTime=0&endTime=1`)).total, 0);
    });

    it("lets every user search by DataHub's default policy, refuses a Reader with DataHub's message once it is taken out, and bad parameters with 400", async () => {
      const name = username('reader');
      const reader = await actorWithRole(server, name, 'Reader');
      assert.equal((await server.request('POST', SEARCH, { auth: reader, body: {} })).status, 200);
      const basePolicy = {
        ...POLICY,
        name: 'All Users - Base Platform Privileges',
        privileges: ['GENERATE_PERSONAL_ACCESS_TOKENS'],
        actors: { ...POLICY.actors, allUsers: true },
      };
      await gqlData(server, UPDATE_POLICY, { urn: 'urn:li:dataHubPolicy:7', input: basePolicy });
      try {
        const res = await server.request('POST', SEARCH, { auth: reader, body: {} });
        assert.equal(res.status, 403, res.text);
        assert.equal(res.json.message, `urn:li:corpuser:${name} is unauthorized to READ ANALYTICS.`);
      } finally {
        await gqlData(server, UPDATE_POLICY, {
          urn: 'urn:li:dataHubPolicy:7',
          input: { ...basePolicy, privileges: ['VIEW_ANALYTICS', 'GENERATE_PERSONAL_ACCESS_TOKENS'] },
        });
      }
      assert.equal((await server.request('POST', `${SEARCH}?size=lots`, { body: {} })).status, 400);
      assert.equal((await server.request('POST', `${SEARCH}?sort=up`, { body: {} })).status, 400);
      assert.equal((await server.request('POST', SEARCH, { body: { eventTypes: 'LogInEvent' } })).status, 400);
      assert.equal((await server.request('POST', SEARCH, { body: { colour: [] } })).status, 400);
      assert.equal((await server.request('POST', `${SEARCH}?scrollId=nonsense`, { body: {} })).status, 400);
    });

    it('prunes events older than ALMANAC_AUDIT_RETENTION_DAYS in housekeeping, keeping newer ones', async () => {
      const old = Date.now() - 2 * 86_400_000;
      const kept = Date.now() - 3_600_000;
      await execElsewhere(
        db,
        `INSERT INTO audit_events (ts, event_type, actor_urn) VALUES (${old}, 'LogInEvent', 'urn:li:corpuser:audit-old'), (${kept}, 'LogInEvent', 'urn:li:corpuser:audit-kept')`,
      );
      const window = `?startTime=${old - 1}&size=100`;
      const actors = async () =>
        (await search({ actorUrns: ['urn:li:corpuser:audit-old', 'urn:li:corpuser:audit-kept'] }, window)).usageEvents.map((e) => e.actorUrn);
      // Housekeeping runs every second; wait for it to have run over the old row (up to 20 s).
      for (let i = 0; i < 200 && (await actors()).includes('urn:li:corpuser:audit-old'); i++) await sleep(100);
      assert.deepEqual(await actors(), ['urn:li:corpuser:audit-kept']);
    });
  });
}
