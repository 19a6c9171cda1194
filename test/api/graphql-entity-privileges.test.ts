import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { actorWithRole } from '../support/actors.ts';
import { backends } from '../support/databases.ts';
import { createDataset, gqlData, ingest, mcp } from '../support/graphql.ts';
import { useServer } from '../support/lifecycle.ts';
import type { TestServer } from '../support/server.ts';

const FIELDS = [
  'canEditTags',
  'canEditGlossaryTerms',
  'canEditDescription',
  'canEditOwners',
  'canEditDomains',
  'canEditDeprecation',
  'canEditSchemaFieldTags',
  'canEditSchemaFieldGlossaryTerms',
  'canEditSchemaFieldDescription',
];
const PRIVILEGES = `privileges { ${FIELDS.join(' ')} }`;
const READ = `query($dataset: String!, $dashboard: String!) {
  dataset(urn: $dataset) { ${PRIVILEGES} }
  entity(urn: $dashboard) { ... on Dashboard { ${PRIVILEGES} } }
}`;
const DATASET = 'urn:li:dataset:(urn:li:dataPlatform:hive,privileges.orders,PROD)';
const OTHER = 'urn:li:dataset:(urn:li:dataPlatform:hive,privileges.other,PROD)';
const DASHBOARD = 'urn:li:dashboard:(looker,privileges_board)';
const all = (value: boolean) => Object.fromEntries(FIELDS.map((f) => [f, value]));

for (const backend of await backends()) {
  describe(`GraphQL entity privileges (DataHub's EntityPrivileges, what the UI offers): ${backend.name}`, { skip: backend.skip }, () => {
    let server: TestServer;
    let editor: string;
    let reader: string;
    useServer(backend, async (s) => {
      server = s;
      editor = await actorWithRole(s, 'privileges-editor', 'Editor');
      reader = await actorWithRole(s, 'privileges-reader', 'Reader');
      await createDataset(s, DATASET, ['id']);
      await createDataset(s, OTHER, ['id']);
      await ingest(s, mcp(DASHBOARD, 'dashboardInfo', { title: 'Board', description: '', lastModified: {} }, 'dashboard'));
    });
    const read = (auth?: string, dataset = DATASET) => gqlData(server, READ, { dataset, dashboard: DASHBOARD }, auth ? { auth } : {});

    it('grants an Editor every edit, on a dataset and on a dashboard', async () => {
      const data = await read(editor);
      assert.deepEqual(data.dataset.privileges, all(true));
      assert.deepEqual(data.entity.privileges, all(true));
    });

    it('grants a Reader none', async () => {
      const data = await read(reader);
      assert.deepEqual(data.dataset.privileges, all(false));
      assert.deepEqual(data.entity.privileges, all(false));
    });

    it('follows a policy that grants one privilege on one dataset, and only there', async () => {
      await gqlData(server, 'mutation($input: PolicyUpdateInput!) { createPolicy(input: $input) }', {
        input: {
          type: 'METADATA',
          name: 'tags on orders',
          state: 'ACTIVE',
          description: 'privileges test',
          privileges: ['EDIT_ENTITY_TAGS'],
          actors: { users: ['urn:li:corpuser:privileges-reader'], resourceOwners: false, allUsers: false, allGroups: false },
          resources: { filter: { criteria: [{ field: 'URN', values: [DATASET], condition: 'EQUALS' }] } },
        },
      });
      assert.deepEqual((await read(reader)).dataset.privileges, { ...all(false), canEditTags: true });
      assert.deepEqual((await read(reader, OTHER)).dataset.privileges, all(false));
    });
  });
}
