import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { actorWithRole } from '../support/actors.ts';
import { createPostgresDatabase, postgresSkipReason, type TestDatabase } from '../support/databases.ts';
import { createDataset, gqlData } from '../support/graphql.ts';
import { startServerProcess, type ServerProcess } from '../support/process.ts';
import { startTestServer, type TestServer } from '../support/server.ts';

const skip = await postgresSkipReason();
const DATASET = 'urn:li:dataset:(urn:li:dataPlatform:hive,processes.policy,PROD)';
const READER = 'urn:li:corpuser:policy-process-reader';

describe('a policy change made in one process applies to the next request in another sharing PostgreSQL', { skip }, () => {
  let db: TestDatabase;
  let first: TestServer;
  let second: ServerProcess;
  let reader: string;

  before(async () => {
    db = await createPostgresDatabase();
    first = await startTestServer(db);
    second = await startServerProcess(db.env);
    reader = await actorWithRole(first, 'policy-process-reader', 'Reader');
    await createDataset(first, DATASET);
  });
  after(async () => {
    await second?.stop();
    await first?.close();
    await db?.drop();
  });

  /** updateDeprecation in the second process, as the Reader; returns the GraphQL body. */
  const deprecateInSecond = async () => {
    const res = await fetch(`${second.address}/api/graphql`, {
      method: 'POST',
      headers: { Authorization: reader, 'Content-Type': 'application/json' },
      body: JSON.stringify({
        query: 'mutation($urn: String!) { updateDeprecation(input: { urn: $urn, deprecated: true }) }',
        variables: { urn: DATASET },
      }),
    });
    return (await res.json()) as { data?: { updateDeprecation: boolean | null }; errors?: Array<{ message: string }> };
  };

  it('grants on creation and revokes on deletion, with no wait in between', async () => {
    assert.match((await deprecateInSecond()).errors?.[0]?.message ?? '', /^Unauthorized/);
    const input = {
      type: 'METADATA',
      name: 'cross-process',
      state: 'ACTIVE',
      privileges: ['EDIT_DEPRECATION_PRIVILEGE'],
      actors: { users: [READER], resourceOwners: false, allUsers: false, allGroups: false },
      resources: { filter: { criteria: [{ field: 'URN', values: [DATASET], condition: 'EQUALS' }] } },
    };
    const { createPolicy } = await gqlData(first, 'mutation($input: PolicyUpdateInput!) { createPolicy(input: $input) }', { input });
    assert.deepEqual(await deprecateInSecond(), { data: { updateDeprecation: true }, extensions: {} });
    await gqlData(first, 'mutation($urn: String!) { deletePolicy(urn: $urn) }', { urn: createPolicy });
    assert.match((await deprecateInSecond()).errors?.[0]?.message ?? '', /^Unauthorized/);
  });
});
