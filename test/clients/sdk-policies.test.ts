import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { actorWithRole } from '../support/actors.ts';
import { clientBackends, useClientScript } from '../support/datahub-client.ts';
import { createDataset } from '../support/graphql.ts';

const MINE = 'urn:li:dataset:(urn:li:dataPlatform:kafka,policy-mine,PROD)';
const OTHER = 'urn:li:dataset:(urn:li:dataPlatform:kafka,policy-other,PROD)';
const READER = 'urn:li:corpuser:sdk-policy-reader';
const DENIED = 'Unauthorized to perform this action. Please contact your DataHub administrator.';

for (const backend of await clientBackends()) {
  describe(`policies through DataHubGraph.execute_graphql: ${backend.name}`, { skip: backend.skip }, () => {
    const run = useClientScript(backend, 'sdk_policies.py', async (server) => {
      await createDataset(server, MINE);
      await createDataset(server, OTHER);
      const readerToken = (await actorWithRole(server, 'sdk-policy-reader', 'Reader')).slice('Bearer '.length);
      return { mine: MINE, other: OTHER, readerUrn: READER, readerToken };
    });

    it("runs DataHub's policy smoke test: create, update, list the update, delete", () => {
      assert.equal(run.result.smokeUpdate, true);
      assert.deepEqual(
        run.result.smokeListed.map((p: Record<string, unknown>) => ({ ...p, urn: undefined })),
        [
          {
            urn: undefined,
            type: 'METADATA',
            name: 'Test Metadata Policy',
            description: 'Updated Metadaata Policy',
            state: 'ACTIVE',
            resources: null,
            privileges: ['EDIT_ENTITY_TAGS', 'EDIT_ENTITY_GLOSSARY_TERMS'],
            actors: { users: null, groups: null, allUsers: true, allGroups: false, resourceOwners: false },
            editable: true,
          },
        ],
      );
      assert.deepEqual(run.result.smokeAfterDelete, []);
    });

    it('lets a Reader deprecate the one dataset a policy names, no other, and not after the policy is deleted', () => {
      // execute_graphql raises with the server's errors in its text: DataHub's message and code.
      const refused = (r: { message: string }) => r.message.includes(DENIED) && r.message.includes("'code': 403");
      assert.ok(refused(run.result.before), run.result.before.message);
      assert.deepEqual(run.result.granted, { updateDeprecation: true });
      assert.ok(refused(run.result.other), run.result.other.message);
      assert.ok(refused(run.result.revoked), run.result.revoked.message);
    });

    it('stored the deprecation the Reader made', async () => {
      const res = await run.server.request('POST', '/api/graphql', {
        body: { query: `{ dataset(urn: "${MINE}") { deprecation { deprecated note actor } } }` },
      });
      assert.deepEqual(res.json.data.dataset.deprecation, { deprecated: true, note: 'reader', actor: READER });
    });
  });
}
