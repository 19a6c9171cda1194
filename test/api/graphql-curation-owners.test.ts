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
const ALICE = 'urn:li:corpuser:owners-alice';
const BOB = 'urn:li:corpuser:owners-bob';
const TEAM = 'urn:li:corpGroup:owners-team';
const STEWARDS = 'urn:li:ownershipType:owners-stewards';
const TECHNICAL = 'urn:li:ownershipType:__system__technical_owner';
const BUSINESS = 'urn:li:ownershipType:__system__business_owner';

let counter = 0;
const datasetUrn = (name = 'owners') => `urn:li:dataset:(urn:li:dataPlatform:hive,${name}.t${++counter},PROD)`;

const ADD_OWNER = 'mutation addOwner($input: AddOwnerInput!) { addOwner(input: $input) }';
const ADD_OWNERS = 'mutation addOwners($input: AddOwnersInput!) { addOwners(input: $input) }';
const REMOVE_OWNER = 'mutation removeOwner($input: RemoveOwnerInput!) { removeOwner(input: $input) }';
const BATCH_ADD = 'mutation batchAddOwners($input: BatchAddOwnersInput!) { batchAddOwners(input: $input) }';
const BATCH_REMOVE = 'mutation batchRemoveOwners($input: BatchRemoveOwnersInput!) { batchRemoveOwners(input: $input) }';

type Owner = { owner: string; type: string; typeUrn: string; source?: unknown };
const ownersOf = async (server: TestServer, urn: string) =>
  ((await restliAspect(server, urn, 'ownership'))?.owners as Owner[] | undefined)?.map((o) => [o.owner, o.type, o.typeUrn]);

for (const backend of await backends()) {
  describe(`GraphQL owner mutations: ${backend.name}`, { skip: backend.skip }, () => {
    let server: TestServer;
    useServer(backend, async (s) => {
      server = s;
      await createEntities(server, ALICE, BOB, TEAM, STEWARDS);
    });

    it('adds owners with built-in and custom ownership types, replacing the same owner of the same type', async () => {
      const urn = datasetUrn();
      await createDataset(server, urn);
      const added = await gqlData(server, ADD_OWNER, {
        input: { ownerUrn: ALICE, ownerEntityType: 'CORP_USER', type: 'TECHNICAL_OWNER', resourceUrn: urn },
      });
      assert.deepEqual(added, { addOwner: true });
      await gqlData(server, ADD_OWNERS, {
        input: {
          resourceUrn: urn,
          owners: [
            { ownerUrn: ALICE, ownerEntityType: 'CORP_USER', type: 'TECHNICAL_OWNER' },
            { ownerUrn: TEAM, ownerEntityType: 'CORP_GROUP', ownershipTypeUrn: STEWARDS },
            { ownerUrn: BOB, ownerEntityType: 'CORP_USER', type: 'BUSINESS_OWNER', ownershipTypeUrn: BUSINESS },
          ],
        },
      });
      assert.deepEqual(await ownersOf(server, urn), [
        [ALICE, 'TECHNICAL_OWNER', TECHNICAL],
        [TEAM, 'NONE', STEWARDS],
        [BOB, 'BUSINESS_OWNER', BUSINESS],
      ]);
      const ownership = await restliAspect(server, urn, 'ownership');
      assert.deepEqual((ownership?.owners as Owner[])[0]!.source, { type: 'MANUAL' });
      assert.equal((ownership?.lastModified as { actor: string }).actor, ADMIN);
    });

    it('removes an owner, of one ownership type only when one is named', async () => {
      const urn = datasetUrn();
      await createDataset(server, urn);
      await gqlData(server, ADD_OWNERS, {
        input: {
          resourceUrn: urn,
          owners: [
            { ownerUrn: ALICE, ownerEntityType: 'CORP_USER', type: 'TECHNICAL_OWNER' },
            { ownerUrn: ALICE, ownerEntityType: 'CORP_USER', type: 'BUSINESS_OWNER' },
            { ownerUrn: BOB, ownerEntityType: 'CORP_USER', type: 'TECHNICAL_OWNER' },
          ],
        },
      });
      assert.deepEqual(await gqlData(server, REMOVE_OWNER, { input: { ownerUrn: ALICE, ownershipTypeUrn: BUSINESS, resourceUrn: urn } }), {
        removeOwner: true,
      });
      assert.deepEqual(await ownersOf(server, urn), [
        [ALICE, 'TECHNICAL_OWNER', TECHNICAL],
        [BOB, 'TECHNICAL_OWNER', TECHNICAL],
      ]);
      await gqlData(server, REMOVE_OWNER, { input: { ownerUrn: ALICE, resourceUrn: urn } });
      assert.deepEqual(await ownersOf(server, urn), [[BOB, 'TECHNICAL_OWNER', TECHNICAL]]);
    });

    it('batch-adds and batch-removes owners across entities in one transaction', async () => {
      const [a, b] = [datasetUrn(), datasetUrn()];
      await createDataset(server, a);
      await createDataset(server, b);
      const resources = [{ resourceUrn: a }, { resourceUrn: b }];
      await gqlData(server, BATCH_ADD, {
        input: { owners: [{ ownerUrn: TEAM, ownerEntityType: 'CORP_GROUP', type: 'DATA_STEWARD' }], resources },
      });
      assert.deepEqual(await ownersOf(server, b), [[TEAM, 'DATA_STEWARD', 'urn:li:ownershipType:__system__data_steward']]);
      await gqlData(server, BATCH_REMOVE, { input: { ownerUrns: [TEAM], resources } });
      assert.deepEqual(await ownersOf(server, a), []);
    });

    it('refuses a Reader with DataHub’s owner message, writing nothing', async () => {
      const urn = datasetUrn();
      await createDataset(server, urn);
      const reader = await actorWithRole(server, `owners-reader-${++counter}`, 'Reader');
      const refused = { code: 403, type: 'UNAUTHORIZED', message: 'Unauthorized to update owners. Please contact your DataHub administrator.' };
      const owner = { ownerUrn: ALICE, ownerEntityType: 'CORP_USER', type: 'TECHNICAL_OWNER' };
      const body = await gqlError(server, ADD_OWNER, { input: { ...owner, resourceUrn: urn } }, refused, { auth: reader });
      assert.deepEqual(body.data, { addOwner: null });
      await gqlError(server, BATCH_ADD, { input: { owners: [owner], resources: [{ resourceUrn: urn }] } }, refused, { auth: reader });
      await gqlError(server, REMOVE_OWNER, { input: { ownerUrn: ALICE, resourceUrn: urn } }, refused, { auth: reader });
      assert.equal(await restliAspect(server, urn, 'ownership'), undefined);
    });

    it('refuses missing entities and owners, mistyped owners and fields with DataHub’s messages, writing nothing', async () => {
      const urn = datasetUrn();
      await createDataset(server, urn, ['id']);
      const missing = datasetUrn('missing');
      const owner = { ownerUrn: ALICE, ownerEntityType: 'CORP_USER', type: 'TECHNICAL_OWNER' };
      await gqlError(
        server,
        ADD_OWNER,
        { input: { ...owner, resourceUrn: missing } },
        {
          ...BAD_REQUEST,
          message: `Failed to change ownership for resource ${missing}. Resource does not exist.`,
        },
      );
      await gqlError(
        server,
        BATCH_ADD,
        { input: { owners: [owner], resources: [{ resourceUrn: urn }, { resourceUrn: missing }] } },
        {
          ...BAD_REQUEST,
          message: `Failed to update resource with urn ${missing}. Entity does not exist.`,
        },
      );
      await gqlError(
        server,
        ADD_OWNERS,
        { input: { resourceUrn: urn, owners: [{ ...owner, ownerUrn: 'urn:li:corpuser:nobody' }] } },
        {
          ...BAD_REQUEST,
          message: 'Failed to change ownership for resource(s). Owner with urn urn:li:corpuser:nobody does not exist.',
        },
      );
      await gqlError(
        server,
        ADD_OWNERS,
        { input: { resourceUrn: urn, owners: [{ ...owner, ownerUrn: TEAM }] } },
        {
          ...BAD_REQUEST,
          message: `Failed to change ownership for resource(s). Expected a corp user urn, found ${TEAM}.`,
        },
      );
      await gqlError(
        server,
        ADD_OWNERS,
        { input: { resourceUrn: urn, owners: [{ ownerUrn: ALICE, ownerEntityType: 'CORP_USER' }] } },
        {
          ...BAD_REQUEST,
          message: 'Failed to change ownership for resource(s). Expected either type or ownershipTypeUrn to be specified.',
        },
      );
      await gqlError(
        server,
        ADD_OWNERS,
        { input: { resourceUrn: urn, owners: [{ ...owner, ownershipTypeUrn: 'urn:li:ownershipType:nothing' }] } },
        {
          ...BAD_REQUEST,
          message: 'Failed to change ownership for resource(s). Custom Ownership type with urn urn:li:ownershipType:nothing does not exist.',
        },
      );
      await gqlError(
        server,
        BATCH_ADD,
        { input: { owners: [owner], resources: [{ resourceUrn: urn, subResourceType: 'DATASET_FIELD', subResource: 'id' }] } },
        { ...BAD_REQUEST, message: 'Malformed input provided: owners cannot be applied to subresources.' },
      );
      assert.equal(await restliAspect(server, urn, 'ownership'), undefined);
    });
  });
}
