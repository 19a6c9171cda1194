import assert from 'node:assert/strict';
import fs from 'node:fs';
import { describe, it } from 'node:test';
import { actorWithRole } from '../support/actors.ts';
import { backends } from '../support/databases.ts';
import { useServer } from '../support/lifecycle.ts';
import { createDataset, gqlData, gqlError, ingest, mcp } from '../support/graphql.ts';
import type { TestServer } from '../support/server.ts';

const ADMIN = 'urn:li:corpuser:datahub';

// What DataHub's clients send: the selections of the UI's fragments (test/support/datahub-fragments.graphql, written
// in our own form), its deprecation mutations and token list, and datahub-gc's expired-token query.
/** The fragments by name, with the ones they spread. */
const FRAGMENTS = fs.readFileSync(new URL('../support/datahub-fragments.graphql', import.meta.url), 'utf8');
const fragment = (name: string) => {
  const m = new RegExp(`^fragment ${name} on .*$`, 'm').exec(FRAGMENTS);
  assert.ok(m, name);
  return m[0];
};
const DEPRECATION_FIELDS = ['deprecationFields', 'entityDisplayNameFields', 'nonConflictingPlatformFields', 'platformFields']
  .map(fragment)
  .join('\n');
const DISPLAY_NAME_FIELDS = ['entityDisplayNameFields', 'nonConflictingPlatformFields'].map(fragment).join('\n');
const WITH_FRAGMENTS = `query q($urn: String!) { dataset(urn: $urn) { deprecation { ...deprecationFields } } } ${DEPRECATION_FIELDS}`;
const ENTITY = `query e($urn: String!) { entity(urn: $urn) { ...entityDisplayNameFields } } ${DISPLAY_NAME_FIELDS}`;
const UPDATE = `mutation updateDeprecation($input: UpdateDeprecationInput!) {
    updateDeprecation(input: $input)
}`;
const BATCH = `mutation batchUpdateDeprecation($input: BatchUpdateDeprecationInput!) {
    batchUpdateDeprecation(input: $input)
}`;
const UI_TOKENS = `query listAccessTokens($input: ListAccessTokenInput!) {
    listAccessTokens(input: $input) {
        start
        count
        total
        tokens {
            urn
            type
            id
            name
            description
            actorUrn
            ownerUrn
            owner {
                urn
                type
                username
                properties {
                    displayName
                    firstName
                    lastName
                    fullName
                    email
                }
                editableProperties {
                    displayName
                    pictureLink
                }
            }
            createdAt
            expiresAt
        }
    }
}`;
const GC_TOKENS = `query listAccessTokens($input: ListAccessTokenInput!) {
  listAccessTokens(input: $input) {
    start
    count
    total
    tokens {
      urn
      type
      id
      name
      description
      actorUrn
      ownerUrn
      createdAt
      expiresAt
      __typename
    }
    __typename
  }
}
`;

const HIVE = 'urn:li:dataPlatform:hive';
const NEW = 'urn:li:dataset:(urn:li:dataPlatform:hive,types.new,PROD)';
const OLD = 'urn:li:dataset:(urn:li:dataPlatform:hive,types.old,PROD)';

for (const backend of await backends()) {
  describe(`DataHub's GraphQL types and documents: ${backend.name}`, { skip: backend.skip }, () => {
    let server: TestServer;
    useServer(backend, async (s) => {
      server = s;
      await ingest(
        server,
        mcp(NEW, 'datasetProperties', { name: 'New users', qualifiedName: 'db.types.new', customProperties: {} }),
        mcp(
          HIVE,
          'dataPlatformInfo',
          { name: 'hive', displayName: 'Hive', type: 'FILE_SYSTEM', datasetNameDelimiter: '.', logoUrl: 'https://x/hive.png' },
          'dataPlatform',
        ),
        mcp(ADMIN, 'corpUserInfo', { active: true, displayName: 'DataHub', fullName: 'Data Hub', email: 'admin@example.com' }, 'corpuser'),
        mcp(ADMIN, 'corpUserEditableInfo', { displayName: 'The admin', pictureLink: 'https://x/me.png' }, 'corpuser'),
      );
      await createDataset(server, OLD, ['id', 'email']);
    });

    it("answers DataHub's deprecationFields selection: the actor and the replacement are entities", async () => {
      await gqlData(server, UPDATE, { input: { urn: OLD, deprecated: true, note: 'Use new', decommissionTime: 1798675200000, replacement: NEW } });
      const { deprecation } = (await gqlData(server, WITH_FRAGMENTS, { urn: OLD })).dataset;
      assert.deepEqual(deprecation, {
        actor: ADMIN,
        deprecated: true,
        note: 'Use new',
        decommissionTime: 1798675200000,
        actorEntity: {
          urn: ADMIN,
          type: 'CORP_USER',
          username: 'datahub',
          properties: { displayName: 'DataHub', title: null, firstName: null, lastName: null, fullName: 'Data Hub', email: 'admin@example.com' },
          info: {
            active: true,
            displayName: 'DataHub',
            title: null,
            firstName: null,
            lastName: null,
            fullName: 'Data Hub',
            email: 'admin@example.com',
          },
        },
        replacement: {
          urn: NEW,
          type: 'DATASET',
          name: 'types.new',
          properties: { name: 'New users', qualifiedName: 'db.types.new' },
          platform: {
            urn: HIVE,
            type: 'DATA_PLATFORM',
            lastIngested: null,
            name: 'hive',
            properties: { type: 'FILE_SYSTEM', displayName: 'Hive', datasetNameDelimiter: '.', logical: null, logoUrl: 'https://x/hive.png' },
            displayName: 'Hive',
            info: { type: 'FILE_SYSTEM', displayName: 'Hive', datasetNameDelimiter: '.', logoUrl: 'https://x/hive.png' },
          },
        },
      });
    });

    it("deprecates one field with the UI's updateDeprecation and its sub-resource, leaving the dataset as it was", async () => {
      const before = (await gqlData(server, WITH_FRAGMENTS, { urn: OLD })).dataset.deprecation;
      await gqlData(server, UPDATE, { input: { urn: OLD, subResourceType: 'DATASET_FIELD', subResource: 'email', deprecated: true, note: 'PII' } });
      const data = await gqlData(
        server,
        'query f($urn: String!) { dataset(urn: $urn) { schemaMetadata { fields { fieldPath deprecation { deprecated note } } } } }',
        { urn: OLD },
      );
      assert.deepEqual(data.dataset.schemaMetadata.fields, [
        { fieldPath: 'id', deprecation: { deprecated: false, note: null } },
        { fieldPath: 'email', deprecation: { deprecated: true, note: 'PII' } },
      ]);
      assert.deepEqual((await gqlData(server, WITH_FRAGMENTS, { urn: OLD })).dataset.deprecation, before);
      await gqlError(
        server,
        UPDATE,
        { input: { urn: OLD, subResourceType: 'DATASET_FIELD', subResource: 'nope', deprecated: true } },
        {
          code: 400,
          type: 'BAD_REQUEST',
          message: `Failed to update ${OLD} & field nope. Field nope does not exist in the datasets schema.`,
        },
      );
    });

    it("un-deprecates with the UI's batchUpdateDeprecation: the fragment then shows no replacement", async () => {
      assert.equal((await gqlData(server, BATCH, { input: { deprecated: false, resources: [{ resourceUrn: OLD }] } })).batchUpdateDeprecation, true);
      const { deprecation } = (await gqlData(server, WITH_FRAGMENTS, { urn: OLD })).dataset;
      assert.deepEqual([deprecation.deprecated, deprecation.note, deprecation.replacement, deprecation.actorEntity.urn], [false, '', null, ADMIN]);
    });

    it('resolves entities of many kinds through entityDisplayNameFields', async () => {
      const flow = 'urn:li:dataFlow:(airflow,etl,prod)';
      const job = `urn:li:dataJob:(${flow},load)`;
      await ingest(
        server,
        mcp(flow, 'dataFlowInfo', { name: 'ETL', customProperties: {} }, 'dataFlow'),
        mcp(job, 'dataJobInfo', { name: 'Load', type: { string: 'BATCH' }, customProperties: {} }, 'dataJob'),
        mcp('urn:li:tag:pii', 'tagProperties', { name: 'PII', colorHex: '#f00' }, 'tag'),
        mcp('urn:li:corpGroup:eng', 'corpGroupInfo', { displayName: 'Engineering', admins: [], members: [], groups: [] }, 'corpGroup'),
        mcp('urn:li:glossaryTerm:Finance.Revenue', 'glossaryTermInfo', { definition: 'Money in', termSource: 'INTERNAL' }, 'glossaryTerm'),
      );
      const entity = async (urn: string) => (await gqlData(server, ENTITY, { urn })).entity;
      assert.deepEqual(await entity(job), { urn: job, type: 'DATA_JOB', jobId: 'load', properties: { name: 'Load' } });
      assert.deepEqual(await entity(flow), { urn: flow, type: 'DATA_FLOW', properties: { name: 'ETL' } });
      assert.deepEqual(await entity('urn:li:tag:pii'), {
        urn: 'urn:li:tag:pii',
        type: 'TAG',
        name: 'pii',
        properties: { name: 'PII', colorHex: '#f00' },
      });
      assert.deepEqual(await entity('urn:li:corpGroup:eng'), {
        urn: 'urn:li:corpGroup:eng',
        type: 'CORP_GROUP',
        name: 'eng',
        info: { displayName: 'Engineering' },
      });
      assert.deepEqual(await entity('urn:li:glossaryTerm:Finance.Revenue'), {
        urn: 'urn:li:glossaryTerm:Finance.Revenue',
        type: 'GLOSSARY_TERM',
        name: 'Finance.Revenue',
        hierarchicalName: 'Finance.Revenue',
        properties: { name: 'Finance.Revenue' },
      });
      assert.equal(await entity('urn:li:dataHubPolicy:x'), null, 'a kind without a GraphQL type');
    });

    it("lists tokens with the UI's query, each with its owner as a CorpUser", async () => {
      const { tokens } = (await gqlData(server, UI_TOKENS, { input: { start: 0, count: 10, filters: [{ field: 'ownerUrn', values: [ADMIN] }] } }))
        .listAccessTokens;
      assert.ok(tokens.length >= 1);
      assert.deepEqual(tokens[0].owner, {
        urn: ADMIN,
        type: 'CORP_USER',
        username: 'datahub',
        properties: { displayName: 'DataHub', firstName: null, lastName: null, fullName: 'Data Hub', email: 'admin@example.com' },
        editableProperties: { displayName: 'The admin', pictureLink: 'https://x/me.png' },
      });
      assert.equal(tokens[0].type, 'ACCESS_TOKEN');
    });

    it("answers datahub-gc's expiry query: expiresAt LESS_THAN a time lists the tokens that expire before it", async () => {
      const carol = await actorWithRole(server, 'carol', 'Editor');
      const soon = (
        await gqlData(
          server,
          'mutation { createAccessToken(input: {type: PERSONAL, actorUrn: "urn:li:corpuser:carol", duration: ONE_HOUR, name: "soon"}) { metadata { id } } }',
          {},
          { auth: carol },
        )
      ).createAccessToken.metadata.id;
      const inTwoHours = String(Date.now() + 2 * 3_600_000);
      const filters = (condition: string) => [
        { field: 'expiresAt', values: [inTwoHours], condition },
        { field: 'ownerUrn', values: ['urn:li:corpuser:carol'] },
      ];
      const before = (await gqlData(server, GC_TOKENS, { input: { start: 0, count: 10, filters: filters('LESS_THAN') } })).listAccessTokens;
      assert.deepEqual(
        before.tokens.map((t: { id: string; __typename: string }) => [t.id, t.__typename]),
        [[soon, 'AccessTokenMetadata']],
      );
      assert.equal(before.__typename, 'ListAccessTokenResult');
      const after = (await gqlData(server, GC_TOKENS, { input: { start: 0, count: 10, filters: filters('GREATER_THAN') } })).listAccessTokens;
      assert.equal(after.total, 1, "carol's own test token expires in a day");
      await gqlError(
        server,
        GC_TOKENS,
        { input: { filters: [{ field: 'type', values: ['x'] }] } },
        {
          code: 400,
          type: 'BAD_REQUEST',
          message: 'filters[0]: tokens filter on ownerUrn, actorUrn, name (EQUAL) and expiresAt, not type EQUAL',
        },
      );
    });

    it('filters dataset profiles with a FilterInput on their fields', async () => {
      const urn = 'urn:li:dataset:(urn:li:dataPlatform:hive,types.profiled,PROD)';
      const profile = (t: number, partition: string) =>
        mcp(urn, 'datasetProfile', { timestampMillis: t, rowCount: t, partitionSpec: { type: 'PARTITION', partition } });
      await ingest(server, mcp(urn, 'status', { removed: false }), profile(1, 'a'), profile(2, 'b'), profile(3, 'a'));
      const query = 'query p($urn: String!, $f: FilterInput) { dataset(urn: $urn) { datasetProfiles(filter: $f) { rowCount } } }';
      const rows = async (f?: unknown) =>
        (await gqlData(server, query, { urn, f })).dataset.datasetProfiles.map((p: { rowCount: number }) => p.rowCount);
      assert.deepEqual(await rows(), [3, 2, 1]);
      assert.deepEqual(await rows({ and: [{ field: 'partitionSpec.partition', values: ['a'] }] }), [3, 1]);
      assert.deepEqual(await rows({ and: [{ field: 'partitionSpec.partition', values: ['a'], negated: true }] }), [2]);
    });
  });
}
