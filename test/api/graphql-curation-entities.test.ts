import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { actorWithRole } from '../support/actors.ts';
import { createEntities, restliAspect } from '../support/curation.ts';
import { backends } from '../support/databases.ts';
import { useServer } from '../support/lifecycle.ts';
import { createDataset, gqlData, gqlError } from '../support/graphql.ts';
import type { TestServer } from '../support/server.ts';

const ADMIN = 'urn:li:corpuser:datahub';
const BAD_REQUEST = { code: 400, type: 'BAD_REQUEST' };
const UNAUTHORIZED = { code: 403, type: 'UNAUTHORIZED', message: 'Unauthorized to perform this action. Please contact your DataHub administrator.' };

let counter = 0;
const next = (name: string) => `${name}-${++counter}`;

const CREATE_DOMAIN = 'mutation createDomain($input: CreateDomainInput!) { createDomain(input: $input) }';
const MOVE_DOMAIN = 'mutation moveDomain($input: MoveDomainInput!) { moveDomain(input: $input) }';
const DELETE_DOMAIN = 'mutation deleteDomain($urn: String!) { deleteDomain(urn: $urn) }';
const CREATE_TERM = 'mutation createGlossaryTerm($input: CreateGlossaryEntityInput!) { createGlossaryTerm(input: $input) }';
const CREATE_NODE = 'mutation createGlossaryNode($input: CreateGlossaryEntityInput!) { createGlossaryNode(input: $input) }';
const MOVE_NODE = 'mutation updateParentNode($input: UpdateParentNodeInput!) { updateParentNode(input: $input) }';
const CREATE_PRODUCT =
  'mutation createDataProduct($input: CreateDataProductInput!) { createDataProduct(input: $input) { urn type properties { name description } } }';
const UPDATE_PRODUCT =
  'mutation updateDataProduct($urn: String!, $input: UpdateDataProductInput!) { updateDataProduct(urn: $urn, input: $input) { urn } }';
const SET_PRODUCT = 'mutation batchSetDataProduct($input: BatchSetDataProductInput!) { batchSetDataProduct(input: $input) }';
const DELETE_PRODUCT = 'mutation deleteDataProduct($urn: String!) { deleteDataProduct(urn: $urn) }';
const CREATE_GROUP = 'mutation createGroup($input: CreateGroupInput!) { createGroup(input: $input) }';
const ADD_MEMBERS = 'mutation addGroupMembers($input: AddGroupMembersInput!) { addGroupMembers(input: $input) }';
const REMOVE_GROUP = 'mutation removeGroup($urn: String!) { removeGroup(urn: $urn) }';
const REMOVE_MEMBERS = 'mutation removeGroupMembers($input: RemoveGroupMembersInput!) { removeGroupMembers(input: $input) }';

for (const backend of await backends()) {
  describe(`GraphQL domain, glossary, data product and group mutations: ${backend.name}`, { skip: backend.skip }, () => {
    let server: TestServer;
    useServer(backend, (s) => {
      server = s;
    });

    it('creates nested domains with unique names per parent, moves and deletes them', async () => {
      const [a, b] = [next('dom-a'), next('dom-b')];
      const parent = (await gqlData(server, CREATE_DOMAIN, { input: { id: a, name: `Sales ${a}`, description: 'All sales' } })).createDomain;
      assert.equal(parent, `urn:li:domain:${a}`);
      const child = (await gqlData(server, CREATE_DOMAIN, { input: { id: b, name: 'EMEA', parentDomain: parent } })).createDomain;
      const props = await restliAspect(server, child, 'domainProperties');
      assert.deepEqual({ ...props, created: undefined }, { name: 'EMEA', parentDomain: parent, created: undefined });
      assert.equal((props?.created as { actor: string }).actor, ADMIN);
      await gqlError(
        server,
        CREATE_DOMAIN,
        { input: { name: 'EMEA', parentDomain: parent } },
        {
          code: 409,
          type: 'CONFLICT',
          message: '"EMEA" already exists in this domain. Please pick a unique name.',
        },
      );
      await gqlError(server, CREATE_DOMAIN, { input: { id: a, name: 'Again' } }, { ...BAD_REQUEST, message: 'This Domain already exists!' });
      await gqlError(
        server,
        MOVE_DOMAIN,
        { input: { resourceUrn: parent, parentDomain: child } },
        {
          ...BAD_REQUEST,
          message: 'Cannot move a domain under one of its own descendants.',
        },
      );
      await gqlError(server, DELETE_DOMAIN, { urn: parent }, { ...BAD_REQUEST, message: `Cannot delete domain ${parent} which has child domains` });
      assert.deepEqual(await gqlData(server, MOVE_DOMAIN, { input: { resourceUrn: child } }), { moveDomain: true });
      assert.equal((await restliAspect(server, child, 'domainProperties'))?.parentDomain, undefined);
      assert.deepEqual(await gqlData(server, DELETE_DOMAIN, { urn: parent }), { deleteDomain: true });
      assert.equal(await restliAspect(server, parent, 'domainProperties'), undefined);
    });

    it('creates glossary nodes and terms owned by their creator, and files them elsewhere', async () => {
      const node = (await gqlData(server, CREATE_NODE, { input: { id: next('node'), name: 'Classification' } })).createGlossaryNode;
      const other = (await gqlData(server, CREATE_NODE, { input: { id: next('node'), name: 'Other', parentNode: node } })).createGlossaryNode;
      const term = (
        await gqlData(server, CREATE_TERM, { input: { id: next('term'), name: 'Sensitive', description: 'Handle with care', parentNode: node } })
      ).createGlossaryTerm;
      assert.deepEqual(await restliAspect(server, term, 'glossaryTermInfo'), {
        name: 'Sensitive',
        definition: 'Handle with care',
        termSource: 'INTERNAL',
        parentNode: node,
      });
      const owners = (await restliAspect(server, term, 'ownership'))?.owners as Array<{ owner: string; type: string }>;
      assert.deepEqual(
        owners.map((o) => [o.owner, o.type]),
        [[ADMIN, 'TECHNICAL_OWNER']],
      );
      await gqlError(
        server,
        CREATE_TERM,
        { input: { name: 'Sensitive', parentNode: node } },
        {
          ...BAD_REQUEST,
          message: 'Glossary Term with this name already exists at this level of the Business Glossary',
        },
      );
      assert.deepEqual(await gqlData(server, MOVE_NODE, { input: { resourceUrn: term, parentNode: other } }), { updateParentNode: true });
      assert.equal((await restliAspect(server, term, 'glossaryTermInfo'))?.parentNode, other);
      await gqlError(
        server,
        MOVE_NODE,
        { input: { resourceUrn: node, parentNode: other } },
        {
          ...BAD_REQUEST,
          message: 'Cannot move a glossary node under one of its own descendants.',
        },
      );
      await gqlError(
        server,
        MOVE_NODE,
        { input: { resourceUrn: term, parentNode: 'urn:li:glossaryNode:nowhere' } },
        {
          ...BAD_REQUEST,
          message: `Failed to update ${term}. urn:li:glossaryNode:nowhere either does not exist or is not a glossaryNode.`,
        },
      );
    });

    it('creates a data product in a domain, updates it, adds and removes assets, and deletes it', async () => {
      const domain = `urn:li:domain:${next('dp-domain')}`;
      await createEntities(server, domain);
      const [a, b] = [`urn:li:dataset:(urn:li:dataPlatform:hive,${next('dp')},PROD)`, `urn:li:dataset:(urn:li:dataPlatform:hive,${next('dp')},PROD)`];
      await createDataset(server, a);
      await createDataset(server, b);
      const created = (
        await gqlData(server, CREATE_PRODUCT, {
          input: { id: next('product'), domainUrn: domain, properties: { name: 'Orders', description: 'Everything orders' } },
        })
      ).createDataProduct;
      assert.deepEqual(
        { ...created, urn: undefined },
        { urn: undefined, type: 'DATA_PRODUCT', properties: { name: 'Orders', description: 'Everything orders' } },
      );
      const product = created.urn;
      // DataHub's domains sync hook keeps domainAssociations naming the same domains.
      assert.deepEqual(await restliAspect(server, product, 'domains'), { domains: [domain], domainAssociations: [{ domain }] });
      await gqlData(server, UPDATE_PRODUCT, { urn: product, input: { name: 'Orders 2' } });
      assert.equal((await restliAspect(server, product, 'dataProductProperties'))?.name, 'Orders 2');
      await gqlData(server, SET_PRODUCT, { input: { dataProductUrn: product, resourceUrns: [a, b, a] } });
      const assets = () =>
        restliAspect(server, product, 'dataProductProperties').then((p) =>
          (p?.assets as Array<{ destinationUrn: string }>).map((x) => x.destinationUrn),
        );
      assert.deepEqual(await assets(), [a, b]);
      await gqlData(server, SET_PRODUCT, { input: { dataProductUrn: null, resourceUrns: [a] } });
      assert.deepEqual(await assets(), [b]);
      await gqlError(
        server,
        CREATE_PRODUCT,
        { input: { domainUrn: 'urn:li:domain:nowhere', properties: { name: 'x' } } },
        {
          ...BAD_REQUEST,
          message: 'The Domain provided dos not exist',
        },
      );
      await gqlError(
        server,
        SET_PRODUCT,
        { input: { dataProductUrn: product, resourceUrns: ['urn:li:dataset:(urn:li:dataPlatform:hive,none,PROD)'] } },
        {
          ...BAD_REQUEST,
          message: 'Failed to update data products, resource urn:li:dataset:(urn:li:dataPlatform:hive,none,PROD) does not exist',
        },
      );
      assert.deepEqual(await gqlData(server, DELETE_PRODUCT, { urn: product }), { deleteDataProduct: true });
      assert.equal(await restliAspect(server, product, 'dataProductProperties'), undefined);
      await gqlError(server, DELETE_PRODUCT, { urn: product }, { ...BAD_REQUEST, message: 'The Data Product provided dos not exist' });
    });

    it('creates a native group and adds and removes members through their nativeGroupMembership', async () => {
      const [alice, bob] = [`urn:li:corpuser:${next('alice')}`, `urn:li:corpuser:${next('bob')}`];
      await createEntities(server, alice, bob);
      const group = (await gqlData(server, CREATE_GROUP, { input: { id: next('group'), name: 'Analysts' } })).createGroup;
      assert.deepEqual(await restliAspect(server, group, 'origin'), { type: 'NATIVE' });
      assert.equal((await restliAspect(server, group, 'corpGroupInfo'))?.displayName, 'Analysts');
      await gqlData(server, ADD_MEMBERS, { input: { groupUrn: group, userUrns: [alice, bob] } });
      await gqlData(server, ADD_MEMBERS, { input: { groupUrn: group, userUrns: [alice] } });
      assert.deepEqual(await restliAspect(server, alice, 'nativeGroupMembership'), { nativeGroups: [group] });
      await gqlData(server, REMOVE_MEMBERS, { input: { groupUrn: group, userUrns: [bob] } });
      assert.deepEqual(await restliAspect(server, bob, 'nativeGroupMembership'), { nativeGroups: [] });
      const missing = 'urn:li:corpGroup:nowhere';
      await gqlError(
        server,
        ADD_MEMBERS,
        { input: { groupUrn: missing, userUrns: [alice] } },
        {
          code: 404,
          type: 'NOT_FOUND',
          message: `Failed to add members to group ${missing}. Group does not exist.`,
        },
      );
      await gqlError(
        server,
        ADD_MEMBERS,
        { input: { groupUrn: group, userUrns: ['urn:li:corpuser:nobody'] } },
        {
          ...BAD_REQUEST,
          message: 'Failed to add member to group. User does not exist.',
        },
      );
    });

    it('removes a group with the memberships that name it, refusing a Reader and a urn that is not a group', async () => {
      const alice = `urn:li:corpuser:${next('alice')}`;
      await createEntities(server, alice);
      const [group, other] = [
        (await gqlData(server, CREATE_GROUP, { input: { id: next('gone'), name: 'Gone' } })).createGroup,
        (await gqlData(server, CREATE_GROUP, { input: { id: next('kept'), name: 'Kept' } })).createGroup,
      ];
      for (const g of [group, other]) await gqlData(server, ADD_MEMBERS, { input: { groupUrn: g, userUrns: [alice] } });
      const reader = await actorWithRole(server, next('groups-reader'), 'Reader');
      await gqlError(server, REMOVE_GROUP, { urn: group }, UNAUTHORIZED, { auth: reader });
      assert.equal((await restliAspect(server, group, 'corpGroupInfo'))?.displayName, 'Gone');

      assert.deepEqual(await gqlData(server, REMOVE_GROUP, { urn: group }), { removeGroup: true });
      assert.equal(await restliAspect(server, group, 'corpGroupInfo'), undefined);
      assert.deepEqual(await restliAspect(server, alice, 'nativeGroupMembership'), { nativeGroups: [other] });
      const read = await gqlData(server, 'query g($urn: String!) { corpGroup(urn: $urn) { urn } }', { urn: other });
      assert.deepEqual(read.corpGroup, { urn: other });
      // A group that is not there: no error, as in DataHub.
      assert.deepEqual(await gqlData(server, REMOVE_GROUP, { urn: 'urn:li:corpGroup:never-made' }), { removeGroup: true });
      await gqlError(
        server,
        REMOVE_GROUP,
        { urn: alice },
        { ...BAD_REQUEST, message: `urn must be a group urn (urn:li:corpGroup:<id>), got ${alice}` },
      );
    });

    it('refuses a Reader everything here, writing nothing, and lets an Editor manage domains and glossaries', async () => {
      const reader = await actorWithRole(server, next('entities-reader'), 'Reader');
      const id = next('refused');
      await gqlError(server, CREATE_DOMAIN, { input: { id, name: 'Refused' } }, UNAUTHORIZED, { auth: reader });
      await gqlError(server, CREATE_TERM, { input: { id, name: 'Refused' } }, UNAUTHORIZED, { auth: reader });
      await gqlError(server, CREATE_GROUP, { input: { id, name: 'Refused' } }, UNAUTHORIZED, { auth: reader });
      await gqlError(server, CREATE_PRODUCT, { input: { id, domainUrn: 'urn:li:domain:x', properties: { name: 'x' } } }, UNAUTHORIZED, {
        auth: reader,
      });
      for (const [type, aspect] of [
        ['domain', 'domainProperties'],
        ['glossaryTerm', 'glossaryTermInfo'],
        ['corpGroup', 'corpGroupInfo'],
        ['dataProduct', 'dataProductProperties'],
      ]) {
        assert.equal(await restliAspect(server, `urn:li:${type}:${id}`, aspect!), undefined, type);
      }
      const editor = await actorWithRole(server, next('entities-editor'), 'Editor');
      const domain = (await gqlData(server, CREATE_DOMAIN, { input: { name: next('Editor domain') } }, { auth: editor })).createDomain;
      assert.match(domain, /^urn:li:domain:[0-9a-f-]{36}$/);
      await gqlData(server, CREATE_TERM, { input: { name: next('Editor term') } }, { auth: editor });
    });
  });
}
