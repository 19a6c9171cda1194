import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { actorWithRole } from '../support/actors.ts';
import { restliAspect } from '../support/curation.ts';
import { backends } from '../support/databases.ts';
import { useServer } from '../support/lifecycle.ts';
import { createDataset, gqlData, gqlError } from '../support/graphql.ts';
import type { TestServer } from '../support/server.ts';

const ADMIN = 'urn:li:corpuser:datahub';
const SET = 'mutation s($input: SetLogicalParentInput!) { setLogicalParent(input: $input) }';
const CREATE_POLICY = 'mutation createPolicy($input: PolicyUpdateInput!) { createPolicy(input: $input) }';
const READ = 'query d($urn: String!) { dataset(urn: $urn) { logicalParent { urn type } } }';

let counter = 0;
const datasetUrn = () => `urn:li:dataset:(urn:li:dataPlatform:hive,logical.t${++counter},PROD)`;

for (const backend of await backends()) {
  describe(`GraphQL setLogicalParent: ${backend.name}`, { skip: backend.skip }, () => {
    let server: TestServer;
    useServer(backend, (s) => {
      server = s;
    });

    it('sets a logical parent stamped by the caller, reads it back, and unsets it', async () => {
      const [child, parent] = [datasetUrn(), `urn:li:dataset:(urn:li:dataPlatform:logical,model${++counter},PROD)`];
      await createDataset(server, child);
      await createDataset(server, parent);
      assert.deepEqual(await gqlData(server, SET, { input: { resourceUrn: child, parentUrn: parent } }), { setLogicalParent: true });
      const stored = (await restliAspect(server, child, 'logicalParent'))?.parent as Record<string, unknown>;
      assert.equal(stored.destinationUrn, parent);
      assert.equal((stored.created as { actor: string }).actor, ADMIN);
      assert.deepEqual((await gqlData(server, READ, { urn: child })).dataset.logicalParent, { urn: parent, type: 'DATASET' });

      assert.deepEqual(await gqlData(server, SET, { input: { resourceUrn: child } }), { setLogicalParent: true });
      assert.deepEqual(await restliAspect(server, child, 'logicalParent'), {});
      assert.equal((await gqlData(server, READ, { urn: child })).dataset.logicalParent, null);
    });

    it('refuses a Reader with nothing written, an entity type without logical parents and a bad parent urn', async () => {
      const child = datasetUrn();
      await createDataset(server, child);
      const name = `logical-reader-${++counter}`;
      const reader = await actorWithRole(server, name, 'Reader');
      await gqlError(
        server,
        SET,
        { input: { resourceUrn: child, parentUrn: datasetUrn() } },
        { code: 403, type: 'UNAUTHORIZED', message: `Unauthorized to modify logicalParent on entity: ${child}` },
        { auth: reader },
      );
      assert.equal(await restliAspect(server, child, 'logicalParent'), undefined);
      const chart = 'urn:li:chart:(looker,logical1)';
      await gqlError(
        server,
        SET,
        { input: { resourceUrn: chart, parentUrn: child } },
        { code: 400, type: 'BAD_REQUEST', message: 'input.resourceUrn: a chart has no logical parent (only datasets and schema fields do)' },
      );
      await gqlError(
        server,
        SET,
        { input: { resourceUrn: child, parentUrn: 'not-an-urn' } },
        { code: 400, type: 'BAD_REQUEST', message: /not-an-urn/ },
      );
      assert.equal(await restliAspect(server, child, 'logicalParent'), undefined);
    });

    it('needs EDIT_ENTITY on the parent too, and for a schema field takes a grant on its dataset', async () => {
      const [child, parent] = [datasetUrn(), datasetUrn()];
      await createDataset(server, child, ['id']);
      await createDataset(server, parent, ['id']);
      /** A role-less user whose one policy grants EDIT_ENTITY on these entities. */
      const editorOf = async (...urns: string[]) => {
        const name = `logical-scoped-${++counter}`;
        const auth = await actorWithRole(server, name, 'none');
        await gqlData(server, CREATE_POLICY, {
          input: {
            type: 'METADATA',
            name: `logical policy ${counter}`,
            description: 'scoped',
            state: 'ACTIVE',
            resources: { filter: { criteria: [{ field: 'URN', values: urns, condition: 'EQUALS' }] } },
            privileges: ['EDIT_ENTITY'],
            actors: { users: [`urn:li:corpuser:${name}`], resourceOwners: false, allUsers: false, allGroups: false },
          },
        });
        return auth;
      };
      const childOnly = await editorOf(child);
      await gqlError(
        server,
        SET,
        { input: { resourceUrn: child, parentUrn: parent } },
        { code: 403, type: 'UNAUTHORIZED', message: `Unauthorized to modify logicalParent on entity: ${parent}` },
        { auth: childOnly },
      );
      assert.equal(await restliAspect(server, child, 'logicalParent'), undefined);
      // Unsetting needs the child side only.
      assert.deepEqual(await gqlData(server, SET, { input: { resourceUrn: child } }, { auth: childOnly }), { setLogicalParent: true });

      const both = await editorOf(child, parent);
      const [childField, parentField] = [`urn:li:schemaField:(${child},id)`, `urn:li:schemaField:(${parent},id)`];
      assert.deepEqual(await gqlData(server, SET, { input: { resourceUrn: childField, parentUrn: parentField } }, { auth: both }), {
        setLogicalParent: true,
      });
      assert.equal(((await restliAspect(server, childField, 'logicalParent'))?.parent as Record<string, unknown>).destinationUrn, parentField);
    });
  });
}
