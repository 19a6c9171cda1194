import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { actorWithRole } from '../support/actors.ts';
import { createEntities, restliAspect } from '../support/curation.ts';
import { backends } from '../support/databases.ts';
import { useServer } from '../support/lifecycle.ts';
import { createDataset, gqlData, gqlError, ingest, mcp } from '../support/graphql.ts';
import type { TestServer } from '../support/server.ts';

const BAD_REQUEST = { code: 400, type: 'BAD_REQUEST' };
const UNAUTHORIZED = { code: 403, type: 'UNAUTHORIZED', message: 'Unauthorized to perform this action. Please contact your DataHub administrator.' };

// DataHub's own documents (smoke-test/tests/authorization and dataproduct/queries).
const CREATE_PRODUCT = 'mutation($input: CreateDataProductInput!) { createDataProduct(input: $input) { urn } }';
const SET =
  'mutation($dataProductUrn: String!, $resourceUrns: [String!]!) { batchSetDataProduct(input: { dataProductUrn: $dataProductUrn, resourceUrns: $resourceUrns }) }';
const UNSET = 'mutation($resourceUrns: [String!]!) { batchSetDataProduct(input: { dataProductUrn: null, resourceUrns: $resourceUrns }) }';
const ADD = `mutation batchAddToDataProducts($dataProductUrns: [String!]!, $resourceUrns: [String!]!) {
  batchAddToDataProducts(input: { dataProductUrns: $dataProductUrns, resourceUrns: $resourceUrns })
}`;
const REMOVE = `mutation batchRemoveFromDataProducts($dataProductUrns: [String!]!, $resourceUrns: [String!]!) {
  batchRemoveFromDataProducts(input: { dataProductUrns: $dataProductUrns, resourceUrns: $resourceUrns })
}`;
const RENAME = 'mutation updateName($input: UpdateNameInput!) { updateName(input: $input) }';
const CREATE_POLICY = 'mutation createPolicy($input: PolicyUpdateInput!) { createPolicy(input: $input) }';

let counter = 0;
const next = (name: string) => `${name}-${++counter}`;
const dataset = () => `urn:li:dataset:(urn:li:dataPlatform:kafka,${next('member')},PROD)`;

for (const backend of await backends()) {
  describe(`data product membership, renames and system properties over GraphQL and OpenAPI: ${backend.name}`, { skip: backend.skip }, () => {
    let server: TestServer;
    useServer(backend, (s) => {
      server = s;
    });

    const product = async (domain: string) =>
      (await gqlData(server, CREATE_PRODUCT, { input: { domainUrn: domain, properties: { name: next('Product') } } })).createDataProduct
        .urn as string;
    const assets = async (productUrn: string) =>
      ((await restliAspect(server, productUrn, 'dataProductProperties'))?.assets as Array<{ destinationUrn: string }>).map((a) => a.destinationUrn);
    /** A new domain with a product in it, and a dataset in no product. */
    const productAndDataset = async () => {
      const domain = `urn:li:domain:${next('d')}`;
      await createEntities(server, domain);
      const member = dataset();
      await createDataset(server, member);
      return { domain, p: await product(domain), member };
    };
    /** A user with no role and one active METADATA policy granting these privileges on this resource, as DataHub's smoke helper makes. */
    const scopedUser = async (privileges: string[], resourceUrn: string) => {
      const auth = await actorWithRole(server, next('scoped'), 'none');
      const userUrn = (await gqlData(server, '{ me { corpUser { urn } } }', {}, { auth })).me.corpUser.urn;
      await gqlData(server, CREATE_POLICY, {
        input: {
          type: 'METADATA',
          name: next('Test policy'),
          description: 'scoped to one resource',
          state: 'ACTIVE',
          resources: { filter: { criteria: [{ field: 'URN', values: [resourceUrn], condition: 'EQUALS' }] } },
          privileges,
          actors: { users: [userUrn], resourceOwners: false, allUsers: false, allGroups: false },
        },
      });
      return auth;
    };

    it('adds an asset to several products and removes it from one, leaving the other, read back over Rest.li and the relationships', async () => {
      const domain = `urn:li:domain:${next('d')}`;
      await createEntities(server, domain);
      const [first, second] = [await product(domain), await product(domain)];
      const [a, b] = [dataset(), dataset()];
      await createDataset(server, a);
      await createDataset(server, b);

      assert.deepEqual(await gqlData(server, ADD, { dataProductUrns: [first, second], resourceUrns: [a, b] }), { batchAddToDataProducts: true });
      assert.deepEqual(await assets(first), [a, b]);
      assert.deepEqual(await assets(second), [a, b]);
      await gqlData(server, ADD, { dataProductUrns: [first], resourceUrns: [a] });
      assert.deepEqual(await assets(first), [a, b], 'an asset already listed is not listed twice');

      assert.deepEqual(await gqlData(server, REMOVE, { dataProductUrns: [first], resourceUrns: [a] }), { batchRemoveFromDataProducts: true });
      assert.deepEqual(await assets(first), [b]);
      assert.deepEqual(await assets(second), [a, b], 'the other product keeps the asset');
      const related = await server.request('GET', `/relationships?urn=${encodeURIComponent(a)}&direction=INCOMING&types=List(DataProductContains)`);
      assert.equal(related.status, 200, related.text);
      assert.deepEqual(
        related.json.relationships.map((r: { entity: string }) => r.entity),
        [second],
      );
    });

    it("refuses a missing product or asset with DataHub's messages, writing nothing", async () => {
      const { p, member: a } = await productAndDataset();
      const ghost = 'urn:li:dataProduct:ghost';
      await gqlError(
        server,
        ADD,
        { dataProductUrns: [p, ghost], resourceUrns: [a] },
        { ...BAD_REQUEST, message: `Failed to update data products, data product ${ghost} does not exist` },
      );
      assert.equal((await restliAspect(server, p, 'dataProductProperties'))?.assets, undefined, 'the existing product was not written either');
      const gone = dataset();
      await gqlError(
        server,
        REMOVE,
        { dataProductUrns: [p], resourceUrns: [gone] },
        { ...BAD_REQUEST, message: `Failed to update data products, resource ${gone} does not exist` },
      );
      await gqlError(server, ADD, { dataProductUrns: [p], resourceUrns: ['not a urn'] }, { ...BAD_REQUEST, message: /not a urn/ });
    });

    it("grants membership changes as DataHub's resource-scoped policies do: asset side for add, remove and unset, product side for set", async () => {
      const [domain, otherDomain] = [`urn:li:domain:${next('d')}`, `urn:li:domain:${next('d')}`];
      await createEntities(server, domain, otherDomain);
      const p = await product(domain);
      const [member, crossDomain] = [dataset(), dataset()];
      await ingest(server, mcp(member, 'domains', { domains: [domain] }), mcp(crossDomain, 'domains', { domains: [otherDomain] }));

      const assetSide = await scopedUser(['EDIT_ENTITY_DATA_PRODUCTS'], member);
      await gqlError(server, SET, { dataProductUrn: p, resourceUrns: [member] }, UNAUTHORIZED, { auth: assetSide });
      assert.equal((await restliAspect(server, p, 'dataProductProperties'))?.assets, undefined, 'nothing written');
      await gqlData(server, ADD, { dataProductUrns: [p], resourceUrns: [member] }, { auth: assetSide });
      assert.deepEqual(await assets(p), [member]);
      await gqlError(server, ADD, { dataProductUrns: [p], resourceUrns: [crossDomain] }, UNAUTHORIZED, { auth: assetSide });
      await gqlData(server, REMOVE, { dataProductUrns: [p], resourceUrns: [member] }, { auth: assetSide });
      assert.deepEqual(await assets(p), []);
      await gqlData(server, SET, { dataProductUrn: p, resourceUrns: [member] });
      await gqlData(server, UNSET, { resourceUrns: [member] }, { auth: assetSide });
      assert.deepEqual(await assets(p), []);

      const productSide = await scopedUser(['MANAGE_DATA_PRODUCTS'], domain);
      await gqlData(server, SET, { dataProductUrn: p, resourceUrns: [member, crossDomain] }, { auth: productSide });
      assert.deepEqual(await assets(p), [member, crossDomain]);
      await gqlError(server, ADD, { dataProductUrns: [p], resourceUrns: [member] }, UNAUTHORIZED, { auth: productSide });
    });

    it('refuses a Reader every membership change and updateDataProduct, writing nothing', async () => {
      const { p, member } = await productAndDataset();
      await gqlData(server, SET, { dataProductUrn: p, resourceUrns: [member] });
      const reader = await actorWithRole(server, next('reader'), 'Reader');
      const as = { auth: reader };
      const other = dataset();
      await createDataset(server, other);
      await gqlError(server, SET, { dataProductUrn: p, resourceUrns: [other] }, UNAUTHORIZED, as);
      await gqlError(server, UNSET, { resourceUrns: [member] }, UNAUTHORIZED, as);
      await gqlError(server, ADD, { dataProductUrns: [p], resourceUrns: [other] }, UNAUTHORIZED, as);
      await gqlError(server, REMOVE, { dataProductUrns: [p], resourceUrns: [member] }, UNAUTHORIZED, as);
      await gqlError(
        server,
        'mutation($urn: String!, $input: UpdateDataProductInput!) { updateDataProduct(urn: $urn, input: $input) { urn } }',
        { urn: p, input: { name: 'Refused', description: 'Refused' } },
        UNAUTHORIZED,
        as,
      );
      const stored = await restliAspect(server, p, 'dataProductProperties');
      assert.deepEqual(
        (stored?.assets as Array<{ destinationUrn: string }>).map((a) => a.destinationUrn),
        [member],
      );
      assert.notEqual(stored?.name, 'Refused');
      assert.equal(stored?.description, undefined);
    });

    it('renames a data product for a manager of its domain or an editor of the product, and nobody else', async () => {
      const { domain, p, member } = await productAndDataset();
      const rename = (name: string, auth?: string) => gqlData(server, RENAME, { input: { urn: p, name } }, auth ? { auth } : undefined);
      const name = async () => (await restliAspect(server, p, 'dataProductProperties'))?.name;

      const reader = await actorWithRole(server, next('reader'), 'Reader');
      await gqlError(server, RENAME, { input: { urn: p, name: 'Refused' } }, UNAUTHORIZED, { auth: reader });
      const assetSide = await scopedUser(['EDIT_ENTITY_DATA_PRODUCTS'], member);
      await gqlError(server, RENAME, { input: { urn: p, name: 'Refused' } }, UNAUTHORIZED, { auth: assetSide });
      assert.notEqual(await name(), 'Refused');

      assert.deepEqual(await rename('By the domain manager', await scopedUser(['MANAGE_DATA_PRODUCTS'], domain)), { updateName: true });
      assert.equal(await name(), 'By the domain manager');
      await rename('By the product editor', await scopedUser(['EDIT_ENTITY'], p));
      assert.equal(await name(), 'By the product editor');
    });

    it('renames glossary entries, domains and groups, keeping the rest of their aspect', async () => {
      const [term, node, group] = [`urn:li:glossaryTerm:${next('t')}`, `urn:li:glossaryNode:${next('n')}`, `urn:li:corpGroup:${next('g')}`];
      const [domain, sibling] = [`urn:li:domain:${next('d')}`, `urn:li:domain:${next('d')}`];
      await ingest(
        server,
        mcp(term, 'glossaryTermInfo', { name: 'Old term', definition: 'kept', termSource: 'INTERNAL' }, 'glossaryTerm'),
        mcp(node, 'glossaryNodeInfo', { name: 'Old node', definition: 'kept' }, 'glossaryNode'),
        mcp(domain, 'domainProperties', { name: 'Old domain', description: 'kept' }, 'domain'),
        mcp(sibling, 'domainProperties', { name: 'Taken' }, 'domain'),
        mcp(group, 'corpGroupInfo', { displayName: 'Old group', admins: [], members: [], groups: [] }, 'corpGroup'),
      );
      for (const urn of [term, node, domain, group]) await gqlData(server, RENAME, { input: { urn, name: 'Renamed' } });
      assert.deepEqual(await restliAspect(server, term, 'glossaryTermInfo'), { name: 'Renamed', definition: 'kept', termSource: 'INTERNAL' });
      assert.equal((await restliAspect(server, node, 'glossaryNodeInfo'))?.name, 'Renamed');
      assert.deepEqual(await restliAspect(server, domain, 'domainProperties'), { name: 'Renamed', description: 'kept' });
      assert.equal((await restliAspect(server, group, 'corpGroupInfo'))?.displayName, 'Renamed');
      await gqlError(
        server,
        RENAME,
        { input: { urn: domain, name: 'Taken' } },
        { code: 409, type: 'CONFLICT', message: '"Taken" already exists in this domain. Please pick a unique name.' },
      );
      assert.equal((await restliAspect(server, domain, 'domainProperties'))?.name, 'Renamed');
    });

    it("refuses a rename of a missing entity, of an unsupported type, or to an empty name, with DataHub's messages", async () => {
      const missing = 'urn:li:dataProduct:nowhere';
      await gqlError(server, RENAME, { input: { urn: missing, name: 'x' } }, { ...BAD_REQUEST, message: 'The Data Product provided dos not exist' });
      const domain = 'urn:li:domain:nowhere';
      await gqlError(
        server,
        RENAME,
        { input: { urn: domain, name: 'x' } },
        { ...BAD_REQUEST, message: `Failed to update ${domain}. ${domain} does not exist.` },
      );
      const chart = 'urn:li:chart:(looker,c1)';
      await gqlError(
        server,
        RENAME,
        { input: { urn: chart, name: 'x' } },
        { ...BAD_REQUEST, message: `Failed to update name. Unsupported resource type ${chart} provided.` },
      );
      const group = `urn:li:corpGroup:${next('g')}`;
      await ingest(server, mcp(group, 'corpGroupInfo', { displayName: 'Kept', admins: [], members: [], groups: [] }, 'corpGroup'));
      await gqlError(server, RENAME, { input: { urn: group, name: '  ' } }, { ...BAD_REQUEST, message: "Field 'name' must not be empty" });
      assert.equal((await restliAspect(server, group, 'corpGroupInfo'))?.displayName, 'Kept');
    });

    it("serves DataHub's simple system properties to operators only, with view authorization off", async () => {
      const res = await server.request('GET', '/openapi/v1/system-info/properties/simple');
      assert.equal(res.status, 200, res.text);
      assert.equal(res.json['authorization.view.enabled'], 'false');
      assert.equal(res.json['featureFlags.multipleDataProductsPerAsset'], 'true');
      const reader = await actorWithRole(server, next('reader'), 'Reader');
      const refused = await server.request('GET', '/openapi/v1/system-info/properties/simple', { auth: reader });
      assert.equal(refused.status, 403);
      assert.match(refused.text, /urn:li:corpuser:reader-\d+ is not authorized for system operations\./);
    });
  });
}
