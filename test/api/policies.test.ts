import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { actorWithRole } from '../support/actors.ts';
import { backends } from '../support/databases.ts';
import { useServer } from '../support/lifecycle.ts';
import { createDataset, gql, gqlData, gqlError, ingest, mcp } from '../support/graphql.ts';
import type { TestServer } from '../support/server.ts';

const DENIED = { code: 403, type: 'UNAUTHORIZED', message: 'Unauthorized to perform this action. Please contact your DataHub administrator.' };
const BAD_REQUEST = { code: 400, type: 'BAD_REQUEST' };

// DataHub's own mutation and query shapes (datahub-web-react's policy documents).
const CREATE = 'mutation createPolicy($input: PolicyUpdateInput!) { createPolicy(input: $input) }';
const UPDATE = 'mutation updatePolicy($urn: String!, $input: PolicyUpdateInput!) { updatePolicy(urn: $urn, input: $input) }';
const DELETE = 'mutation deletePolicy($urn: String!) { deletePolicy(urn: $urn) }';
const LIST = `query listPolicies($input: ListPoliciesInput!) {
  listPolicies(input: $input) {
    start count total
    policies {
      urn type name state description privileges editable
      actors { users groups roles allUsers allGroups resourceOwners resourceOwnersTypes resolvedUsers { urn } }
      resources { type allResources resources filter { criteria { field condition values { value } } } }
    }
  }
}`;
const DEPRECATE = 'mutation updateDeprecation($input: UpdateDeprecationInput!) { updateDeprecation(input: $input) }';

let counter = 0;
const datasetUrn = () => `urn:li:dataset:(urn:li:dataPlatform:hive,policies.t${++counter},PROD)`;
const userName = (role: string) => `policy-${role.toLowerCase()}-${++counter}`;

const NO_ACTORS = { resourceOwners: false, allUsers: false, allGroups: false };
const onDatasets = (...urns: string[]) => ({ filter: { criteria: [{ field: 'URN', values: urns, condition: 'EQUALS' }] } });
const policy = (fields: Record<string, unknown>) => ({
  type: 'METADATA',
  name: `test policy ${++counter}`,
  state: 'ACTIVE',
  description: 'made by a test',
  privileges: ['EDIT_DEPRECATION_PRIVILEGE'],
  actors: NO_ACTORS,
  ...fields,
});

for (const backend of await backends()) {
  describe(`DataHub policies evaluated with roles: ${backend.name}`, { skip: backend.skip }, () => {
    let server: TestServer;
    useServer(backend, (s) => {
      server = s;
    });

    const create = async (input: Record<string, unknown>): Promise<string> => (await gqlData(server, CREATE, { input })).createPolicy;
    /** A Reader (a role that grants no metadata privilege) with a bearer header. */
    const reader = async () => {
      const name = userName('Reader');
      return { urn: `urn:li:corpuser:${name}`, auth: await actorWithRole(server, name, 'Reader') };
    };
    const deprecate = (auth: string, urn: string) => gql(server, DEPRECATE, { input: { urn, deprecated: true, note: 'by policy' } }, { auth });
    const assertAllowed = async (auth: string, urn: string) =>
      assert.deepEqual((await deprecate(auth, urn)).json, { data: { updateDeprecation: true }, extensions: {} });
    const assertRefused = async (auth: string, urn: string) => {
      const res = await deprecate(auth, urn);
      assert.equal(res.json.errors?.[0]?.message, DENIED.message, res.text);
      assert.deepEqual(res.json.errors[0].extensions, { code: 403, type: 'UNAUTHORIZED' });
    };

    it("installs DataHub's default policies on first start, reduced to Almanac's privileges", async () => {
      const { listPolicies } = await gqlData(server, LIST, { input: { start: 0, count: 100 } });
      const byUrn = new Map<string, { privileges: string[]; type: string; state: string; editable: boolean; actors: Record<string, unknown> }>(
        listPolicies.policies.map((p: { urn: string }) => [p.urn, p]),
      );
      const root = byUrn.get('urn:li:dataHubPolicy:0')!;
      assert.equal(root.type, 'PLATFORM');
      assert.equal(root.editable, false);
      assert.ok(root.privileges.includes('MANAGE_POLICIES'));
      assert.deepEqual(byUrn.get('urn:li:dataHubPolicy:1')?.privileges, [
        'EDIT_ENTITY',
        'EDIT_DEPRECATION_PRIVILEGE',
        'EDIT_ENTITY_TAGS',
        'EDIT_ENTITY_GLOSSARY_TERMS',
        'EDIT_ENTITY_OWNERS',
        'EDIT_ENTITY_DOCS',
        'EDIT_ENTITY_DOC_LINKS',
        'EDIT_DOMAINS_PRIVILEGE',
        'EDIT_DATASET_COL_TAGS',
        'EDIT_DATASET_COL_GLOSSARY_TERMS',
        'EDIT_DATASET_COL_DESCRIPTION',
        'MANAGE_GLOSSARY_CHILDREN',
        'MANAGE_ALL_GLOSSARY_CHILDREN',
        'MANAGE_DATA_PRODUCTS',
        'EDIT_ENTITY_DATA_PRODUCTS',
        'EDIT_GROUP_MEMBERS',
      ]);
      const allUsers = byUrn.get('urn:li:dataHubPolicy:7')!;
      assert.deepEqual(allUsers.privileges, ['VIEW_ANALYTICS', 'GENERATE_PERSONAL_ACCESS_TOKENS']);
      assert.equal(allUsers.actors.allUsers, true);
      const owners = byUrn.get('urn:li:dataHubPolicy:asset-owners-metadata-policy')!;
      assert.equal(owners.actors.resourceOwners, true);
      assert.equal(owners.state, 'ACTIVE');
    });

    it('lets a Reader deprecate the one dataset a policy names, and no other', async () => {
      const [mine, other] = [datasetUrn(), datasetUrn()];
      await createDataset(server, mine);
      await createDataset(server, other);
      const me = await reader();
      await assertRefused(me.auth, mine);
      await create(policy({ actors: { ...NO_ACTORS, users: [me.urn] }, resources: onDatasets(mine) }));
      await assertAllowed(me.auth, mine);
      await assertRefused(me.auth, other);
      // The same policy does not grant what it does not list: editing the dataset's other aspects.
      const res = await server.request('POST', '/aspects?action=ingestProposal', {
        body: { proposal: mcp(mine, 'status', { removed: false }) },
        auth: me.auth,
      });
      assert.equal(res.status, 403, res.text);
      assert.equal(res.json.message, `User ${me.urn} is unauthorized to modify entity: ${mine}`);
    });

    it('lets EDIT_ENTITY on one dataset through Rest.li ingestion for that dataset only, naming the refused one', async () => {
      const [mine, other] = [datasetUrn(), datasetUrn()];
      const me = await reader();
      await create(policy({ privileges: ['EDIT_ENTITY'], actors: { ...NO_ACTORS, users: [me.urn] }, resources: onDatasets(mine) }));
      const write = (urn: string) =>
        server.request('POST', '/aspects?action=ingestProposal', { body: { proposal: mcp(urn, 'status', { removed: false }) }, auth: me.auth });
      assert.equal((await write(mine)).status, 200);
      const refused = await write(other);
      assert.equal(refused.status, 403, refused.text);
      assert.equal(refused.json.message, `User ${me.urn} is unauthorized to modify entity: ${other}`);
      // EDIT_ENTITY also allows deprecation, as DataHub's DeprecationUtils says.
      await assertAllowed(me.auth, mine);
    });

    it('grants to the members of a group the policy names', async () => {
      const urn = datasetUrn();
      await createDataset(server, urn);
      const [member, outsider] = [await reader(), await reader()];
      const group = `urn:li:corpGroup:policy-group-${++counter}`;
      await ingest(server, mcp(member.urn, 'groupMembership', { groups: [group] }, 'corpuser'));
      await create(policy({ actors: { ...NO_ACTORS, groups: [group] }, resources: onDatasets(urn) }));
      await assertAllowed(member.auth, urn);
      await assertRefused(outsider.auth, urn);
    });

    it("lets owners edit what they own through DataHub's default owners policy, and only that", async () => {
      const [owned, notOwned] = [datasetUrn(), datasetUrn()];
      const me = await reader();
      await ingest(
        server,
        mcp(owned, 'ownership', { owners: [{ owner: me.urn, type: 'TECHNICAL_OWNER' }] }),
        mcp(notOwned, 'status', { removed: false }),
      );
      await assertAllowed(me.auth, owned);
      await assertRefused(me.auth, notOwned);
    });

    it('limits an owners policy to the ownership types it names', async () => {
      const urn = datasetUrn();
      const [steward, technical] = [await reader(), await reader()];
      const stewardType = 'urn:li:ownershipType:__system__data_steward';
      await ingest(
        server,
        mcp(urn, 'ownership', {
          owners: [
            { owner: steward.urn, type: 'CUSTOM', typeUrn: stewardType },
            { owner: technical.urn, type: 'TECHNICAL_OWNER', typeUrn: 'urn:li:ownershipType:__system__technical_owner' },
          ],
        }),
      );
      // The default owners policy would let both through; with it inactive, only the typed policy applies.
      const defaults = (await gqlData(server, LIST, { input: { query: 'Asset Owners' } })).listPolicies.policies;
      const ownersDefault = defaults.find((p: { urn: string }) => p.urn === 'urn:li:dataHubPolicy:asset-owners-metadata-policy');
      const asInput = (state: string) => ({
        type: ownersDefault.type,
        name: ownersDefault.name,
        state,
        description: ownersDefault.description,
        privileges: ownersDefault.privileges,
        actors: { ...NO_ACTORS, resourceOwners: true },
      });
      await gqlData(server, UPDATE, { urn: ownersDefault.urn, input: asInput('INACTIVE') });
      try {
        await create(policy({ actors: { ...NO_ACTORS, resourceOwners: true, resourceOwnersTypes: [stewardType] } }));
        await assertAllowed(steward.auth, urn);
        await assertRefused(technical.auth, urn);
      } finally {
        await gqlData(server, UPDATE, { urn: ownersDefault.urn, input: asInput('ACTIVE') });
      }
    });

    it('matches resources by tag and domain criteria, all of which must hold (NOT_EQUALS excludes)', async () => {
      const [tagged, taggedSecret, untagged] = [datasetUrn(), datasetUrn(), datasetUrn()];
      const pii = { tags: [{ tag: 'urn:li:tag:pii' }] };
      await ingest(
        server,
        mcp(tagged, 'globalTags', pii),
        mcp(taggedSecret, 'globalTags', pii),
        mcp(taggedSecret, 'domains', { domains: ['urn:li:domain:secret'] }),
        mcp(untagged, 'status', { removed: false }),
      );
      const me = await reader();
      const criteria = [
        { field: 'TAG', values: ['urn:li:tag:pii'], condition: 'EQUALS' },
        { field: 'DOMAIN', values: ['urn:li:domain:secret'], condition: 'NOT_EQUALS' },
      ];
      await create(policy({ actors: { ...NO_ACTORS, users: [me.urn] }, resources: { filter: { criteria } } }));
      await assertAllowed(me.auth, tagged);
      await assertRefused(me.auth, taggedSecret);
      await assertRefused(me.auth, untagged);
    });

    it('ignores an inactive policy until it is made active', async () => {
      const urn = datasetUrn();
      await createDataset(server, urn);
      const me = await reader();
      const input = policy({ state: 'INACTIVE', actors: { ...NO_ACTORS, users: [me.urn] }, resources: onDatasets(urn) });
      const policyUrn = await create(input);
      await assertRefused(me.auth, urn);
      assert.equal((await gqlData(server, UPDATE, { urn: policyUrn, input: { ...input, state: 'ACTIVE' } })).updatePolicy, policyUrn);
      await assertAllowed(me.auth, urn);
    });

    it('revokes on the very next request when the policy is deleted', async () => {
      const urn = datasetUrn();
      await createDataset(server, urn);
      const me = await reader();
      const policyUrn = await create(policy({ actors: { ...NO_ACTORS, users: [me.urn] }, resources: onDatasets(urn) }));
      await assertAllowed(me.auth, urn);
      assert.equal((await gqlData(server, DELETE, { urn: policyUrn })).deletePolicy, policyUrn);
      await assertRefused(me.auth, urn);
      const listed = (await gqlData(server, LIST, { input: { count: 1000 } })).listPolicies.policies.map((p: { urn: string }) => p.urn);
      assert.ok(!listed.includes(policyUrn));
    });

    it('grants platform privileges through a platform policy (index sizes to a Reader)', async () => {
      const me = await reader();
      const sizes = () => server.request('POST', '/operations?action=getIndexSizes', { body: {}, auth: me.auth });
      assert.equal((await sizes()).status, 403);
      await create(policy({ type: 'PLATFORM', privileges: ['GET_TIMESERIES_INDEX_SIZES_PRIVILEGE'], actors: { ...NO_ACTORS, users: [me.urn] } }));
      assert.equal((await sizes()).status, 200);
      const { me: who } = await gqlData(server, '{ me { platformPrivileges: privileges } }', {}, { auth: me.auth });
      assert.ok(who.platformPrivileges.includes('GET_TIMESERIES_INDEX_SIZES_PRIVILEGE'), JSON.stringify(who));
    });

    it('reads a policy written through the aspect APIs, which only a policy manager may write', async () => {
      const urn = datasetUrn();
      await createDataset(server, urn);
      const me = await reader();
      const policyUrn = `urn:li:dataHubPolicy:aspect-written-${++counter}`;
      const info = {
        displayName: 'written as an aspect',
        description: '',
        type: 'METADATA',
        state: 'ACTIVE',
        privileges: ['EDIT_DEPRECATION_PRIVILEGE'],
        actors: { users: [me.urn], resourceOwners: false, allUsers: false, allGroups: false },
        resources: { allResources: false, resources: [urn], type: 'dataset' },
        editable: true,
      };
      const proposal = mcp(policyUrn, 'dataHubPolicyInfo', info, 'dataHubPolicy');
      const editorName = userName('Editor');
      const editor = await actorWithRole(server, editorName, 'Editor');
      const refused = await server.request('POST', '/aspects?action=ingestProposal', { body: { proposal }, auth: editor });
      assert.equal(refused.status, 403, refused.text);
      assert.equal(refused.json.message, `User urn:li:corpuser:${editorName} is unauthorized to modify entity: ${policyUrn}`);
      // Entity types are matched case-insensitively on ingestion, so another spelling is no way around the check.
      const respelt = mcp(policyUrn.replace('dataHubPolicy', 'datahubpolicy'), 'dataHubPolicyInfo', info, 'dataHubPolicy');
      const alsoRefused = await server.request('POST', '/aspects?action=ingestProposal', { body: { proposal: respelt }, auth: editor });
      assert.equal(alsoRefused.status, 403, alsoRefused.text);
      await assertRefused(me.auth, urn);
      await ingest(server, proposal);
      // The deprecated type/resources form still scopes the policy, as in DataHub.
      await assertAllowed(me.auth, urn);
      await assertRefused(me.auth, datasetUrn());
    });

    it('lets only policy managers list and change policies', async () => {
      const editor = await actorWithRole(server, userName('Editor'), 'Editor');
      await gqlError(server, LIST, { input: {} }, DENIED, { auth: editor });
      await gqlError(server, CREATE, { input: policy({}) }, DENIED, { auth: editor });
      await gqlError(server, DELETE, { urn: 'urn:li:dataHubPolicy:7' }, DENIED, { auth: editor });
    });

    it('pages and filters the list as DataHub does, by query and by field', async () => {
      const tag = `pagetest${++counter}`;
      const first = await create(policy({ name: `${tag} one` }));
      const second = await create(policy({ name: `${tag} two`, state: 'INACTIVE' }));
      const page = (await gqlData(server, LIST, { input: { query: tag, start: 1, count: 1 } })).listPolicies;
      assert.deepEqual(
        { start: page.start, count: page.count, total: page.total, listed: page.policies.length },
        { start: 1, count: 1, total: 2, listed: 1 },
      );
      const inactive = (await gqlData(server, LIST, { input: { query: tag, orFilters: [{ and: [{ field: 'state', values: ['INACTIVE'] }] }] } }))
        .listPolicies;
      assert.deepEqual(
        inactive.policies.map((p: { urn: string }) => p.urn),
        [second],
      );
      const both = (await gqlData(server, LIST, { input: { query: tag } })).listPolicies.policies.map((p: { urn: string }) => p.urn);
      assert.deepEqual(new Set(both), new Set([first, second]));
    });

    it('refuses bad policy input with 400 naming the field, and stores nothing', async () => {
      const before = (await gqlData(server, LIST, { input: { count: 0 } })).listPolicies.total;
      const cases: Array<[Record<string, unknown>, RegExp]> = [
        [policy({ name: ' ' }), /^input\.name/],
        [policy({ privileges: [] }), /^input\.privileges/],
        [policy({ actors: { ...NO_ACTORS, users: ['urn:li:corpGroup:x'] } }), /^input\.actors\.users\[0\]/],
        [policy({ actors: { ...NO_ACTORS, groups: ['not an urn'] } }), /^input\.actors\.groups\[0\]/],
        [
          policy({ resources: { filter: { criteria: [{ field: 'COLOUR', values: ['red'], condition: 'EQUALS' }] } } }),
          /^input\.resources\.filter\.criteria\[0\]\.field/,
        ],
        [
          policy({ resources: { filter: { criteria: [{ field: 'URN', values: [], condition: 'EQUALS' }] } } }),
          /^input\.resources\.filter\.criteria\[0\]\.values/,
        ],
      ];
      for (const [input, message] of cases) await gqlError(server, CREATE, { input }, { ...BAD_REQUEST, message });
      await gqlError(server, UPDATE, { urn: 'urn:li:corpuser:datahub', input: policy({}) }, { ...BAD_REQUEST, message: /^urn: / });
      assert.equal((await gqlData(server, LIST, { input: { count: 0 } })).listPolicies.total, before);
    });
  });
}
